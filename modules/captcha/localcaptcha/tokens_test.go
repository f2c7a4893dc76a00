package localcaptcha_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/captcha/localcaptcha"
)

func TestIssuedTokens(t *testing.T) {
	t.Parallel()
	srv := localcaptcha.New(secret)
	srv.Imitate(captcha.Recaptcha)
	u := serve(t, srv)

	t.Run("every token is different", func(t *testing.T) {
		seen := map[string]bool{}
		for range 100 {
			tok := srv.CheckboxToken(host)
			assert.False(t, seen[tok])
			seen[tok] = true
		}
	})
	t.Run("a token fits in a form field without escaping", func(t *testing.T) {
		tok := srv.Issue(host)
		assert.Equal(t, tok, url.QueryEscape(tok))
		assert.Less(t, len(tok), 2048, "Turnstile's documented maximum")
	})
	t.Run("the hostname is reported without its port", func(t *testing.T) {
		assert.Equal(t, "localhost", siteverify(t, u, form(secret, srv.Issue("localhost:3000"))).Hostname)
		assert.Equal(t, "::1", siteverify(t, u, form(secret, srv.Issue("[::1]:3000"))).Hostname)
	})
	t.Run("Issue scores like a human", func(t *testing.T) {
		assert.Equal(t, localcaptcha.DefaultScore, siteverify(t, u, form(secret, srv.Issue(host))).raw["score"])
	})
	t.Run("scores are clamped to 0.0–1.0", func(t *testing.T) {
		assert.Equal(t, 1.0, siteverify(t, u, form(secret, srv.IssueScored(host, 3, ""))).raw["score"])
		assert.Equal(t, 0.0, siteverify(t, u, form(secret, srv.IssueScored(host, -1, ""))).raw["score"])
	})
}

func TestATokenPassesOnceUnderConcurrentChecks(t *testing.T) {
	t.Parallel()
	srv := localcaptcha.New(secret)
	u := serve(t, srv)
	tok := srv.Issue(host)
	const n = 32
	results := make(chan bool, n)
	for range n {
		go func() {
			resp, err := http.PostForm(u, form(secret, tok))
			if !assert.NoError(t, err) {
				results <- false
				return
			}
			defer resp.Body.Close()
			var a answer
			assert.NoError(t, json.NewDecoder(resp.Body).Decode(&a))
			results <- a.Success
		}()
	}
	passed := 0
	for range n {
		if <-results {
			passed++
		}
	}
	assert.Equal(t, 1, passed)
}

func TestRequestsRecordsWhatArrivedButNotTheSecret(t *testing.T) {
	t.Parallel()
	srv := localcaptcha.New(secret)
	u := serve(t, srv)
	f := form(secret, "tok")
	f.Set("remoteip", "203.0.113.7")
	f.Set("sitekey", "site-1")
	f.Set("idempotency_key", "k-1")
	siteverify(t, u, f)

	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, localcaptcha.Request{
		Method: "POST", Path: "/siteverify", Response: "tok", RemoteIP: "203.0.113.7", SiteKey: "site-1",
		IdempotencyKey: "k-1", SecretGiven: true,
	}, reqs[0])
	assert.NotContains(t, strings.Join([]string{reqs[0].Response, reqs[0].RemoteIP, reqs[0].SiteKey, reqs[0].IdempotencyKey}, " "), secret)
}

func TestRequestsKeepsOnlyTheLatest(t *testing.T) {
	t.Parallel()
	srv := localcaptcha.New(secret)
	u := serve(t, srv)
	for i := range 300 {
		siteverify(t, u, form(secret, "tok-"+strconv.Itoa(i)))
	}
	reqs := srv.Requests()
	require.Len(t, reqs, 256)
	assert.Equal(t, "tok-44", reqs[0].Response)
	assert.Equal(t, "tok-299", reqs[255].Response)
}

func TestCheckboxLabelSaysItIsNotARealCaptcha(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "I am not a robot (local development captcha — not a real captcha)", localcaptcha.CheckboxLabel)
	assert.Equal(t, captcha.LocalField, captcha.Config{Kind: captcha.Local}.ResponseField())
}
