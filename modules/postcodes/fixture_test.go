package postcodes

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/testsupport/contract"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme and globex), the module over it, and an
// HTTP app that serves the lookup as if the request came to acme's domain.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	acme   *web.Panel
	globex *web.Panel
	app    *fiber.App
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		fn(t, newFixture(t, db, 0))
	})
}

func newFixture(t testing.TB, db *gorm.DB, rate int) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	f.m = New(Deps{DB: db, Log: log, Limiter: ratelimit.New(db), RatePerMinute: rate})
	f.m.now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	f.acme = f.panel("acme")
	f.globex = f.panel("globex")
	loc := messages.Locales(t)
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	f.app = fiber.New(fiber.Config{ErrorHandler: kit.ErrorHandler})
	f.app.Use(func(c fiber.Ctx) error {
		web.SetPanel(c, f.acme)
		return c.Next()
	})
	f.m.Routes(f.app)
	return f
}

func (f *fixture) panel(key string) *web.Panel {
	var spec tenancy.PanelSpec
	spec.Instance.Code, spec.Instance.Key, spec.Key, spec.Name, spec.CurrencyCode = key, key+"-instance", key, "Panel "+key, "GBP"
	spec.Hosts, spec.Languages = []string{key + ".example.com"}, []string{"en"}
	ts := tenancy.NewStore(f.db)
	_, err := ts.Apply(f.ctx, spec)
	require.NoError(f.t, err)
	p, _, err := tenancy.NewResolver(ts).ByKey(f.ctx, key)
	require.NoError(f.t, err)
	return p
}

// importCSV imports a CSV text into a panel and fails the test on any error.
func (f *fixture) importCSV(panel *web.Panel, text string) ImportResult {
	f.t.Helper()
	rows, err := ParseCSV("test.csv", strings.NewReader(text))
	require.NoError(f.t, err)
	res, err := f.m.Import(f.ctx, panel.ID, rows)
	require.NoError(f.t, err)
	return res
}

// ukCSV is a few real UK places: outward codes and full postcodes.
const ukCSV = `id,postcode,label,locality,region
SW1A,SW1A,"SW1A, Whitehall, London",Whitehall,London
SW1A0AA,SW1A 0AA,"SW1A 0AA, Westminster, London",Westminster,London
SW1A1AA,SW1A 1AA,"SW1A 1AA, Westminster, London",Westminster,London
SW1A2AA,SW1A 2AA,"SW1A 2AA, Westminster, London",Westminster,London
SW1E,SW1E,"SW1E, Victoria, London",Victoria,London
SW10,SW10,"SW10, West Brompton, London",West Brompton,London
W1A1AA,W1A 1AA,"W1A 1AA, Marylebone, London",Marylebone,London
M11AE,M1 1AE,"M1 1AE, Piccadilly, Manchester",Piccadilly,Manchester
EH11YZ,EH1 1YZ,"EH1 1YZ, Old Town, Edinburgh",Old Town,Edinburgh
10001,10001,"10001, New York, NY",New York,NY
`

// manyPlaces is n places with five-digit postcodes from 10000 on, as one CSV.
func manyPlaces(n int) string {
	var b strings.Builder
	b.WriteString("id,postcode,label\n")
	for i := range n {
		fmt.Fprintf(&b, "p%04d,%05d,\"%05d, Town %d\"\n", i, 10000+i, 10000+i, i)
	}
	return b.String()
}

// lookupJSON is the lookup's answer, or an API error.
type lookupJSON struct {
	Results []struct {
		ID       string `json:"id"`
		Postcode string `json:"postcode"`
		Label    string `json:"label"`
	} `json:"results"`
	Name       string `json:"name"`
	Message    string `json:"message"`
	StatusCode int    `json:"statusCode"`
	Details    []struct {
		Field string `json:"field"`
	} `json:"details"`
}

// get calls the lookup with a query string and decodes its answer.
func (f *fixture) get(query string) (int, lookupJSON, string) {
	f.t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://acme.example.com/ah/api/v1/info/postcode-lookup?"+query, nil)
	res, err := f.app.Test(req, fiber.TestConfig{Timeout: 20 * time.Second, FailOnTimeout: true})
	require.NoError(f.t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(f.t, err)
	contract.Check(f.t, req, nil, res, body)
	var out lookupJSON
	require.NoError(f.t, json.Unmarshal(body, &out), string(body))
	return res.StatusCode, out, string(body)
}

func ids(places []Place) []string {
	out := make([]string, len(places))
	for i, p := range places {
		out[i] = p.ID
	}
	return out
}
