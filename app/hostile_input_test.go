package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// tableRows counts the rows of every table but the ones a refused request may still write:
// rate-limit counters (a refused login still counts as an attempt), sessions (looking one up
// touches it), the record of offers postbacks (refused ones are recorded with their reason)
// and the migrations' and the job queue's own bookkeeping.
func tableRows(t testing.TB, db *gorm.DB) map[string]int64 {
	t.Helper()
	query, ok := tableRowsQuery.Load(db)
	if !ok {
		query = countQuery(tableNames(t, db))
		tableRowsQuery.Store(db, query)
	}
	row := map[string]any{}
	require.NoError(t, db.Raw(query.(string)).Take(&row).Error)
	out := make(map[string]int64, len(row))
	for k, v := range row {
		switch n := v.(type) {
		case int64:
			out[k] = n
		case int32:
			out[k] = int64(n)
		default:
			t.Fatalf("count of %s is a %T", k, v)
		}
	}
	return out
}

// tableRowsQuery keeps each database's counting query: the sweeps count rows after every
// request, and the tables never change during a test.
var tableRowsQuery sync.Map

// countQuery counts the rows of every table a refused request must leave alone, in one query.
func countQuery(tables []string) string {
	var counts []string
	for _, name := range tables {
		switch name {
		case "rate_limits", "sessions", "goose_db_version":
			continue
		case "offer_postbacks":
			continue // every postback received is recorded, refused ones too (docs/members.md, Offers and games)
		case "river_leader", "river_client", "river_client_queue", "river_queue":
			continue // the job queue's own bookkeeping (its leader, elected when it pleases), no request's
		}
		counts = append(counts, fmt.Sprintf(`(SELECT COUNT(*) FROM %q) AS %q`, name, name))
	}
	return "SELECT " + strings.Join(counts, ", ")
}

// tableNames lists the database's tables in name order, on either dialect.
func tableNames(t testing.TB, db *gorm.DB) []string {
	t.Helper()
	var tables []string
	switch migrations.DialectOf(db) {
	case migrations.Postgres:
		require.NoError(t, db.Raw(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`).Scan(&tables).Error)
	default:
		require.NoError(t, db.Raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).Scan(&tables).Error)
	}
	sort.Strings(tables)
	return tables
}

// apiRefusal is a 400 of the spec's error shape that names field, with every message whole.
func apiRefusal(t *testing.T, res *response, field string) {
	t.Helper()
	require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
	var body struct {
		Name       string `json:"name"`
		Message    string `json:"message"`
		StatusCode int    `json:"statusCode"`
		Details    []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
		} `json:"details"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.Body), &body), res.Body)
	assert.Equal(t, "ClientError", body.Name)
	assert.Equal(t, http.StatusBadRequest, body.StatusCode)
	require.NotEmpty(t, body.Details, res.Body)
	assert.Equal(t, field, body.Details[0].Field, res.Body)
	for _, msg := range []string{body.Message, body.Details[0].Message} {
		assert.NotEmpty(t, strings.TrimSpace(msg), res.Body)
		assert.NotContains(t, msg, "<no value>", res.Body)
		assert.NotContains(t, msg, "{{", res.Body)
	}
}

// The five inputs found by hand in review: each was a 500 on PostgreSQL, a different answer
// on SQLite, or a message without its parameter. Each is now the same 400 naming the field
// on both databases, and nothing is stored.
func TestHostileTextsFoundInReviewAreClear400sOnEveryDatabase(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		base := "/api/v1/demo/campaigns/" + poll
		// Rating needs a finished campaign: finish it first.
		decodeJSON[goResultJSON](t, c.get(base+"/go"), http.StatusOK)
		decodeJSON[goResultJSON](t, c.postJSON(base+"/question/morning_drink", `{"answer":"tea"}`), http.StatusOK)

		cases := []struct {
			name, method, target, body, field string
		}{
			{"a NUL in a broken report's text", http.MethodPost, base + "/report-broken", `{"reasonCode":"other","reasonText":"a\u0000b"}`, "reasonText"},
			{"a NUL in a rating's comment", http.MethodPost, base + "/rating", `{"rating":4,"comment":"ok\u0000"}`, "comment"},
			{"a NUL in a login's email", http.MethodPost, "/ah/api/v2/user/login", `{"email":"member\u0000@demo.test","password":"demo-password-1"}`, "email"},
			{"a NUL in a first name", http.MethodPost, "/ah/api/v1/user/profile", `{"firstName":"x\u0000y"}`, "firstName"},
			{"a NUL inside a tracking event's data", http.MethodGet,
				"/api/v1/demo/events/record?eventName=APP_LOAD&eventData=" + url.QueryEscape(`{"referrer":"a\u0000b"}`), "", "eventData.referrer"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := tableRows(t, e.db)
				var res *response
				if tc.method == http.MethodGet {
					res = c.get(tc.target)
				} else {
					res = c.postJSON(tc.target, tc.body)
				}
				apiRefusal(t, res, tc.field)
				assert.Equal(t, before, tableRows(t, e.db), "a refused request writes nothing")
			})
		}
	})
}

