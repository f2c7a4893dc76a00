package wallet

import (
	"encoding/json"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/testsupport/contract"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// signedIn stands where accounts' session middleware stands in the app: the request arrives
// for the member it names, on their panel and in their language. The wallet's guard then has
// nothing left to check.
type signedIn struct{}

func (signedIn) Private() fiber.Handler       { return func(c fiber.Ctx) error { return c.Next() } }
func (signedIn) RequireMember() fiber.Handler { return func(c fiber.Ctx) error { return c.Next() } }

// serve gives the fixture's wallet routes, for a member of panel speaking lang.
func (f *fixture) serve(panel *web.Panel, pid, lang string) *fiber.App {
	f.t.Helper()
	loc := messages.Locales(f.t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	m := New(Deps{DB: f.db, Kit: kit, Log: log, Guard: signedIn{}, PanelOf: accounts.PanelOfParticipant})
	m.now = f.m.now
	app := fiber.New(fiber.Config{ErrorHandler: kit.ErrorHandler})
	app.Use(func(c fiber.Ctx) error {
		web.SetPanel(c, panel)
		web.SetMember(c, &web.Member{ParticipantID: pid, SessionID: "s", LanguageCode: lang})
		return c.Next()
	})
	app.Use(kit.Locale())
	m.Routes(app)
	return app
}

func get(t *testing.T, app *fiber.App, path string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://acme.example.com"+path, nil)
	res, err := app.Test(req, fiber.TestConfig{Timeout: 20 * time.Second, FailOnTimeout: true})
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	contract.Check(t, req, nil, res, body)
	return res.StatusCode, string(body)
}

func TestOfferCreditsReversalsAndRecoveriesShowInTheTransactionsAndTheDebtBesideTheBalance(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		credit, _, err := f.creditTx(offerCredit(f.acme, pid, 1000, "tx-1"))
		require.NoError(t, err)
		f.clock = f.clock.Add(time.Minute)
		f.debit(f.acme, pid, 800)
		f.clock = f.clock.Add(time.Minute)
		reversal, _, _, err := f.reverseTx(reversalOf(f.acme, pid, "tx-1", "reversal:tx-1"))
		require.NoError(t, err)
		f.clock = f.clock.Add(time.Minute)
		f.credit(f.acme, pid, 300)
		f.sound(pid)

		type row struct {
			UUID     string  `json:"transactionUuid"`
			Origin   string  `json:"origin"`
			Amount   string  `json:"amount"`
			Balance  string  `json:"balance"`
			Title    string  `json:"title"`
			Debt     string  `json:"debt"`
			Reverses *string `json:"reversesTransactionUuid"`
		}
		paged := func(app *fiber.App, query string) []row {
			t.Helper()
			status, body := get(t, app, "/api/v3/transactions/paged?"+query)
			require.Equal(t, http.StatusOK, status, body)
			var out struct {
				Transactions []row `json:"transactions"`
			}
			require.NoError(t, json.Unmarshal([]byte(body), &out), body)
			return out.Transactions
		}
		en := f.serve(f.acme, pid, "en")
		rows := paged(en, "pageSize=10")
		require.Len(t, rows, 5)
		want := []row{
			{Origin: "offer", Amount: "-3.00", Balance: "0.00", Title: "Repays a reversed offer reward", Debt: "-3.00"},
			{Origin: "campaign", Amount: "3.00", Balance: "3.00", Title: "Survey"},
			{UUID: reversal.ID, Origin: "offer", Amount: "-2.00", Balance: "0.00", Title: "Play Tile Quest to level 10 (reversed)", Debt: "8.00", Reverses: &credit.ID},
			{Origin: "redeem", Amount: "-8.00", Balance: "2.00", Title: "Gift card"},
			{UUID: credit.ID, Origin: "offer", Amount: "10.00", Balance: "10.00", Title: "Play Tile Quest to level 10"},
		}
		for i := range want {
			if want[i].UUID == "" {
				want[i].UUID = rows[i].UUID
			}
		}
		assert.Equal(t, want, rows, "newest first, offers with their own origin and the offer's name")
		assert.Empty(t, paged(en, "competitions=yes"), "offer entries are not competitions")
		redeemed := paged(en, "redemptions=yes")
		require.Len(t, redeemed, 1, "offer entries are not redemptions")
		assert.Equal(t, "redeem", redeemed[0].Origin)

		status, body := get(t, en, "/api/v3/user/balance")
		require.Equal(t, http.StatusOK, status)
		assert.JSONEq(t, `{"balance":"0.00","currency_code":"USD","formatted":"$0.00","owed":"5.00"}`, body)

		status, page := get(t, en, "/transactions")
		require.Equal(t, http.StatusOK, status, page)
		page = html.UnescapeString(page)
		assert.Contains(t, page, "You owe $5.00 for reversed offer rewards")
		assert.Contains(t, page, "Play Tile Quest to level 10 (reversed)")
		assert.Contains(t, page, "$8.00 was more than your balance and is owed")
		assert.Contains(t, page, "Repays a reversed offer reward")

		// In the member's own language.
		es := f.serve(f.acme, pid, "es")
		assert.Equal(t, "Devuelve una recompensa de oferta anulada", paged(es, "pageSize=1")[0].Title)
		status, page = get(t, es, "/transactions")
		require.Equal(t, http.StatusOK, status, page)
		assert.Contains(t, html.UnescapeString(page), "Debes 5,00")

		// Once repaid, the sentence and the owed field go.
		f.credit(f.acme, pid, 600)
		status, body = get(t, en, "/api/v3/user/balance")
		require.Equal(t, http.StatusOK, status)
		assert.JSONEq(t, `{"balance":"1.00","currency_code":"USD","formatted":"$1.00"}`, body)
		_, page = get(t, en, "/transactions")
		assert.NotContains(t, html.UnescapeString(page), "You owe")
		f.sound(pid)
	})
}
