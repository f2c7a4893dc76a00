package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm/logger"
)

// roundTripBudgets are the most database round trips (statements, BEGIN, COMMIT; prepares
// excluded, see migrations.RoundTrips) one request of a hot route may make once warm, on
// either database. Every member request reads its session with member, account holder and,
// on GET, wallet (for the top bar's balance) in one query; panels, themes, translations,
// decoded campaign definitions and the panel's live campaign list come from per-process caches. Each budget is what the route needs today: lowering one is progress,
// exceeding one fails `make test` (docs/contributing.md, Server cost).
var roundTripBudgets = []struct {
	name, method, path, body string
	budget                   int64
	visitor                  bool
}{
	{name: "login page (visitor)", method: http.MethodGet, path: "/login", budget: 0, visitor: true},
	{name: "feed page", method: http.MethodGet, path: "/feed", budget: 2},
	{name: "feed API, first page", method: http.MethodPost, path: "/api/v3/campaigns/paged", body: `[]`, budget: 2},
	{name: "balance API", method: http.MethodGet, path: "/api/v3/user/balance", budget: 1},
	{name: "transactions page", method: http.MethodGet, path: "/transactions", budget: 3},
	{name: "offers page", method: http.MethodGet, path: "/offers", budget: 3},
	{name: "offer rows API", method: http.MethodGet, path: "/api/v3/offers_and_games/paged", budget: 2},
	{name: "survey page (invitation)", method: http.MethodGet, path: "/survey/{survey}/", budget: 3},
	{name: "survey go", method: http.MethodGet, path: "/api/v1/demo/campaigns/{survey}/go", budget: 4},
	{name: "answer submit", method: http.MethodPost, path: "/api/v1/demo/campaigns/{survey}/question/{next}", body: `{"answer":"a"}`, budget: 7},
}

// importBudgetSurvey adds a survey of n radio questions to Canvass Demo and returns it.
func importBudgetSurvey(t testing.TB, e *env, n int) *campaigns.Definition {
	t.Helper()
	ctx := context.Background()
	panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	def := &campaigns.Definition{UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "Budget survey"}, Reward: "0.25", EstimatedMinutes: 10}
	for i := range n {
		def.Questions = append(def.Questions, campaigns.Question{ID: fmt.Sprintf("q%02d", i+1), Text: campaigns.Text{"en": fmt.Sprintf("Question %d", i+1)},
			ControlType: campaigns.ControlRadio, Answers: []campaigns.Option{{ID: "a", Text: campaigns.Text{"en": "A"}}, {ID: "b", Text: campaigns.Text{"en": "B"}}}})
	}
	_, err = e.app.Campaigns.Import(ctx, panel, []*campaigns.Definition{def})
	require.NoError(t, err)
	return def
}

func TestEveryHotRouteStaysWithinItsRoundTripBudget(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		survey := importBudgetSurvey(t, e, 40)
		e.withFakeOffers(t, "demo") // the provider's lists are kept 5000 ms: the page asks it once
		visitor := e.client("localhost")
		c := e.client("localhost")
		require.Equal(t, http.StatusSeeOther, c.login(DemoEmail, DemoPassword).StatusCode)
		c.header.Set("Pp-Token", c.cookie("pp-token"))
		if os.Getenv("CANVASS_TEST_SQL") == "1" {
			e.db.Config.Logger = logger.Default.LogMode(logger.Info)
		}
		next := 0
		for _, route := range roundTripBudgets {
			path := route.path
			path = replaceAll(path, "{survey}", survey.UUID)
			send := func() *response {
				p := replaceAll(path, "{next}", survey.Questions[next].ID)
				var res *response
				switch {
				case route.visitor:
					res = visitor.get(p)
				case route.method == http.MethodPost:
					res = c.postJSON(p, route.body)
				default:
					res = c.get(p)
				}
				if route.name == "answer submit" {
					next++
				}
				return res
			}
			// The first request warms the per-connection statement caches and the process caches.
			require.Equal(t, http.StatusOK, send().StatusCode, route.name)
			before := migrations.RoundTrips(e.db)
			if os.Getenv("CANVASS_TEST_SQL") == "1" {
				fmt.Println("=====", route.name)
			}
			res := send()
			n := migrations.RoundTrips(e.db) - before
			require.Equal(t, http.StatusOK, res.StatusCode, route.name)
			t.Logf("%-26s %d round trips (budget %d)", route.name, n, route.budget)
			assert.LessOrEqual(t, n, route.budget, "%s made %d database round trips; its budget is %d", route.name, n, route.budget)
			if route.budget > 0 {
				assert.Positive(t, n, "%s: no round trip counted; is the counting driver still in migrations.Open?", route.name)
			}
		}
	})
}

func replaceAll(s, old, new string) string { return strings.ReplaceAll(s, old, new) }
