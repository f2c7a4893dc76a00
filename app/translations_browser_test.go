package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// surveyBoxProps finds the survey-box island's props in a page: the JSON script inside its div.
var surveyBoxProps = regexp.MustCompile(`(?s)(<div data-island="survey-box"[^>]*>.*?<script type="application/json"[^>]*>)(.*?)(</script>)`)

// withoutLabel is a page with one label taken out of the survey box's props, as a page would
// be whose server forgot it.
func withoutLabel(t *testing.T, page []byte, key string) []byte {
	m := surveyBoxProps.FindSubmatchIndex(page)
	if m == nil {
		return page // not the survey box (the invitation page)
	}
	var props map[string]any
	if err := json.Unmarshal(page[m[4]:m[5]], &props); err != nil {
		t.Errorf("survey-box props: %v", err)
		return page
	}
	labels, _ := props["labels"].(map[string]any)
	if _, ok := labels[key]; !ok {
		t.Errorf("the page gave the survey box no %s to take out", key)
	}
	delete(labels, key)
	out, err := json.Marshal(props) // escapes <, > and &, as the page's own JSON does
	require.NoError(t, err)
	return append(append(append([]byte{}, page[:m[4]]...), out...), page[m[5]:]...)
}

// loopback is an HTTP client for the hijacked requests: every host (northwind.localhost too)
// is the test server, and redirects go back to Chromium rather than being followed here.
func loopback(port int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+strconv.Itoa(port))
		}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// A member opens a survey whose page lacks the Next button's label, on a spend question
// offering a period no language has a label for. The box shows English for both and, once
// the 5 s debounce is over, reports both keys in one request; the server keeps the key the
// member's language lacks (survey.per_fortnight) for that panel and language, and drops the
// one it has (survey.next: the page lost it, the catalogue did not).
func TestInChromiumTheSurveyBoxReportsLabelsItLacksAndThePanelKeepsThemPerLanguage(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, tc := range []struct {
		panel, host, email, password, lang, next string
	}{
		{"demo", "localhost", DemoEmail, DemoPassword, "en", "Next"},
		{"northwind", "northwind.localhost", "translations@northwind.test", "northwind-pass-1", "ru", "Next"},
	} {
		t.Run(tc.panel, func(t *testing.T) {
			ctx := context.Background()
			panel, err := b.app.Tenancy.PanelByKey(ctx, tc.panel)
			require.NoError(t, err)
			if tc.email != DemoEmail {
				require.NoError(t, b.app.Accounts.Service().EnsureMember(ctx, panel,
					accounts.RegisterInput{Email: tc.email, Password: tc.password, AcceptTerms: true, LanguageCode: tc.lang},
					accounts.Metadata{"welcomeCampaignCompleted": true}))
			}
			def := &campaigns.Definition{UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en",
				Name: campaigns.Text{"en": "Bus fares"}, Reward: "0.50", EstimatedMinutes: 1, Priority: 900,
				Questions: []campaigns.Question{{ID: "fares", ControlType: campaigns.ControlSpend, Text: campaigns.Text{"en": "How much do you spend on bus fares?"},
					SpendPeriod: []string{"week", "fortnight"}}}}
			_, err = b.app.Campaigns.Import(ctx, panel, []*campaigns.Definition{def})
			require.NoError(t, err)

			p := b.page(t, "about:blank")
			client := loopback(b.port)
			var mu sync.Mutex
			var reports []map[string]string
			router := p.HijackRequests()
			router.MustAdd("*/survey/*", func(h *rod.Hijack) {
				if h.Request.Method() != http.MethodGet || h.Request.Type() != proto.NetworkResourceTypeDocument {
					h.ContinueRequest(&proto.FetchContinueRequest{})
					return
				}
				h.Request.Req().Header.Del("Accept-Encoding") // a body to edit, not a compressed one
				if err := h.LoadResponse(client, true); err != nil {
					t.Errorf("load %s: %v", h.Request.URL(), err)
					return
				}
				// The length changes with the body: let Chromium count it.
				headers := h.Response.Payload().ResponseHeaders[:0]
				for _, hd := range h.Response.Payload().ResponseHeaders {
					if !strings.EqualFold(hd.Name, "Content-Length") {
						headers = append(headers, hd)
					}
				}
				h.Response.Payload().ResponseHeaders = headers
				h.Response.SetBody(withoutLabel(t, []byte(h.Response.Body()), "survey.next"))
			})
			router.MustAdd("*/api/v1/translations/add/*", func(h *rod.Hijack) {
				var body map[string]string
				if err := json.Unmarshal([]byte(h.Request.Body()), &body); err != nil {
					t.Errorf("a report that is not a JSON object of strings: %q", h.Request.Body())
				}
				mu.Lock()
				reports = append(reports, body)
				mu.Unlock()
				if err := h.LoadResponse(client, true); err != nil {
					t.Errorf("report: %v", err)
				}
			})
			go router.Run()
			t.Cleanup(func() { _ = router.Stop() })

			p.MustNavigate(b.url(tc.host, "/login?lang="+tc.lang)).MustWaitLoad()
			fill(p, map[string]string{"#f-email": tc.email, "#f-password": tc.password})
			submit(p, "button[type=submit]")
			require.Equal(t, "/feed", path(p))
			p.MustNavigate(b.url(tc.host, "/survey/"+def.UUID)).MustWaitLoad()
			submit(p, `form[action$="/start"] button`)
			box := p.MustElement(surveyIsland)
			assert.Equal(t, tc.lang, *p.MustElement("html").MustAttribute("lang"))
			p.MustWait(`() => !!document.querySelector('[data-island="survey-box"] select option[value="fortnight"]')`)
			assert.Equal(t, tc.next, box.MustElement("button.sb-next").MustText(), "the page lost the label: the box shows English")
			assert.Equal(t, "fortnight", box.MustElement(`select option[value="fortnight"]`).MustText())

			var stored []tenancy.MissingRow
			require.Eventually(t, func() bool {
				stored, err = b.app.Tenancy.MissingTranslations(ctx, tenancy.MissingFilter{PanelKey: tc.panel, Lang: tc.lang})
				require.NoError(t, err)
				for _, r := range stored {
					if r.MessageKey == "survey.per_fortnight" && r.Fallback != "" {
						return true
					}
				}
				return false
			}, 20*time.Second, 100*time.Millisecond, "the client's report of survey.per_fortnight is stored for %s/%s", tc.panel, tc.lang)

			mu.Lock()
			defer mu.Unlock()
			require.Len(t, reports, 1, "one report for the page: %v", reports)
			assert.Equal(t, tc.next, reports[0]["survey.next"], "the label the page lost, with the English shown")
			assert.Equal(t, "fortnight", reports[0]["survey.per_fortnight"])
			for _, r := range stored {
				assert.NotEqual(t, "survey.next", r.MessageKey, "the language has it: not missing")
				if r.MessageKey == "survey.per_fortnight" {
					assert.Equal(t, panel.ID, r.PanelID)
					assert.Equal(t, tc.panel, r.PanelKey)
					assert.Equal(t, "fortnight", r.Fallback, "the text the member saw instead")
				}
			}
		})
	}
}
