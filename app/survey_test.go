package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type goResultJSON struct {
	CampaignStatus string `json:"campaign_status"`
	Question       *struct {
		ID          string `json:"id"`
		ControlType string `json:"control_type"`
		Text        string `json:"text"`
		Answer      any    `json:"answer"`
	} `json:"question"`
	Progress struct {
		Answered, Questions, Total int
	} `json:"progress"`
	ThankYou *struct {
		Payout string `json:"payout"`
		Title  string `json:"title"`
	} `json:"thank_you"`
}

func (e *env) balanceOf(c *client) string {
	e.t.Helper()
	var b map[string]string
	res := c.get("/api/v3/user/balance")
	require.Equal(e.t, http.StatusOK, res.StatusCode)
	require.NoError(e.t, json.Unmarshal([]byte(res.Body), &b))
	return b["balance"]
}

func TestAMemberAnswersQuickPollThroughTheAPIAndIsPaidOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		base := "/api/v1/demo/campaigns/" + poll
		g := decodeJSON[goResultJSON](t, c.get(base+"/go"), http.StatusOK)
		assert.Equal(t, "started", g.CampaignStatus)
		require.NotNil(t, g.Question)
		assert.Equal(t, "morning_drink", g.Question.ID)
		assert.Equal(t, 0, g.Progress.Total)

		name, msg, _ := apiError(t, c.postJSON(base+"/question/morning_drink", `{"answer":null}`))
		assert.Equal(t, "ClientError", name)
		assert.Equal(t, "answer payload can't be null!", msg)
		res := c.postJSON(base+"/question/morning_drink", `{"answer":"milkshake"}`)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Equal(t, "25.00", e.balanceOf(c), "a refused answer changes nothing")

		done := decodeJSON[goResultJSON](t, c.postJSON(base+"/question/morning_drink", `{"answer":"tea"}`), http.StatusOK)
		assert.Equal(t, "completed", done.CampaignStatus)
		require.NotNil(t, done.ThankYou)
		assert.Equal(t, "0.50", done.ThankYou.Payout)
		assert.Equal(t, 100, done.Progress.Total)
		assert.Equal(t, "25.50", e.balanceOf(c))

		again := decodeJSON[goResultJSON](t, c.postJSON(base+"/question/morning_drink", `{"answer":"tea"}`), http.StatusOK)
		assert.Equal(t, "completed", again.CampaignStatus, "the same answer again is not an error")
		res = c.postJSON(base+"/question/morning_drink", `{"answer":"coffee"}`)
		assert.Equal(t, http.StatusConflict, res.StatusCode)
		assert.Equal(t, "25.50", e.balanceOf(c), "paid exactly once")

		require.Equal(t, http.StatusOK, c.postJSON(base+"/rating", `{"rating":4,"comment":"  quick   and easy "}`).StatusCode)
		rating := decodeJSON[map[string]any](t, c.get(base+"/rating"), http.StatusOK)
		assert.Equal(t, map[string]any{"rating": 4.0, "comment": "quick and easy"}, rating)

		tx := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged"), http.StatusOK)
		require.Len(t, tx.Transactions, 2)
		assert.Equal(t, "campaign", tx.Transactions[0].Origin)
		assert.Equal(t, "Quick poll", tx.Transactions[0].Title)
		assert.Equal(t, poll, *tx.Transactions[0].CampaignUUID)

		type participationJSON struct {
			CampaignUUID string `json:"campaignUuid"`
			Name         string `json:"name"`
			Type         string `json:"type"`
			Status       string `json:"campaign_status"`
			Reward       string `json:"reward"`
			CurrencyCode string `json:"currency_code"`
		}
		mine := decodeJSON[struct {
			Participations []participationJSON `json:"participations"`
			Total          int                 `json:"total"`
		}](t, c.get("/api/v3/participations/paged"), http.StatusOK)
		assert.Equal(t, 1, mine.Total)
		assert.Equal(t, []participationJSON{{CampaignUUID: poll, Name: "Quick poll", Type: "poll", Status: "completed", Reward: "0.50", CurrencyCode: "USD"}},
			mine.Participations, "the participation, named and priced by the catalogue")
	})
}

