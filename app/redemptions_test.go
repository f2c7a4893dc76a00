package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redemptionBody is a redemption as the API answers it.
type redemptionBody struct {
	ID              string    `json:"id"`
	RedemptionID    string    `json:"redemptionId"`
	Kind            string    `json:"kind"`
	Status          string    `json:"status"`
	Amount          string    `json:"amount"`
	Fee             string    `json:"fee"`
	Net             string    `json:"net"`
	CurrencyCode    string    `json:"currency_code"`
	CreatedAt       time.Time `json:"createdAt"`
	TransactionUUID string    `json:"transactionUuid"`
	Destination     struct {
		Kind        string `json:"kind"`
		PayPalEmail string `json:"paypalEmail"`
		Email       string `json:"email"`
	} `json:"destination"`
}

// redeemErrorBody is the spec's error shape.
type redeemErrorBody struct {
	Name       string `json:"name"`
	Message    string `json:"message"`
	StatusCode int    `json:"statusCode"`
	Details    []struct {
		Message string `json:"message"`
		Field   string `json:"field"`
		Code    string `json:"code"`
	} `json:"details"`
	Data map[string]any `json:"data"`
}

type optionBody struct {
	ID           string  `json:"id"`
	Kind         string  `json:"kind"`
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	Minimum      string  `json:"minimum"`
	Fee          string  `json:"fee"`
	CurrencyCode string  `json:"currency_code"`
	Needs        *string `json:"needs"`
}

type availabilityBody struct {
	Minimum          string  `json:"minimum"`
	Fee              string  `json:"fee"`
	Balance          string  `json:"balance"`
	CurrencyCode     string  `json:"currency_code"`
	Available        bool    `json:"available"`
	Reason           string  `json:"reason"`
	EligibleToRedeem string  `json:"eligibleToRedeem"`
	Needs            *string `json:"needs"`
}

const redeemPath = "/api/v3/redemptions/redeem"

// redeemCall posts a redeem with an Idempotency-Key ("" sends none).
func (c *client) redeemCall(key, body string) *response {
	h := http.Header{"Content-Type": {"application/json"}}
	if key != "" {
		h.Set(redemptions.IdempotencyHeader, key)
	}
	return c.do(http.MethodPost, redeemPath, strings.NewReader(body), h)
}

// redeemingMember signs a new member of a panel up through the API (their pp-token goes with
// every request), gives them a balance and, unless eligibility is empty, a mobile verified a
// month ago (phone must be unique in the panel).
func (e *env) redeemingMember(host, panelKey, email string, balance int64, phone string) (*client, string) {
	e.t.Helper()
	ctx := context.Background()
	c := e.client(host)
	res := c.postJSON("/ah/api/v2/user/register", fmt.Sprintf(`{"email":%q,"password":"redeem-pass-1","acceptedTermsConditions":true}`, email))
	require.Equal(e.t, http.StatusCreated, res.StatusCode, res.Body)
	var out struct {
		PPToken string `json:"ppToken"`
	}
	require.NoError(e.t, json.Unmarshal([]byte(res.Body), &out))
	c.header.Set("pp-token", out.PPToken)
	panel, err := e.app.Tenancy.PanelByKey(ctx, panelKey)
	require.NoError(e.t, err)
	pid, err := e.app.Accounts.Service().ParticipantByEmail(ctx, panel, email)
	require.NoError(e.t, err)
	if balance > 0 {
		_, _, err := e.app.Wallet.Credit(ctx, wallet.Movement{Panel: panel, ParticipantID: pid, Amount: balance, Currency: panel.CurrencyCode, Origin: wallet.OriginCampaign, Key: "campaign:" + uuid.NewString(), CampaignID: uuid.NewString(), Title: "Survey"})
		require.NoError(e.t, err)
	}
	if phone != "" {
		_, err := e.app.Mobile.Service().SetVerified(ctx, panel, pid, phone, time.Now().AddDate(0, 0, -30))
		require.NoError(e.t, err)
	}
	return c, pid
}