// A name that is too long says how long it may be, in the member's language.
func TestAProfileFieldTooLongSaysItsLimit(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		c := e.member()
		res := c.postJSON("/ah/api/v1/user/profile", `{"firstName":"`+strings.Repeat("a", 300)+`"}`)
		apiRefusal(t, res, "firstName")
		assert.Contains(t, res.Body, "at most 100 characters", res.Body)
		res = c.postJSON("/ah/api/v1/user/profile", `{"lastName":"two\nlines"}`)
		apiRefusal(t, res, "lastName")
		assert.NotContains(t, res.Body, "at most", "a line break is not a length")
	})
}

// A form whose text the edge refuses comes back to its page: the message stands beside the
// field (with the field marked for screen readers), a toast says what happened, and nothing
// was stored.
func TestAFormWithARefusedTextComesBackWithTheMessageBesideTheField(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		visitor := e.client("localhost")
		visitor.get("/join")
		before := tableRows(t, e.db)
		form := url.Values{"email": {"new@example.com"}, "password": {"a-long-password-1"}, "firstName": {"Ann\u202eeve"}, "_csrf": {visitor.cookie("XSRF-TOKEN")}}
		res := visitor.do(http.MethodPost, "/join", strings.NewReader(form.Encode()), http.Header{
			"Content-Type": {"application/x-www-form-urlencoded"}, "Referer": {"http://localhost/join"},
		})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/join", res.Header.Get("Location"))
		assert.Equal(t, before, tableRows(t, e.db), "no member was made")

		page := visitor.get("/join")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Regexp(t, `id="f-firstName"[^>]*aria-invalid="true"`, page.Body)
		assert.Contains(t, page.Body, `<p class="field-error" id="e-firstName">This contains a character that can&#39;t be used here`)
		assert.Contains(t, page.Body, "Something you entered can&#39;t be used", "the toast")
		again := visitor.get("/join")
		assert.NotContains(t, again.Body, `id="e-firstName"`, "the message is shown once")

		// A form without a page to return to (no Referer) comes back to the home page.
		res = visitor.do(http.MethodPost, "/login", strings.NewReader(url.Values{"email": {"a\x00b"}, "_csrf": {visitor.cookie("XSRF-TOKEN")}}.Encode()),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/", res.Header.Get("Location"))
	})
}

// A page asked with a refused query parameter answers the error page in the member's
// language and the panel's look, saying what is wrong, never a 500.
func TestAPageAskedWithARefusedParameterSaysWhatIsWrong(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		c := e.member()
		c.get("/transactions?lang=es") // the member switches to Spanish
		res := c.get("/transactions?filter=" + url.QueryEscape("a\x00b"))
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, res.Header.Get("Content-Type"), "text/html")
		assert.Contains(t, res.Body, "Contiene un carácter que no se puede usar aquí")
		assert.Contains(t, res.Body, "Canvass Demo", "the panel's page")
	})
}

// encoding/json matches keys to fields ignoring case and stops reading after the first
// document: a redeem once paid 11.00 for {"amount":"10.00","AMOUNT":"11.00"}. Every body is
// now read by exact names and to its end, and such a request changes nothing.
func TestABodyWithAFieldInOtherLettersOrSomethingAfterItRedeemsNothing(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		c := e.member()
		cases := []struct {
			name, body, field string // field: the one the answer names, if any
		}{
			{"the amount twice, once in capitals", `{"redemptionId":"amazon-voucher","amount":"10.00","AMOUNT":"11.00"}`, "AMOUNT"},
			{"the amount in capitals alone", `{"redemptionId":"amazon-voucher","AMOUNT":"11.00"}`, "AMOUNT"},
			{"a second document after the first", `{"redemptionId":"amazon-voucher","amount":"10.00"} {"amount":"11.00"}`, ""},
			{"text after the document", `{"redemptionId":"amazon-voucher","amount":"10.00"} xx`, ""},
		}
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				before := tableRows(t, e.db)
				res := c.do(http.MethodPost, redeemPath, strings.NewReader(tc.body),
					http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {fmt.Sprintf("case-%d", i)}})
				require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
				if tc.field != "" {
					apiRefusal(t, res, tc.field)
				}
				_, msg, _ := apiError(t, res)
				assert.NotEmpty(t, msg)
				assert.Equal(t, before, tableRows(t, e.db), "a refused request writes nothing")
			})
		}
	})
}
