package accounts_test

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
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// consoleFixture is the accounts module over a database with two panels (acme, globex) and a
// loopback SMTP server, for the operator console's calls (console_members.go).
type consoleFixture struct {
	t      *testing.T
	ctx    context.Context
	db     *gorm.DB
	m      *accounts.Module
	smtp   *mailertest.Server
	acme   *web.Panel
	globex *web.Panel
}

func eachConsoleFixture(t *testing.T, fn func(t *testing.T, f *consoleFixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		loc := messages.Locales(t)
		kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
		smtp := mailertest.Start(t)
		sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
		require.NoError(t, err)
		f := &consoleFixture{t: t, ctx: context.Background(), db: db, smtp: smtp,
			m: accounts.New(accounts.Deps{DB: db, Kit: kit, Limiter: ratelimit.New(db), Mail: sender, Log: log})}
		f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
		f.globex = seed.Panel(t, db, "globex", "GBP", "en")
		fn(t, f)
	})
}

// join registers a member (signed in once, email not validated) and returns their participant id.
func (f *consoleFixture) join(panel *web.Panel, email, username string) string {
	f.t.Helper()
	issued, err := f.m.Service().Register(f.ctx, panel, accounts.RegisterInput{
		Email: email, Password: "console-test-1", Username: username, FirstName: "Ada", LastName: "Lovelace", LanguageCode: "en",
	}, "en", accounts.Client{IP: "203.0.113.7", UserAgent: "Mozilla/5.0 (Windows NT 10.0) Firefox/128.0", AppName: "web"})
	require.NoError(f.t, err)
	return issued.Member.ParticipantID
}

// signIn adds a session of the member.
func (f *consoleFixture) signIn(panel *web.Panel, email string) {
	f.t.Helper()
	_, err := f.m.Service().Login(f.ctx, panel, email, "console-test-1", accounts.Client{IP: "2001:db8:1:2::9", UserAgent: "Mozilla/5.0 (iPhone) Safari/604.1"}, nil)
	require.NoError(f.t, err)
}

func (f *consoleFixture) profile(panel *web.Panel, pid string) *accounts.MemberProfile {
	f.t.Helper()
	p, err := f.m.MemberProfile(f.ctx, panel.ID, pid)
	require.NoError(f.t, err)
	return p
}

func (f *consoleFixture) sessions(panel *web.Panel, pid string) int {
	f.t.Helper()
	s, err := f.m.MemberSessions(f.ctx, panel.ID, pid)
	require.NoError(f.t, err)
	return len(s)
}

func TestTheConsoleFindsAPanelsMembersByEmailUsernameOrIDWholeOrByItsBeginning(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		ada := f.join(f.acme, "Ada@Example.test", "AdaL")
		bob := f.join(f.acme, "bob@example.test", "bobby")
		other := f.join(f.globex, "ada@example.test", "adal") // same email and username, another panel
		cases := []struct {
			name, q string
			want    []string
		}{
			{"an email, whatever its case", "ADA@example.TEST", []string{ada}},
			{"an email's beginning", "bob@", []string{bob}},
			{"a username, whatever its case", "adal", []string{ada}},
			{"a username's beginning", "bob", []string{bob}},
			{"a member id", ada, []string{ada}},
			{"a member id's beginning", bob[:8], []string{bob}},
			{"a LIKE wildcard is a literal", "%", nil},
			{"an underscore is a literal", "a_a", nil},
			{"nothing: every member of the panel, newest first", "", []string{bob, ada}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				rows, more, err := f.m.FindMembers(f.ctx, f.acme.ID, tc.q, 1, 10)
				require.NoError(t, err)
				assert.False(t, more)
				var got []string
				for _, r := range rows {
					got = append(got, r.ParticipantID)
					assert.NotEqual(t, other, r.ParticipantID, "never another panel's member")
				}
				assert.Equal(t, tc.want, got)
			})
		}
		rows, _, err := f.m.FindMembers(f.ctx, f.acme.ID, "ada@example.test", 1, 10)
		require.NoError(t, err)
		require.Len(t, rows, 1)
		assert.Equal(t, accounts.MemberSummary{ParticipantID: ada, AccountHolderID: rows[0].AccountHolderID, Email: "Ada@Example.test",
			Username: "AdaL", Status: accounts.StatusActive, JoinedAt: rows[0].JoinedAt}, rows[0])
		assert.WithinDuration(t, time.Now(), rows[0].JoinedAt, time.Minute)
	})
}

func TestTheConsolesMemberSearchIsPagedWithExactMatchesFirst(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		exact := f.join(f.acme, "sam@example.test", "")
		longer := f.join(f.acme, "sam@example.test.org", "")
		third := f.join(f.acme, "sam@example.test.net", "")
		rows, more, err := f.m.FindMembers(f.ctx, f.acme.ID, "sam@example.test", 1, 2)
		require.NoError(t, err)
		require.True(t, more)
		require.Len(t, rows, 2)
		assert.Equal(t, exact, rows[0].ParticipantID, "the exact match first, though the oldest")
		assert.Equal(t, third, rows[1].ParticipantID)
		rows, more, err = f.m.FindMembers(f.ctx, f.acme.ID, "sam@example.test", 2, 2)
		require.NoError(t, err)
		assert.False(t, more)
		require.Len(t, rows, 1)
		assert.Equal(t, longer, rows[0].ParticipantID)
	})
}