// redemptionState is what a refused call must leave unchanged for a member.
type redemptionState struct {
	Balance     string
	Redemptions int64
	Entries     int64
	Events      int64
}

func (e *env) redemptionState(c *client, pid string) redemptionState {
	e.t.Helper()
	var s redemptionState
	var b map[string]string
	require.NoError(e.t, json.Unmarshal([]byte(c.get("/api/v3/user/balance").Body), &b))
	s.Balance = b["balance"]
	require.NoError(e.t, e.db.Model(&redemptions.Redemption{}).Where("participant_id = ?", pid).Count(&s.Redemptions).Error)
	require.NoError(e.t, e.db.Model(&wallet.Entry{}).Where("participant_id = ?", pid).Count(&s.Entries).Error)
	require.NoError(e.t, e.db.Model(&redemptions.Event{}).Where("redemption_id IN (SELECT id FROM redemptions WHERE participant_id = ?)", pid).Count(&s.Events).Error)
	return s
}

// reconciledLedger asserts every wallet agrees with its entries.
func (e *env) reconciledLedger() {
	e.t.Helper()
	bad, err := e.app.Wallet.Reconcile(context.Background(), "")
	require.NoError(e.t, err)
	require.Empty(e.t, bad)
}

func TestTheDemoMemberRedeemsToPayPalThroughTheAPIOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		settings := decodeJSON[[]optionBody](t, c.get("/api/v2/demo/redemptions/settings"), http.StatusOK)
		require.Len(t, settings, 3)
		bank := "bank-data"
		assert.Equal(t, []optionBody{
			{ID: "paypal", Kind: "paypal", Name: "PayPal", Description: "Paid to your PayPal account within three working days.", Minimum: "20.00", Fee: "0.00", CurrencyCode: "USD"},
			{ID: "bank", Kind: "bank", Name: "Bank transfer", Description: "Paid to your US checking or savings account within five working days.", Minimum: "20.00", Fee: "0.50", CurrencyCode: "USD", Needs: &bank},
			{ID: "amazon-voucher", Kind: "voucher", Name: "Amazon.com gift card", Description: "A gift card code sent to your account's email address.", Minimum: "10.00", Fee: "0.00", CurrencyCode: "USD"},
		}, settings, "the demo member has a PayPal email on file")

		avail := decodeJSON[availabilityBody](t, c.get("/api/v2/demo/redemptions/paypal/availability"), http.StatusOK)
		assert.Equal(t, availabilityBody{Minimum: "20.00", Fee: "0.00", Balance: "25.00", CurrencyCode: "USD", Available: true, Reason: "", EligibleToRedeem: "yes"}, avail)
		paypal := decodeJSON[map[string]any](t, c.get("/ah/api/v1/paypal-data"), http.StatusOK)
		assert.Equal(t, map[string]any{"paypalEmail": "m***@demo.test"}, paypal)

		key := uuid.NewString()
		first := c.redeemCall(key, `{"redemptionId":"paypal","amount":"20.00"}`)
		require.Equal(t, http.StatusCreated, first.StatusCode, first.Body)
		r := decodeJSON[redemptionBody](t, first, http.StatusCreated)
		assert.Equal(t, "paypal", r.RedemptionID)
		assert.Equal(t, "pending", r.Status)
		assert.Equal(t, []string{"20.00", "0.00", "20.00", "USD"}, []string{r.Amount, r.Fee, r.Net, r.CurrencyCode})
		assert.Equal(t, "m***@demo.test", r.Destination.PayPalEmail)
		assert.NotContains(t, first.Body, DemoEmail, "the answer never holds the whole address")

		replay := c.redeemCall(key, `{"redemptionId":"paypal","amount":"20"}`)
		assert.Equal(t, http.StatusOK, replay.StatusCode, "a replay is a 200")
		assert.Equal(t, first.Body, replay.Body, "with the same body")

		assert.Equal(t, "5.00", e.balanceOf(c))
		tx := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?redemptions=yes"), http.StatusOK)
		require.Len(t, tx.Transactions, 1)
		assert.Equal(t, "redeem", tx.Transactions[0].Origin)
		assert.Equal(t, "-20.00", tx.Transactions[0].Amount)
		assert.Equal(t, r.TransactionUUID, tx.Transactions[0].TransactionUUID)
		assert.Equal(t, "PayPal", tx.Transactions[0].Title)

		list := decodeJSON[struct {
			Redemptions []redemptionBody `json:"redemptions"`
		}](t, c.get("/api/v3/redemptions"), http.StatusOK)
		require.Len(t, list.Redemptions, 1)
		assert.Equal(t, r.ID, list.Redemptions[0].ID)
		one := c.get("/api/v3/redemptions/" + r.ID)
		assert.JSONEq(t, first.Body, one.Body)

		avail = decodeJSON[availabilityBody](t, c.get("/api/v2/demo/redemptions/paypal/availability"), http.StatusOK)
		assert.False(t, avail.Available)
		assert.Equal(t, "below_minimum", avail.Reason)
		e.reconciledLedger()
	})
}

