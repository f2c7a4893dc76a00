package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	consoleParts["members"] = consolePart{
		pages: []string{"/console/panels/:panel/members", "/console/panels/:panel/members/:id"},
		visit: membersA11yVisit,
	}
}

// membersA11yVisit walks the members pages and their refusals, as an owner of both demo panels.
// It acts on Jamie only and leaves them as found (the demo member is the money part's).
func membersA11yVisit(t *testing.T, w *a11yWalk, s *a11ySession) {
	ctx := context.Background()
	app := w.b.app
	panel, err := app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	demoMember, err := app.Accounts.Service().ParticipantByEmail(ctx, panel, DemoEmail)
	require.NoError(t, err)
	jamie, err := app.Accounts.Service().ParticipantByEmail(ctx, panel, "jamie@demo.test")
	require.NoError(t, err)
	// The demo member has started a poll, so their page lists a participation.
	m := w.b.client("localhost")
	require.Equal(t, http.StatusSeeOther, m.login(DemoEmail, DemoPassword).StatusCode)
	poll := w.b.campaignID("demo", "Quick poll")
	m.get("/survey/" + poll)
	require.Equal(t, http.StatusSeeOther, m.postForm("/survey/"+poll+"/start", url.Values{}).StatusCode)
	noValidate := func() {
		s.p().MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
	}

	w.open(s, "/console/panels/demo/members")
	w.check(s, "console: members, every member")
	w.open(s, "/console/panels/demo/members?q="+url.QueryEscape("member@demo"))
	w.check(s, "console: members, found")
	w.open(s, "/console/panels/demo/members?q=nobody")
	w.check(s, "console: members, none found")

	w.open(s, "/console/panels/demo/members/"+demoMember)
	w.check(s, "console: members, a member with a ledger, mobile and referrals")

	page := "/console/panels/demo/members/" + jamie
	w.open(s, page)
	w.check(s, "console: members, a member")
	noValidate()
	w.submit(s, "#suspend-form button[type=submit]")
	w.check(s, "console: members, suspension refused (no reason)")
	fill(s.p(), map[string]string{"#f-suspend-reason": "axe walk"})
	w.submit(s, "#suspend-form button[type=submit]")
	w.check(s, "console: members, suspended")
	fill(s.p(), map[string]string{"#f-unsuspend-reason": "axe walk"})
	w.submit(s, "#unsuspend-form button[type=submit]")
	w.check(s, "console: members, unsuspended")
	fill(s.p(), map[string]string{"#f-close-confirm": "someone@else.test", "#f-close-reason": "axe walk"})
	w.submit(s, "#close-form button[type=submit]")
	w.check(s, "console: members, closing refused (wrong confirmation)")
	assert.True(t, s.p().MustHas("#f-close-confirm[aria-invalid=true]"), "the confirmation is refused beside its field")
	w.open(s, "/console/panels/demo/members/00000000-0000-4000-8000-000000000000")
	w.check(s, "console: members, no such member")
}

// memberSignIn signs a member in on Canvass Demo in their own browser page.
func memberSignIn(b *browserEnv, p *rod.Page) {
	p.MustNavigate(b.url("localhost", "/login")).MustWaitLoad()
	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	submit(p, "button[type=submit]")
}

func TestInChromiumSupportFindsAMemberSuspendsThemAndTheMemberIsShutOutUntilUnsuspended(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	member := b.page(t, b.url("localhost", "/login"))
	memberSignIn(b, member)
	require.Equal(t, "/feed", path(member))

	p := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p, "support@ops.demo.test", "console-support-1")
	require.Equal(t, "/console/", path(p))
	wait := p.MustWaitNavigation()
	p.MustElement("a[href='/console/panels/demo/members']").MustClick()
	wait()
	p.MustWaitLoad()

	// Find the member by the beginning of their email, open their page.
	fill(p, map[string]string{"#f-q": "member@demo"})
	submit(p, "form[role=search] button[type=submit]")
	rows := p.MustElement("#members tbody").MustText()
	assert.Contains(t, rows, DemoEmail)
	assert.Contains(t, rows, "25.00")
	wait = p.MustWaitNavigation()
	p.MustElement("#members tbody a").MustClick()
	wait()
	p.MustWaitLoad()
	assert.Contains(t, p.MustElement("#member-profile").MustText(), DemoEmail)
	assert.Contains(t, p.MustElement("#member-sessions").MustText(), "Chrome", "the member's session, by device")

	// Suspend: the reason is required, then the member is suspended and signed out.
	p.MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
	submit(p, "#suspend-form button[type=submit]")
	assert.Contains(t, p.MustElement("#suspend-form").MustText(), "Give a reason.")
	fill(p, map[string]string{"#f-suspend-reason": "Chargeback fraud"})
	submit(p, "#suspend-form button[type=submit]")
	assert.Contains(t, p.MustElement("#member-notice").MustText(), "The member is suspended. Sessions ended: 1.")
	assert.Contains(t, p.MustElement("#member-profile").MustText(), "Suspended")
	assert.True(t, p.MustHas("#member-no-sessions"))

	// The member is shut out: their session is gone, and signing in again shows /suspended.
	member.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
	assert.True(t, strings.HasPrefix(path(member), "/login"), "signed out: %s", path(member))
	memberSignIn(b, member)
	assert.Equal(t, "/suspended", path(member))
	member.MustNavigate(b.url("localhost", "/transactions")).MustWaitLoad()
	assert.Equal(t, "/suspended", path(member), "every member page sends them there")

	// Support lifts the suspension: the member is back in.
	fill(p, map[string]string{"#f-unsuspend-reason": "Cleared by the bank"})
	submit(p, "#unsuspend-form button[type=submit]")
	assert.Contains(t, p.MustElement("#member-notice").MustText(), "The suspension is lifted")
	assert.Contains(t, p.MustElement("#member-profile").MustText(), "Active")
	member.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
	assert.Equal(t, "/feed", path(member))
}
