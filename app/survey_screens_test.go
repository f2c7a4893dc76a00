package main

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importCampaign adds a campaign to the demo panel.
func (e *env) importCampaign(def *campaigns.Definition) {
	e.t.Helper()
	panel, err := e.app.Tenancy.PanelByKey(e.t.Context(), "demo")
	require.NoError(e.t, err)
	_, err = e.app.Campaigns.Import(e.t.Context(), panel, []*campaigns.Definition{def})
	require.NoError(e.t, err)
}

// setDateOfBirth writes the demo member's date of birth into their profile metadata ("" removes it).
func (e *env) setDateOfBirth(dob string) {
	e.t.Helper()
	_, pid := e.demoParticipant()
	var p accounts.Participant
	require.NoError(e.t, e.db.Where("id = ?", pid).Take(&p).Error)
	md := accounts.Metadata{}
	for k, v := range p.Metadata {
		md[k] = v
	}
	if dob == "" {
		delete(md, "dateOfBirth")
	} else {
		md["dateOfBirth"] = dob
	}
	require.NoError(e.t, e.db.Model(&accounts.Participant{ID: pid}).Select("Metadata").Updates(&accounts.Participant{Metadata: md}).Error)
}

// finishQuickPoll answers Quick poll (one question) with plain forms and returns its uuid.
func finishQuickPoll(t *testing.T, c *client, openWith string) string {
	t.Helper()
	poll := c.e.campaignID("demo", "Quick poll")
	c.get("/survey/" + poll + openWith)
	require.Equal(t, http.StatusSeeOther, c.postForm("/survey/"+poll+"/start", url.Values{}).StatusCode)
	res := c.postForm("/survey/"+poll+"/answer", url.Values{"qid": {"morning_drink"}, "answer": {"tea"}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	return poll
}

func TestTheThankYouButtonGoesWhereTheSpecSays(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		openWith  string // the query the survey link carried
		wantLabel string
		wantTo    string
	}{
		{name: "to the feed by default", wantLabel: "Take me back to my feed", wantTo: "/feed"},
		{name: "to a stored redirect target with its own label", openWith: "?redirect=%2Ftransactions&redirectLabel=Back+to+my+rewards", wantLabel: "Back to my rewards", wantTo: "/transactions"},
		{name: "to a stored redirect target with the default label", openWith: "?redirect=%2Ftransactions", wantLabel: "Take me back to my feed", wantTo: "/transactions"},
		{name: "never to another site", openWith: "?redirect=https%3A%2F%2Fevil.example%2F&redirectLabel=Win", wantLabel: "Take me back to my feed", wantTo: "/feed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, "sqlite")
			c := e.member()
			poll := finishQuickPoll(t, c, tt.openWith)
			page := c.get("/survey/" + poll)
			require.Equal(t, http.StatusOK, page.StatusCode)
			assert.Contains(t, page.Body, `href="/survey/`+poll+`/leave">`+tt.wantLabel+`</a>`)
			res := c.get("/survey/" + poll + "/leave")
			require.Equal(t, http.StatusSeeOther, res.StatusCode)
			assert.Equal(t, tt.wantTo, res.Header.Get("Location"))
			assert.Equal(t, "/feed", c.get("/survey/"+poll+"/leave").Header.Get("Location"), "a stored target is used once")
		})
	}
}

func TestAfterTheWelcomeCampaignTheThankYouButtonOpensTheFirstCampaignOfTheFeed(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		require.Equal(t, http.StatusCreated, c.postJSON("/ah/api/v2/user/register", `{"email":"new@demo.test","password":"a-good-password"}`).StatusCode)
		id := e.campaignID("demo", "About you")
		base := "/api/v1/demo/campaigns/" + id
		g := decodeJSON[goResultJSON](t, c.get(base+"/go"), http.StatusOK)
		for i := 0; g.Question != nil && i < 30; i++ {
			g = decodeJSON[goResultJSON](t, c.postJSON(base+"/question/"+g.Question.ID, answerFor(t, e, id, g.Question.ID)), http.StatusOK)
		}
		require.Equal(t, "completed", g.CampaignStatus)

		feed := decodeJSON[struct {
			Campaigns []struct {
				GUID string `json:"guid"`
			} `json:"campaigns"`
		}](t, c.postJSON("/api/v3/campaigns/paged?page=first&pageSize=1", `[]`), http.StatusOK)
		require.NotEmpty(t, feed.Campaigns)
		res := c.get("/survey/" + id + "/leave")
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/survey/"+feed.Campaigns[0].GUID, res.Header.Get("Location"))
	})
}

