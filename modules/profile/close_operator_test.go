package profile_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// consoleFixture is the profile module over accounts, a database with two panels (acme,
// globex) and a loopback SMTP server, for the operator console's closing (CloseByOperator).
type consoleFixture struct {
	t        *testing.T
	ctx      context.Context
	db       *gorm.DB
	accounts *accounts.Module
	m        *profile.Module
	smtp     *mailertest.Server
	acme     *web.Panel
	globex   *web.Panel
}

func eachConsoleFixture(t *testing.T, fn func(t *testing.T, f *consoleFixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		loc := messages.Locales(t)
		kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
		smtp := mailertest.Start(t)
		sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
		require.NoError(t, err)
		limiter := ratelimit.New(db)
		acc := accounts.New(accounts.Deps{DB: db, Kit: kit, Limiter: limiter, Mail: sender, Log: log})
		f := &consoleFixture{t: t, ctx: context.Background(), db: db, smtp: smtp, accounts: acc,
			m: profile.New(profile.Deps{DB: db, Kit: kit, Log: log, Limiter: limiter, Accounts: acc, Mail: sender})}
		f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
		f.globex = seed.Panel(t, db, "globex", "GBP", "en")
		fn(t, f)
	})
}

// join registers a member (signed in once, email not validated) and returns their participant id.
func (f *consoleFixture) join(panel *web.Panel, email, username string) string {
	f.t.Helper()
	issued, err := f.accounts.Service().Register(f.ctx, panel, accounts.RegisterInput{
		Email: email, Password: "console-test-1", Username: username, FirstName: "Ada", LastName: "Lovelace", LanguageCode: "en",
	}, "en", accounts.Client{IP: "203.0.113.7", UserAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/128.0", AppName: "web"})
	require.NoError(f.t, err)
	return issued.Member.ParticipantID
}

func (f *consoleFixture) profile(panel *web.Panel, pid string) *accounts.MemberProfile {
	f.t.Helper()
	p, err := f.accounts.MemberProfile(f.ctx, panel.ID, pid)
	require.NoError(f.t, err)
	return p
}

func (f *consoleFixture) sessions(panel *web.Panel, pid string) int {
	f.t.Helper()
	s, err := f.accounts.MemberSessions(f.ctx, panel.ID, pid)
	require.NoError(f.t, err)
	return len(s)
}

func TestAnOperatorClosesAnAccountOnceErasingItAndRecordingWhy(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		pid := f.join(f.acme, "ada@example.test", "adal")
		_, _, err := f.m.CloseByOperator(f.ctx, f.globex, pid, "https://globex.example.com")
		assert.ErrorIs(t, err, accounts.ErrNotFound, "never through another panel")

		closed, changed, err := f.m.CloseByOperator(f.ctx, f.acme, pid, "https://acme.example.com")
		require.NoError(t, err)
		assert.True(t, changed)
		assert.Zero(t, closed.Forfeited, "no ledger wired here: nothing to forfeit")
		p := f.profile(f.acme, pid)
		assert.Equal(t, accounts.StatusClosed, p.Status)
		assert.NotContains(t, p.Email, "ada@", "the address is erased")
		assert.Empty(t, p.Username)
		assert.Empty(t, p.FirstName)
		assert.Zero(t, f.sessions(f.acme, pid))
		var reason string
		require.NoError(t, f.db.Table("account_closures").Where("participant_id = ?", pid).Pluck("reason", &reason).Error)
		assert.Equal(t, profile.ReasonClosedByOperator, reason)
		f.smtp.WaitFor(t, "ada@example.test", 30*time.Second) // the member is told

		_, changed, err = f.m.CloseByOperator(f.ctx, f.acme, pid, "https://acme.example.com")
		require.NoError(t, err)
		assert.False(t, changed, "closing twice changes nothing")
		_, err = f.accounts.SuspendMember(f.ctx, f.acme.ID, pid)
		assert.ErrorIs(t, err, accounts.ErrMemberClosed)
		_, err = f.accounts.ResendValidation(f.ctx, f.acme, pid, "https://acme.example.com")
		assert.ErrorIs(t, err, accounts.ErrMemberClosed)
		_, err = f.accounts.Service().Login(f.ctx, f.acme, "ada@example.test", "console-test-1", accounts.Client{}, nil)
		assert.Error(t, err, "a closed account signs in no more")
	})
}