func TestOneIdempotencyKeySentManyTimesAtOnceThroughTheServerRedeemsOnce(t *testing.T) {
	t.Parallel()
	const racers = 30
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		var cookies []string
		for _, ck := range c.jar.Cookies(&url.URL{Scheme: "http", Host: c.host, Path: "/"}) {
			cookies = append(cookies, ck.Name+"="+ck.Value)
		}
		type result struct {
			status int
			body   string
			err    error
		}
		results := make([]result, racers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				req, _ := http.NewRequest(http.MethodPost, "http://localhost"+redeemPath, strings.NewReader(`{"redemptionId":"paypal","amount":"20.00"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Idempotency-Key", "tap-tap-tap")
				req.Header.Set("Cookie", strings.Join(cookies, "; "))
				res, err := e.app.Fiber.Test(req, fiber.TestConfig{Timeout: 30 * time.Second})
				if err != nil {
					results[i].err = err
					return
				}
				b, err := io.ReadAll(res.Body)
				res.Body.Close()
				results[i] = result{res.StatusCode, string(b), err}
			}()
		}
		close(start)
		wg.Wait()
		created := 0
		for i, r := range results {
			require.NoError(t, r.err, "caller %d", i)
			require.Contains(t, []int{http.StatusCreated, http.StatusOK}, r.status, "caller %d: %s", i, r.body)
			if r.status == http.StatusCreated {
				created++
			}
			assert.Equal(t, results[0].body, r.body, "caller %d", i)
		}
		assert.Equal(t, 1, created)
		assert.Equal(t, "5.00", e.balanceOf(c))
		e.reconciledLedger()
	})
}

func TestEveryRefusedRedeemThroughTheAPILeavesTheMemberAsTheyWere(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		key    string // "" sends none; "used" reuses the key of a 20.00 redemption made first
		body   string
		header http.Header
		status int
		code   string
		field  string
		say    string
		data   map[string]any
	}{
		{name: "without an Idempotency-Key", body: `{"redemptionId":"paypal","amount":"20.00"}`, status: 400, code: "idempotency_key_required", field: "Idempotency-Key", say: "Idempotency-Key"},
		{name: "with an overlong Idempotency-Key", key: strings.Repeat("k", 129), body: `{"redemptionId":"paypal","amount":"20.00"}`, status: 400, code: "idempotency_key_invalid", field: "Idempotency-Key", say: "Idempotency-Key"},
		{name: "the same key with another body", key: "used", body: `{"redemptionId":"paypal","amount":"21.00"}`, status: 409, code: "idempotency_key_reused"},
		{name: "below the minimum", key: "k", body: `{"redemptionId":"paypal","amount":"19.99"}`, status: 422, code: "below_minimum", field: "amount", say: "20.00 USD", data: map[string]any{"minimum": "20.00", "currency_code": "USD"}},
		{name: "above the balance", key: "k", body: `{"redemptionId":"paypal","amount":"100.00"}`, status: 422, code: "insufficient_funds"},
		{name: "without a bank account on file", key: "k", body: `{"redemptionId":"bank","amount":"20.00"}`, status: 422, code: "needs_bank_data", field: "bank-data", say: "bank-data", data: map[string]any{"needs": "bank-data"}},
		{name: "an unknown option", key: "k", body: `{"redemptionId":"gold","amount":"20.00"}`, status: 400, code: "unknown_option", field: "redemptionId"},
		{name: "three decimals", key: "k", body: `{"redemptionId":"paypal","amount":"20.001"}`, status: 400, code: "invalid", field: "amount"},
		{name: "an amount as a float-looking number", key: "k", body: `{"redemptionId":"paypal","amount":20.001}`, status: 400, code: "invalid", field: "amount"},
		{name: "a negative amount", key: "k", body: `{"redemptionId":"paypal","amount":"-20.00"}`, status: 400, code: "invalid", field: "amount"},
		{name: "no amount", key: "k", body: `{"redemptionId":"paypal"}`, status: 400, code: "invalid", field: "amount"},
		{name: "malformed JSON", key: "k", body: `{"redemptionId":`, status: 400},
	}
	eachDialect(t, func(t *testing.T, e *env) {
		c, pid := e.redeemingMember("localhost", "demo", "refused@demo.test", 3000, "+12025550171")
		_, err := e.app.Redemptions.SavePayPal(context.Background(), mustPanel(t, e, "demo"), pid, "refused@example.com")
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, c.redeemCall("used", `{"redemptionId":"paypal","amount":"20.00"}`).StatusCode)
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := e.redemptionState(c, pid)
				key := tc.key
				if key == "k" {
					key = uuid.NewString()
				}
				res := c.redeemCall(key, tc.body)
				body := decodeJSON[redeemErrorBody](t, res, tc.status)
				assert.Equal(t, "ClientError", body.Name)
				assert.Equal(t, tc.status, body.StatusCode)
				if tc.code != "" {
					require.NotEmpty(t, body.Details)
					assert.Equal(t, tc.code, body.Details[0].Code)
				}
				if tc.field != "" {
					assert.Equal(t, tc.field, body.Details[0].Field)
				}
				if tc.say != "" {
					assert.Contains(t, body.Message, tc.say)
				}
				if tc.data != nil {
					assert.Equal(t, tc.data, body.Data)
				}
				assert.Equal(t, before, e.redemptionState(c, pid))
			})
		}

		t.Run("a member whose mobile is not verified", func(t *testing.T) {
			c, pid := e.redeemingMember("localhost", "demo", "unverified@demo.test", 3000, "")
			_, err := e.app.Redemptions.SavePayPal(context.Background(), mustPanel(t, e, "demo"), pid, "unverified@example.com")
			require.NoError(t, err)
			before := e.redemptionState(c, pid)
			body := decodeJSON[redeemErrorBody](t, c.redeemCall(uuid.NewString(), `{"redemptionId":"paypal","amount":"20.00"}`), http.StatusForbidden)
			assert.Equal(t, "not-verified", body.Details[0].Code)
			assert.Equal(t, map[string]any{"eligibleToRedeem": "not-verified"}, body.Data)
			assert.Equal(t, before, e.redemptionState(c, pid))
			avail := decodeJSON[availabilityBody](t, c.get("/api/v2/demo/redemptions/paypal/availability"), http.StatusOK)
			assert.Equal(t, "not_eligible", avail.Reason)
			assert.Equal(t, "not-verified", avail.EligibleToRedeem)
		})

		t.Run("another member's redemption", func(t *testing.T) {
			other, _ := e.redeemingMember("localhost", "demo", "other@demo.test", 0, "")
			var id string
			require.NoError(t, e.db.Model(&redemptions.Redemption{}).Where("participant_id = ?", pid).Limit(1).Pluck("id", &id).Error)
			before := e.redemptionState(c, pid)
			assert.Equal(t, http.StatusNotFound, other.get("/api/v3/redemptions/"+id).StatusCode)
			res := other.redeemCall(uuid.NewString(), fmt.Sprintf(`{"redemptionId":%q,"amount":"20.00"}`, id))
			assert.Equal(t, http.StatusBadRequest, res.StatusCode, "a redemption's id is no option")
			assert.Equal(t, before, e.redemptionState(c, pid))
		})
		e.reconciledLedger()
	})
}

func mustPanel(t *testing.T, e *env, key string) *web.Panel {
	t.Helper()
	p, err := e.app.Tenancy.PanelByKey(context.Background(), key)
	require.NoError(t, err)
	return p
}

func TestRedemptionCallsArePrivateAndBlindToOtherPanels(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		visitor := e.client("localhost")
		for _, path := range []string{"/api/v2/demo/redemptions/settings", "/api/v2/demo/redemptions/paypal/availability", "/api/v3/redemptions", "/ah/api/v1/paypal-data", "/ah/api/v1/bank-data"} {
			assert.Equal(t, http.StatusUnauthorized, visitor.get(path).StatusCode, path)
		}
		assert.Equal(t, http.StatusUnauthorized, visitor.redeemCall("k", `{"redemptionId":"paypal","amount":"20.00"}`).StatusCode)

		c := e.member()
		assert.Equal(t, http.StatusNotFound, c.get("/api/v2/northwind/redemptions/settings").StatusCode, "another instance's code")
		assert.Equal(t, http.StatusNotFound, c.get("/api/v2/demo/redemptions/nope/availability").StatusCode)
		assert.Equal(t, http.StatusOK, c.get("/api/v1/demo/redemptions/settings").StatusCode, "v1 answers too")
	})
}

func TestPayoutDetailsAreSavedCheckedAndShownMaskedThroughTheAccountHost(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		var spec tenancy.PanelSpec
		spec.Instance.Code, spec.Key, spec.Name, spec.CurrencyCode = "euro", "euro", "Euro Panel", "EUR"
		spec.Hosts, spec.Languages = []string{"euro.localhost"}, []string{"en"}
		_, err := e.app.Tenancy.Apply(ctx, spec)
		require.NoError(t, err)
		spec.Instance.Code, spec.Key, spec.Name, spec.CurrencyCode, spec.Hosts = "yen", "yen", "Yen Panel", "JPY", []string{"yen.localhost"}
		_, err = e.app.Tenancy.Apply(ctx, spec)
		require.NoError(t, err)

		cases := []struct {
			name, host, panel, path, body string
			status                        int
			want                          string // JSON answer, or the field named in a 400
		}{
			{"no PayPal email yet", "localhost", "demo", "/ah/api/v1/paypal-data", "", 200, `{"paypalEmail":null}`},
			{"a PayPal email without a domain", "localhost", "demo", "/ah/api/v1/paypal-data", `{"paypalEmail":"dana@"}`, 400, "paypalEmail"},
			{"a PayPal email", "localhost", "demo", "/ah/api/v1/paypal-data", `{"paypalEmail":"dana.payee@example.com"}`, 200, `{"paypalEmail":"d***@example.com"}`},
			{"no US bank account yet", "localhost", "demo", "/ah/api/v1/bank-data", "", 200, `{"currency_code":"USD","fields":["accountHolder","routingNumber","accountNumber","accountType"],"bankData":null}`},
			{"a bad routing number", "localhost", "demo", "/ah/api/v1/bank-data", `{"accountHolder":"Dana","routingNumber":"123456789","accountNumber":"12345678","accountType":"checking"}`, 400, "routingNumber"},
			{"a US account", "localhost", "demo", "/ah/api/v1/bank-data", `{"accountHolder":"Dana Payee","routingNumber":"021000021","accountNumber":"000123456789","accountType":"checking"}`, 200,
				`{"currency_code":"USD","fields":["accountHolder","routingNumber","accountNumber","accountType"],"bankData":{"kind":"bank","currency_code":"USD","accountHolder":"Dana Payee","routingNumber":"*****0021","accountNumber":"********6789","accountType":"checking"}}`},
			{"a UK account", "northwind.localhost", "northwind", "/ah/api/v1/bank-data", `{"accountHolder":"Tom Atkins","sortCode":"12-34-56","accountNumber":"12345678"}`, 200,
				`{"currency_code":"GBP","fields":["accountHolder","sortCode","accountNumber"],"bankData":{"kind":"bank","currency_code":"GBP","accountHolder":"Tom Atkins","sortCode":"**-**-56","accountNumber":"****5678"}}`},
			{"a malformed IBAN", "euro.localhost", "euro", "/ah/api/v1/bank-data", `{"accountHolder":"Erika","iban":"DE89 3704 0044 0532 0130 01"}`, 400, "iban"},
			{"an IBAN", "euro.localhost", "euro", "/ah/api/v1/bank-data", `{"accountHolder":"Erika Mustermann","iban":"DE89 3704 0044 0532 0130 00","bic":"COBADEFFXXX"}`, 200,
				`{"currency_code":"EUR","fields":["accountHolder","iban","bic"],"bankData":{"kind":"bank","currency_code":"EUR","accountHolder":"Erika Mustermann","iban":"DE** **** **** **** **30 00","bic":"COBADEFFXXX"}}`},
			{"a bank account in yen", "yen.localhost", "yen", "/ah/api/v1/bank-data", `{"accountHolder":"Taro"}`, 422, "bank_transfer_not_offered"},
		}
		clients := map[string]*client{}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c := clients[tc.host]
				if c == nil {
					c, _ = e.redeemingMember(tc.host, tc.panel, "payee@"+tc.panel+".test", 0, "")
					clients[tc.host] = c
				}
				var res *response
				if tc.body == "" {
					res = c.get(tc.path)
				} else {
					res = c.postJSON(tc.path, tc.body)
				}
				require.Equal(t, tc.status, res.StatusCode, res.Body)
				switch tc.status {
				case 200:
					assert.JSONEq(t, tc.want, res.Body)
					if tc.body != "" {
						assert.JSONEq(t, tc.want, c.get(tc.path).Body, "GET answers what POST saved, masked")
					}
				case 400:
					body := decodeJSON[redeemErrorBody](t, res, 400)
					assert.Equal(t, tc.want, body.Details[0].Field)
				default:
					body := decodeJSON[redeemErrorBody](t, res, tc.status)
					assert.Equal(t, tc.want, body.Details[0].Code)
				}
			})
		}
		// A database dump holds none of it.
		var dump []string
		require.NoError(t, e.db.Raw(`SELECT sealed FROM payout_details`).Scan(&dump).Error)
		all := strings.Join(dump, "\n")
		for _, secret := range []string{"dana.payee", "123456789", "DE89370400440532013000", "Mustermann", "12345678"} {
			assert.NotContains(t, all, secret)
		}
	})
}

var hiddenKeyRE = regexp.MustCompile(`name="idempotencyKey" value="([^"]+)"`)

func TestTheRedemptionsPageRedeemsOnceWithPlainForms(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		feed := c.get("/feed")
		assert.Contains(t, feed.Body, `href="/redemptions"`, "the navigation has the section")
		assert.Contains(t, feed.Body, `#rewards`)

		page := c.get("/redemptions")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "Redeem your balance")
		assert.Contains(t, page.Body, "m***@demo.test", "the PayPal email on file, masked")
		assert.NotContains(t, page.Body, DemoEmail+"<", "never the whole address")
		assert.Contains(t, page.Body, `data-available="true"`)
		assert.Contains(t, htmlUnescape(page.Body), "You haven't redeemed anything yet.")
		assert.LessOrEqual(t, gzipSize([]byte(page.Body)), budgetHTML, "the page's HTML weight")
		m := hiddenKeyRE.FindStringSubmatch(page.Body)
		require.NotNil(t, m, "the form carries a key the server made")
		key := m[1]
		assert.NotEqual(t, key, hiddenKeyRE.FindStringSubmatch(c.get("/redemptions").Body)[1], "each visit gets its own key")

		// A refused amount comes back inline, with the same key (nothing was written).
		bad := c.postForm("/redemptions/redeem", url.Values{"idempotencyKey": {key}, "redemptionId": {"paypal"}, "amount": {"19"}})
		require.Equal(t, http.StatusUnprocessableEntity, bad.StatusCode)
		assert.Contains(t, bad.Body, "The least you can redeem this way is 20.00 USD.")
		assert.Contains(t, bad.Body, `value="`+key+`"`)

		// A double submit: both land on the page, one redemption.
		form := url.Values{"idempotencyKey": {key}, "redemptionId": {"paypal"}, "amount": {"20.00"}}
		for range 2 {
			res := c.postForm("/redemptions/redeem", form)
			require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
			assert.Equal(t, "/redemptions", res.Header.Get("Location"))
		}
		after := c.get("/redemptions")
		assert.Contains(t, after.Body, "Your redemption request has been received.")
		assert.Equal(t, 1, strings.Count(after.Body, `data-status="pending"`), "one redemption in the history")
		assert.Contains(t, after.Body, "$5.00")
		assert.Equal(t, "5.00", e.balanceOf(c))

		// The same form sent for another amount is refused and gets a fresh key.
		reused := c.postForm("/redemptions/redeem", url.Values{"idempotencyKey": {key}, "redemptionId": {"amazon-voucher"}, "amount": {"5"}})
		require.Equal(t, http.StatusConflict, reused.StatusCode)
		assert.NotContains(t, reused.Body, `value="`+key+`"`)
		e.reconciledLedger()
	})
}