func TestTheEmbeddedSurveyScreenIsFramedOnlyByThePanelsSites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.member()
	poll := e.campaignID("demo", "Quick poll")

	app := c.get("/survey/" + poll)
	require.Equal(t, http.StatusOK, app.StatusCode)
	assert.Equal(t, "SAMEORIGIN", app.Header.Get("X-Frame-Options"), "the app itself is never framed by others")

	res := c.get("/embed/survey/" + poll)
	require.Equal(t, http.StatusOK, res.StatusCode)
	assert.Empty(t, res.Header.Get("X-Frame-Options"))
	csp := res.Header.Get("Content-Security-Policy")
	for _, origin := range []string{"'self'", "https://localhost", "http://localhost:*", "https://127.0.0.1", "http://127.0.0.1:*"} {
		assert.Regexp(t, `frame-ancestors [^;]*`+regexp.QuoteMeta(origin), csp)
	}
	assert.NotContains(t, res.Body, `class="nav"`, "no app chrome in the frame")
	assert.Contains(t, res.Body, `action="/embed/survey/`+poll+`/start"`)
	assert.NotContains(t, res.Body, `href="/feed"`, "nothing leads out of the frame")

	start := c.postForm("/embed/survey/"+poll+"/start", url.Values{})
	require.Equal(t, http.StatusSeeOther, start.StatusCode)
	assert.Equal(t, "/embed/survey/"+poll, start.Header.Get("Location"), "the form stays in the frame")
	box := c.get("/embed/survey/" + poll)
	assert.Contains(t, box.Body, `action="/embed/survey/`+poll+`/answer"`)
	assert.Contains(t, box.Body, `"embed":true`)
}

func TestAnEmbeddedSurveyWithoutASessionOffersSignInInANewTab(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	poll := e.campaignID("demo", "Quick poll")
	res := e.client("localhost").get("/embed/survey/" + poll)
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
	assert.Contains(t, res.Body, "Sign in to take part")
	assert.Contains(t, res.Body, `href="/login?redirect=%2Fembed%2Fsurvey%2F`+poll+`" target="_blank"`)
	assert.Regexp(t, `frame-ancestors 'self' [^;]*https://localhost`, res.Header.Get("Content-Security-Policy"), "the notice itself may be framed")
}

func TestATokenOpensTheEmbeddedSurveyWithAPartitionedCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	token := e.member().cookie("pp-token")
	poll := e.campaignID("demo", "Quick poll")
	res := e.client("localhost").get("/embed/survey/" + poll + "?token=" + token)
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	assert.Equal(t, "/embed/survey/"+poll, res.Header.Get("Location"))
	var set string
	for _, h := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(h, "pp-token=") {
			set = strings.ToLower(h)
		}
	}
	for _, attr := range []string{"samesite=none", "partitioned", "secure", "httponly"} {
		assert.Contains(t, set, attr)
	}
}

func TestTheWidgetOpensAtItsOneQuestionWithSubmitAndStaysInTheFrame(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		res := c.get("/embed/widget/" + poll)
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, `class="survey-box survey-widget"`)
		assert.Contains(t, res.Body, `"widget":true`)
		assert.Regexp(t, `<button class="button" type="submit">\s*Submit\s*</button>`, res.Body, "one question: Submit, not Next")
		assert.Contains(t, res.Body, `action="/embed/widget/`+poll+`/answer"`)

		ans := c.postForm("/embed/widget/"+poll+"/answer", url.Values{"qid": {"morning_drink"}, "answer": {"tea"}})
		require.Equal(t, http.StatusSeeOther, ans.StatusCode)
		assert.Equal(t, "/embed/widget/"+poll, ans.Header.Get("Location"))
		assert.Equal(t, "25.50", e.balanceOf(c))
		done := c.get("/embed/widget/" + poll)
		assert.Contains(t, done.Body, "You earned")
	})
}

func TestTheQuestionIframeURLOpensTheEmbeddedSurvey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.member()
	token := c.cookie("pp-token")
	poll := e.campaignID("demo", "Quick poll")
	visitor := e.client("localhost")
	res := visitor.get("/api/v1/demo/campaigns/" + poll + "/question/morning_drink/iframe?token=" + token + "&lang=es")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	assert.Equal(t, "/embed/survey/"+poll+"?lang=es&token="+token, res.Header.Get("Location"))

	_, _, status := apiError(t, visitor.get("/api/v1/demo/campaigns/"+poll+"/question/nope/iframe?token="+token))
	assert.Equal(t, http.StatusNotFound, status)
	_, _, status = apiError(t, visitor.get("/api/v1/demo/campaigns/"+poll+"/question/morning_drink/iframe"))
	assert.Equal(t, http.StatusUnauthorized, status)
}