func TestWithoutJavaScriptAMemberStartsAnswersAndRatesASurvey(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		page := c.get("/survey/" + poll)
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `action="/survey/`+poll+`/start"`)

		res := c.postForm("/survey/"+poll+"/start", url.Values{})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		page = c.get("/survey/" + poll)
		assert.Contains(t, page.Body, "What do you usually drink first thing in the morning?")
		assert.Contains(t, page.Body, `name="qid" value="morning_drink"`)
		assert.Contains(t, page.Body, "0% complete")

		res = c.postForm("/survey/"+poll+"/answer", url.Values{"qid": {"morning_drink"}})
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, res.Body, "Please choose one of the options shown.", "a missing answer is said on the page")

		res = c.postForm("/survey/"+poll+"/answer", url.Values{"qid": {"morning_drink"}, "answer": {"water"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		res = c.postForm("/survey/"+poll+"/answer", url.Values{"qid": {"morning_drink"}, "answer": {"water"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, "a second click carries on")
		page = c.get("/survey/" + poll)
		assert.Contains(t, page.Body, "Thanks for voting!")
		assert.Contains(t, page.Body, "You earned $0.50.")
		assert.Contains(t, page.Body, "Take me back to my feed")
		assert.Equal(t, "25.50", e.balanceOf(c))

		res = c.postForm("/survey/"+poll+"/rating", url.Values{"rating": {"5"}, "comment": {"great"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		page = c.get("/survey/" + poll)
		assert.Contains(t, page.Body, "Thanks for your rating!")
		assert.Contains(t, page.Body, `value="5" checked`)
	})
}

func TestANewcomerCompletesTheWelcomeCampaignOnceAndThenSeesTheFeed(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		require.Equal(t, http.StatusCreated, c.postJSON("/ah/api/v2/user/register", `{"email":"new@demo.test","password":"a-good-password"}`).StatusCode)
		welcome := e.campaignID("demo", "About you")
		poll := e.campaignID("demo", "Quick poll")
		res := c.get("/api/v1/demo/campaigns/" + poll + "/go")
		require.Equal(t, http.StatusConflict, res.StatusCode)
		assert.Contains(t, res.Body, "invalid_start_go_to_welcome_campaign")
		assert.Contains(t, res.Body, welcome)

		base := "/api/v1/demo/campaigns/" + welcome
		g := decodeJSON[goResultJSON](t, c.get(base+"/go"), http.StatusOK)
		for i := 0; g.Question != nil && i < 30; i++ {
			body := answerFor(t, e, welcome, g.Question.ID)
			g = decodeJSON[goResultJSON](t, c.postJSON(base+"/question/"+g.Question.ID, body), http.StatusOK)
		}
		require.Equal(t, "completed", g.CampaignStatus)
		profile := decodeJSON[map[string]any](t, c.get("/api/v3/user/profile"), http.StatusOK)
		md, _ := profile["metadata"].(map[string]any)
		assert.Equal(t, true, md["welcomeCampaignCompleted"])
		assert.Equal(t, http.StatusOK, c.get("/api/v1/demo/campaigns/"+poll+"/go").StatusCode, "the feed is open now")
	})
}

// answerFor is a valid answer to any question of a demo campaign (for walking through it).
func answerFor(t *testing.T, e *env, campaignID, questionID string) string {
	t.Helper()
	var c campaigns.Campaign
	require.NoError(t, e.db.Where("id = ?", campaignID).Take(&c).Error)
	for _, q := range c.Definition.Questions {
		if q.ID != questionID {
			continue
		}
		v := sampleAnswer(q)
		b, _ := json.Marshal(map[string]any{"answer": v})
		return string(b)
	}
	t.Fatalf("no question %s", questionID)
	return ""
}

// sampleAnswer is a valid VALUE for a question (ARCHITECTURE.md "Answers"): the first
// option, the lowest number, every row's first column.
func sampleAnswer(q campaigns.Question) any {
	lo := func() float64 {
		if q.MinNum != nil {
			return *q.MinNum
		}
		return 1
	}
	ids := func(list []campaigns.Option) []string {
		out := []string{}
		for _, o := range list {
			if !o.Exclusive {
				out = append(out, o.ID)
			}
		}
		return out
	}
	switch q.ControlType {
	case campaigns.ControlText, campaigns.ControlTextArea:
		return strings.Repeat("a", max(1, deref(q.MinChars)))
	case campaigns.ControlDate:
		return "2000-01-31"
	case campaigns.ControlNumber, campaigns.ControlSlider, campaigns.ControlStepper, campaigns.ControlClickBar:
		return lo()
	case campaigns.ControlNPS:
		return 7
	case campaigns.ControlStar:
		return 4
	case campaigns.ControlLikert, campaigns.ControlSmiley:
		if v := q.ScaleAnswers[0].Value; v != nil {
			return *v
		}
		return 1
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		return q.Answers[0].ID
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage:
		return ids(q.Answers)[:max(1, deref(q.MinAnswers))]
	case campaigns.ControlRanking:
		all := []string{}
		for _, o := range q.Answers {
			all = append(all, o.ID)
		}
		return all
	case campaigns.ControlMostLeast:
		return map[string]any{"most": q.Answers[0].ID, "least": q.Answers[1].ID}
	case campaigns.ControlGrid:
		g := map[string]any{}
		for _, r := range q.Rows {
			if q.Multiple {
				g[r.ID] = []string{q.Columns[0].ID}
			} else {
				g[r.ID] = q.Columns[0].ID
			}
		}
		return g
	case campaigns.ControlSpend:
		p := "month"
		if len(q.SpendPeriod) > 0 {
			p = q.SpendPeriod[0]
		}
		amount := 10.0
		if q.SpendMin != nil && *q.SpendMin > amount {
			amount = *q.SpendMin
		}
		return map[string]any{"amount": amount, "period": p}
	case campaigns.ControlFrequency:
		p := "week"
		if len(q.FreqPeriod) > 0 {
			p = q.FreqPeriod[0]
		}
		return map[string]any{"count": max(1, deref(q.FreqMin)), "period": p}
	case campaigns.ControlLocation:
		return map[string]any{"postcode": "10001", "id": "10001"}
	case campaigns.ControlVideo:
		return map[string]any{"watched": true}
	}
	return nil
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func TestSurveyThemesAreServedByCampaignAndByGuidWithTheSpecsFontWeights(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		theme := decodeJSON[surveys.SurveyTheme](t, c.get("/api/v1/demo/campaigns/"+poll+"/survey-theme"), http.StatusOK)
		assert.Equal(t, "theme1", theme.Name, "the default theme")
		assert.Equal(t, surveys.FontWeights{Light: 300, Normal: 400, SemiBold: 600, Bold: 700, ExtraBold: 800}, theme.FontWeights)

		visitor := e.client("localhost")
		two := decodeJSON[surveys.SurveyTheme](t, visitor.get("/api/v1/survey-themes/"+surveys.Theme2GUID), http.StatusOK)
		assert.Equal(t, "theme2", two.Name)
		assert.Equal(t, "v2_tickbox", two.KeyName)
		assert.Equal(t, http.StatusNotFound, visitor.get("/api/v1/survey-themes/nope").StatusCode)
		assert.Equal(t, http.StatusNotFound, c.get("/api/v1/demo/campaigns/"+e.campaignID("northwind", northwindCampaignName(t, e))+"/survey-theme").StatusCode)

		c.postForm("/survey/"+poll+"/start", url.Values{})
		page := c.get("/survey/" + poll).Body
		assert.Regexp(t, `<style nonce="[^"]+">\.survey-box\{--survey-answer-border-color:`, page, "the theme reaches the page under the CSP nonce")
	})
}

func TestAPreviewLinkWalksACampaignWithoutRecordingOrPaying(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		panel, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
		require.NoError(t, err)
		coffee := e.campaignID("demo", "Your coffee habits")
		link := e.app.Surveys.PreviewLink(panel, coffee, "es", time.Now().Add(time.Hour), "")
		author := e.client("localhost") // no sign-in needed

		page := author.get(link)
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, `"previewMode":"campaign-preview"`)
		assert.Contains(t, page.Body, `"lang":"es"`)
		assert.Contains(t, page.Body, "¿Tomas café?", "the campaign in the previewed language")
		assert.NotContains(t, page.Body, `action="/survey/`+coffee+`/answer"`, "no form that would record answers")
		assert.Contains(t, page.Body, `<legend class="question-text" lang="es">¿Tomas café?</legend>`, "without JavaScript too")

		first := decodeJSON[goResultJSON](t, author.get(link+"/go"), http.StatusOK)
		require.NotNil(t, first.Question)
		assert.Equal(t, "drinks_coffee", first.Question.ID)
		// "no" skips to the last question: routing works on the answers the client sends.
		next := decodeJSON[goResultJSON](t, author.postJSON(link+"/question/drinks_coffee", `{"answer":"no","answers":{}}`), http.StatusOK)
		require.NotNil(t, next.Question)
		assert.Equal(t, "other_drinks", next.Question.ID)
		done := decodeJSON[goResultJSON](t, author.postJSON(link+"/question/other_drinks", `{"answer":["tea"],"answers":{"drinks_coffee":"no"}}`), http.StatusOK)
		assert.Equal(t, "completed", done.CampaignStatus)
		name, msg, _ := apiError(t, author.postJSON(link+"/question/other_drinks", `{"answer":null}`))
		assert.Equal(t, "ClientError", name)
		assert.Equal(t, "answer payload can't be null!", msg)

		var n int64
		require.NoError(t, e.db.Table("participations").Where("campaign_id = ?", coffee).Count(&n).Error)
		assert.Zero(t, n, "a preview records nothing")
		require.NoError(t, e.db.Table("ledger_entries").Where("campaign_id = ?", coffee).Count(&n).Error)
		assert.Zero(t, n, "and pays nothing")

		one := author.get(e.app.Surveys.PreviewLink(panel, coffee, "en", time.Now().Add(time.Hour), "coffee_rating"))
		assert.Contains(t, one.Body, `"previewMode":"preview-question"`)
		assert.Contains(t, one.Body, "How would you rate the coffee you drink most often?")

		for name, bad := range map[string]string{
			"a tampered signature":   link[:len(link)-4] + "0000",
			"an expired link":        e.app.Surveys.PreviewLink(panel, coffee, "es", time.Now().Add(-time.Minute), ""),
			"a language not offered": strings.Replace(e.app.Surveys.PreviewLink(panel, coffee, "es", time.Now().Add(time.Hour), ""), "/es/", "/ru/", 1),
			"another panel's host":   "northwind",
		} {
			c := author
			if bad == "northwind" {
				c, bad = e.client("northwind.localhost"), link
			}
			assert.Equal(t, http.StatusNotFound, c.get(bad).StatusCode, name)
			assert.Equal(t, http.StatusNotFound, c.get(bad+"/go").StatusCode, name)
		}
	})
}

func TestTheFollowURLOpensTheSurveyScreenSignedInAndInTheLanguage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		token := e.member().cookie("pp-token")
		poll := e.campaignID("demo", "Quick poll")
		c := e.client("localhost") // a new browser tab: no cookie yet
		res := c.get("/api/v1/demo/campaigns/" + poll + "/follow?token=" + token + "&lang=es")
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		for hops := 0; res.StatusCode == http.StatusSeeOther && hops < 5; hops++ {
			res = c.get(res.Header.Get("Location"))
		}
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, "Encuesta rápida", "the survey screen, in Spanish")
		assert.Equal(t, http.StatusUnauthorized, e.client("localhost").get("/api/v1/demo/campaigns/"+poll+"/follow").StatusCode)
	})
}