func TestTheRedemptionsPageSavesPayoutDetailsAndSaysWhatIsMissing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c, _ := e.redeemingMember("localhost", "demo", "newcomer@demo.test", 500, "")
		c.get("/redemptions") // the CSRF cookie of the session
		page := c.get("/redemptions")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `data-eligibility="not-verified"`)
		assert.Contains(t, page.Body, `href="/settings/mobile"`, "a member who may not redeem is shown where to verify")
		assert.Contains(t, page.Body, `data-reason="not_eligible"`)

		res := c.postForm("/redemptions/paypal-data", url.Values{"paypalEmail": {"not an email"}})
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, res.Body, "Please enter a valid email address.")
		res = c.postForm("/redemptions/paypal-data", url.Values{"paypalEmail": {"newcomer@example.com"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		page = c.get("/redemptions")
		assert.Contains(t, page.Body, "Your PayPal email address has been saved.")
		assert.Contains(t, page.Body, "n***@example.com")

		res = c.postForm("/redemptions/bank-data", url.Values{"accountHolder": {"New Comer"}, "routingNumber": {"021000022"}, "accountNumber": {"12345678"}, "accountType": {"checking"}})
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, htmlUnescape(res.Body), "That routing number isn't valid")
		assert.Contains(t, res.Body, `value="New Comer"`, "the form keeps what was typed")
		res = c.postForm("/redemptions/bank-data", url.Values{"accountHolder": {"New Comer"}, "routingNumber": {"021000021"}, "accountNumber": {"12345678"}, "accountType": {"savings"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		page = c.get("/redemptions")
		assert.Contains(t, page.Body, "****5678")
		assert.NotContains(t, page.Body, "12345678")

		res = c.postForm("/redemptions/redeem", url.Values{"idempotencyKey": {uuid.NewString()}, "redemptionId": {"paypal"}, "amount": {"20.00"}})
		require.Equal(t, http.StatusForbidden, res.StatusCode)
		assert.Contains(t, res.Body, "verify it with the code we text you")
	})
}