func TestTheConsoleReadsAMembersProfileAndSessionsOnlyThroughTheirPanel(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		pid := f.join(f.acme, "ada@example.test", "adal")
		f.signIn(f.acme, "ada@example.test")
		p := f.profile(f.acme, pid)
		assert.Equal(t, "Ada", p.FirstName)
		assert.Equal(t, "Lovelace", p.LastName)
		assert.Equal(t, "adal", p.Username)
		assert.Equal(t, "en", p.LanguageCode)
		assert.Nil(t, p.EmailValidatedAt)
		require.NotNil(t, p.LastLoginAt, "the newest session's start")

		sessions, err := f.m.MemberSessions(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		require.Len(t, sessions, 2)
		devices := []string{sessions[0].Device + " " + sessions[0].Network, sessions[1].Device + " " + sessions[1].Network}
		assert.ElementsMatch(t, []string{"Safari on iOS 2001:db8:1::/48", "Firefox on Windows 203.0.113.x"}, devices)

		_, err = f.m.MemberProfile(f.ctx, f.globex.ID, pid)
		assert.ErrorIs(t, err, accounts.ErrNotFound, "another panel's member is not found")
		_, err = f.m.MemberSessions(f.ctx, f.globex.ID, pid)
		assert.ErrorIs(t, err, accounts.ErrNotFound)
		_, err = f.m.MemberProfile(f.ctx, f.acme.ID, "00000000-0000-4000-8000-000000000000")
		assert.ErrorIs(t, err, accounts.ErrNotFound)
	})
}

func TestSuspendingEndsTheMembersSessionsAndEachStatusChangeHappensOnce(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		pid := f.join(f.acme, "ada@example.test", "")
		f.signIn(f.acme, "ada@example.test")

		ch, err := f.m.SuspendMember(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		assert.Equal(t, accounts.StatusChange{Before: accounts.StatusActive, After: accounts.StatusSuspended, SessionsEnded: 2, Changed: true}, ch)
		assert.Equal(t, accounts.StatusSuspended, f.profile(f.acme, pid).Status)
		assert.Zero(t, f.sessions(f.acme, pid))

		ch, err = f.m.SuspendMember(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		assert.False(t, ch.Changed, "already suspended")

		ch, err = f.m.UnsuspendMember(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		assert.Equal(t, accounts.StatusChange{Before: accounts.StatusSuspended, After: accounts.StatusActive, Changed: true}, ch)
		ch, err = f.m.UnsuspendMember(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		assert.False(t, ch.Changed, "already active")

		_, err = f.m.SuspendMember(f.ctx, f.globex.ID, pid)
		assert.ErrorIs(t, err, accounts.ErrNotFound, "never through another panel")
		assert.Equal(t, accounts.StatusActive, f.profile(f.acme, pid).Status)
	})
}

func TestEndingAMembersSessionsSignsThemOutEverywhere(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		pid := f.join(f.acme, "ada@example.test", "")
		f.signIn(f.acme, "ada@example.test")
		f.signIn(f.acme, "ada@example.test")
		n, err := f.m.EndMemberSessions(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		assert.EqualValues(t, 3, n)
		n, err = f.m.EndMemberSessions(f.ctx, f.acme.ID, pid)
		require.NoError(t, err)
		assert.Zero(t, n)
		_, err = f.m.EndMemberSessions(f.ctx, f.globex.ID, pid)
		assert.ErrorIs(t, err, accounts.ErrNotFound)
	})
}

func TestTheValidationMailIsSentAgainOnlyWhileTheEmailIsNotValidated(t *testing.T) {
	t.Parallel()
	eachConsoleFixture(t, func(t *testing.T, f *consoleFixture) {
		pid := f.join(f.acme, "ada@example.test", "")
		sent, err := f.m.ResendValidation(f.ctx, f.acme, pid, "https://acme.example.com")
		require.NoError(t, err)
		assert.True(t, sent)
		mail := f.smtp.WaitFor(t, "ada@example.test", 30*time.Second)
		link := mailertest.FirstLink(mail.Text, "https://acme.example.com/validate-email/confirm?token=")
		require.NotEmpty(t, link, mail.Text)

		token := link[strings.Index(link, "token=")+len("token="):]
		require.NoError(t, f.m.Service().ValidateEmail(f.ctx, f.acme, token), "the mailed link validates the email")
		sent, err = f.m.ResendValidation(f.ctx, f.acme, pid, "https://acme.example.com")
		require.NoError(t, err)
		assert.False(t, sent, "validated: nothing to send")

		_, err = f.m.ResendValidation(f.ctx, f.globex, pid, "https://globex.example.com")
		assert.ErrorIs(t, err, accounts.ErrNotFound)
	})
}

func TestDevicesAndNetworksAreSummarisedNeverShownWhole(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ ua, want string }{
		{"", ""},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0", "Edge on Windows"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15", "Safari on macOS"},
		{"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36", "Chrome on Android"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36", "Chrome on Linux"},
		{"curl/8.4.0", "curl"},
		{"something else", "Other browser"},
	} {
		assert.Equal(t, tc.want, accounts.DeviceSummary(tc.ua), tc.ua)
	}
	for _, tc := range []struct{ ip, want string }{
		{"", ""}, {"not an address", ""}, {"203.0.113.7", "203.0.113.x"}, {"::ffff:198.51.100.20", "198.51.100.x"},
		{"2001:db8:1:2::9", "2001:db8:1::/48"},
	} {
		assert.Equal(t, tc.want, accounts.NetworkSummary(tc.ip), tc.ip)
	}
}