func TestACampaignWithAMinimumAgeHoldsBackMembersTheirDateOfBirthDoesNotAllow(t *testing.T) {
	t.Parallel()
	const id = "5f1e0c9a-8b7d-4e6f-9a1b-2c3d4e5f6a70"
	eachDialect(t, func(t *testing.T, e *env) {
		e.importCampaign(&campaigns.Definition{
			UUID: id, Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "Wine tasting"},
			Reward: "1.00", EstimatedMinutes: 2, MinAge: 18,
			Questions: []campaigns.Question{{ID: "fav", ControlType: campaigns.ControlText, Text: campaigns.Text{"en": "Your favourite wine?"}}},
		})
		c := e.member()
		base := "/api/v1/demo/campaigns/" + id
		eighteenToday := time.Now().UTC().AddDate(-18, 0, 0).Format(time.DateOnly)
		tomorrowEighteen := time.Now().UTC().AddDate(-18, 0, 1).Format(time.DateOnly)
		for _, tt := range []struct {
			name, dob string
			blocked   bool
		}{
			{name: "without a date of birth", dob: "", blocked: true},
			{name: "not a date", dob: "01/02/1990", blocked: true},
			{name: "turning 18 tomorrow", dob: tomorrowEighteen, blocked: true},
			{name: "18 today", dob: eighteenToday, blocked: false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				e.setDateOfBirth(tt.dob)
				g := decodeJSON[struct {
					Status   string          `json:"campaign_status"`
					Action   *map[string]any `json:"action"`
					Question *map[string]any `json:"question"`
				}](t, c.get(base+"/go"), http.StatusOK)
				if !tt.blocked {
					assert.Nil(t, g.Action)
					assert.NotNil(t, g.Question)
					return
				}
				require.NotNil(t, g.Action)
				assert.Equal(t, map[string]any{"type": "dobblk"}, *g.Action)
				assert.Nil(t, g.Question)
				assert.Equal(t, "new", g.Status, "nothing started")
				res := c.postJSON(base+"/question/fav", `{"answer":"Rioja"}`)
				assert.Equal(t, http.StatusForbidden, res.StatusCode)
				assert.Contains(t, res.Body, `"code":"dobblk"`)
				page := c.get("/survey/" + id)
				assert.Contains(t, page.Body, "This survey is for members aged 18 or over")
				assert.Contains(t, page.Body, `<a class="button" href="/">Go to Homepage</a>`)
				assert.Equal(t, "25.00", e.balanceOf(c))
			})
		}
	})
}

func TestAQuestionsRichTextIsSanitisedForTheBoxAndTheAPI(t *testing.T) {
	t.Parallel()
	const id = "5f1e0c9a-8b7d-4e6f-9a1b-2c3d4e5f6a71"
	e := newEnv(t, "sqlite")
	e.importCampaign(&campaigns.Definition{
		UUID: id, Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "Rich text"},
		Reward: "0.10", EstimatedMinutes: 1,
		Questions: []campaigns.Question{{
			ID: "q", ControlType: campaigns.ControlText, Text: campaigns.Text{"en": "Read this"},
			HTML: campaigns.Text{"en": `<p>Read <strong>the terms</strong> <a href="https://example.com/terms" onclick="steal()">here</a><script>alert(1)</script>` +
				`<a href="javascript:alert(2)">x</a><img src="https://cdn.example/i.png" onerror="alert(3)"><iframe src="https://evil.example"></iframe><span style="color:red">!</span></p>`},
		}},
	})
	c := e.member()
	g := decodeJSON[struct {
		Question struct {
			HTML string `json:"html"`
		} `json:"question"`
	}](t, c.get("/api/v1/demo/campaigns/"+id+"/go"), http.StatusOK)
	page := c.get("/survey/" + id)
	for name, html := range map[string]string{"api": g.Question.HTML, "page": page.Body} {
		t.Run(name, func(t *testing.T) {
			assert.Contains(t, html, `<strong>the terms</strong>`)
			assert.Contains(t, html, `<a href="https://example.com/terms" rel="nofollow noreferrer noopener" target="_blank">here</a>`)
			assert.Contains(t, html, `<img src="https://cdn.example/i.png">`)
			for _, bad := range []string{"onclick", "alert(1)", "javascript:", "onerror", "<iframe", "style=\"color"} {
				assert.NotContains(t, html, bad)
			}
		})
	}
}
