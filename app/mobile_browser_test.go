package main

import (
	"context"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newMobileBrowserEnv is newBrowserEnv with CANVASS_SMS_URL pointing at a fake Twilio.
func newMobileBrowserEnv(t *testing.T) (*browserEnv, *smstest.Server) {
	t.Helper()
	requireBrowser(t)
	e, sms := mobileEnv(t, "sqlite")
	return serveInBrowser(t, e), sms
}

func TestInChromiumAMemberVerifiesTheirMobileWithTheTextedCode(t *testing.T) {
	t.Parallel()
	b, sms := newMobileBrowserEnv(t)
	panel, err := b.app.Tenancy.PanelByKey(context.Background(), "demo")
	require.NoError(t, err)
	require.NoError(t, b.app.Accounts.Service().EnsureMember(context.Background(), panel, accounts.RegisterInput{
		Email: "sam@demo.test", Password: "sam-password-1", AcceptTerms: true, LanguageCode: "en",
	}, accounts.Metadata{"welcomeCampaignCompleted": true}))

	p := b.page(t, b.url("localhost", "/settings/mobile"))
	fill(p, map[string]string{"#f-email": "sam@demo.test", "#f-password": "sam-password-1"})
	submit(p, "button[type=submit]")
	require.Equal(t, "/settings/mobile", path(p), "the login leads back to the page")
	assert.Equal(t, "not-verified", mobileAttr(p, ".mobile-state", "data-status"))
	assert.Contains(t, p.MustElement(".mobile-eligibility").MustText(), "Add and verify your mobile number")
	assert.False(t, p.MustHas("#f-code"), "no code form before a code")

	p.MustElement("#f-country").MustSelect("United Kingdom (+44)")
	fill(p, map[string]string{"#f-phone": "07700 900456"})
	submit(p, "#mobile-send")
	assert.Equal(t, "/settings/mobile", path(p))
	assert.Contains(t, p.MustElement(".toasts .toast--success").MustText(), "Your code is on its way by text message.")
	assert.Equal(t, "+447700900456", p.MustElement(".mobile-number").MustText())
	assert.Equal(t, "pending", mobileAttr(p, ".mobile-state", "data-status"))

	code := sms.Code(t, "+447700900456")
	fill(p, map[string]string{"#f-code": code})
	submit(p, "#mobile-verify")
	assert.Equal(t, "/settings/mobile", path(p))
	assert.Contains(t, p.MustElement(".toasts .toast--success").MustText(), "Your mobile number is verified.")
	assert.Equal(t, "Verified", p.MustElement(".mobile-state").MustText())
	assert.Equal(t, "verified-too-recently", mobileAttr(p, ".mobile-eligibility", "data-eligibility"))
	assert.Contains(t, p.MustElement(".mobile-eligibility").MustText(), "you can redeem from")
	assert.False(t, p.MustHas("#f-code"), "the code form is gone")

	pid, err := b.app.Accounts.Service().ParticipantByEmail(context.Background(), panel, "sam@demo.test")
	require.NoError(t, err)
	st, err := b.app.Mobile.Service().Status(context.Background(), panel, pid)
	require.NoError(t, err)
	assert.Equal(t, "+447700900456", st.VerifiedNumber)
	assert.WithinDuration(t, time.Now(), *st.VerifiedAt, time.Minute)
}

// mobileAttr is an attribute of the first element a selector finds, or "" when it has none.
func mobileAttr(p *rod.Page, selector, name string) string {
	v := p.MustElement(selector).MustAttribute(name)
	if v == nil {
		return ""
	}
	return *v
}
