package mobile

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the module over it
// sending through the real Twilio adapter to a fake Twilio on loopback, and a clock the
// test moves.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	svc    *Service
	sms    *smstest.Server
	acme   *web.Panel
	globex *web.Panel
	clock  time.Time
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		fn(t, newFixture(t, db))
	})
}

func newFixture(t testing.TB, db *gorm.DB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	loc := messages.Locales(t)
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	f.sms = smstest.Start(t)
	sender, err := NewSender(f.sms.URL(), log)
	require.NoError(t, err)
	f.m = New(Deps{DB: db, Kit: kit, Log: log, Guard: testGuard{}, Limiter: ratelimit.New(db), Sender: sender})
	f.svc = f.m.svc
	f.svc.now = func() time.Time { return f.clock }
	f.acme = f.panel("acme", "USD")
	f.globex = f.panel("globex", "GBP")
	return f
}

// testGuard lets everyone through: the module's tests call the service, not the routes.
type testGuard struct{}

func (testGuard) Private() fiber.Handler       { return func(c fiber.Ctx) error { return c.Next() } }
func (testGuard) RequireMember() fiber.Handler { return func(c fiber.Ctx) error { return c.Next() } }

func (f *fixture) panel(key, currency string) *web.Panel {
	return seed.Panel(f.t, f.db, key, currency, "en", "es")
}

// member creates a participant of a panel and returns their participant id.
func (f *fixture) member(panel *web.Panel) string {
	return seed.Member(f.t, f.db, panel, "en", nil, f.clock)
}

// send texts a code to a number for a member and returns the code the fake received.
func (f *fixture) send(panel *web.Panel, pid, phone string) string {
	f.t.Helper()
	s, err := f.svc.Send(f.ctx, panel, pid, "en", phone, "", "country")
	require.NoError(f.t, err)
	return f.sms.Code(f.t, s.MobileNumber)
}

// verify gives a member a verified number through the whole flow.
func (f *fixture) verify(panel *web.Panel, pid, phone string) Status {
	f.t.Helper()
	code := f.send(panel, pid, phone)
	s, err := f.svc.Check(f.ctx, panel, pid, phone, code)
	require.NoError(f.t, err)
	return s
}

func (f *fixture) eligibility(panel *web.Panel, pid string) string {
	f.t.Helper()
	v, err := f.m.EligibleToRedeem(f.ctx, panel, pid)
	require.NoError(f.t, err)
	return v
}

func (f *fixture) status(panel *web.Panel, pid string) Status {
	f.t.Helper()
	s, err := f.svc.Status(f.ctx, panel, pid)
	require.NoError(f.t, err)
	return s
}

// wrong is a code that differs from code.
func wrong(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

// requireAPIError checks that err is a *web.Error with a status and a detail code.
func requireAPIError(t testing.TB, err error, status int, code string) *web.Error {
	t.Helper()
	var e *web.Error
	require.True(t, errors.As(err, &e), "want a *web.Error, got %v", err)
	assert.Equal(t, status, e.Status, "status of %v", err)
	if code != "" {
		require.NotEmpty(t, e.Details, "details of %v", err)
		assert.Equal(t, code, e.Details[0].Code, "detail code of %v", err)
	}
	return e
}
