package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/events"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// feedJSON is the answer of POST /api/v3/campaigns/paged.
type feedJSON struct {
	Campaigns []struct {
		GUID             string `json:"guid"`
		ID               string `json:"id"`
		Name             string `json:"name"`
		Reward           string `json:"reward"`
		CurrencyCode     string `json:"currency_code"`
		CampaignStatus   string `json:"campaign_status"`
		IsWelcome        bool   `json:"is_welcome"`
		EstimatedMinutes int    `json:"estimated_minutes"`
		Invitation       struct {
			Name            string `json:"name"`
			QuestionsLength int    `json:"questionsLength"`
		} `json:"invitation"`
	} `json:"campaigns"`
	PageSize     int  `json:"pageSize"`
	EndOfFeed    bool `json:"endOfFeed"`
	WelcomeFirst bool `json:"welcomeFirst"`
}

func decodeFeed(t *testing.T, res *response) feedJSON {
	t.Helper()
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	var f feedJSON
	require.NoError(t, json.Unmarshal([]byte(res.Body), &f), res.Body)
	return f
}

// member signs the demo member in on Canvass Demo.
func (e *env) member() *client {
	c := e.client("localhost")
	require.Equal(e.t, http.StatusSeeOther, c.login(DemoEmail, DemoPassword).StatusCode)
	return c
}

// campaignIDs finds a panel's campaign uuids by name, straight from the catalogue.
func (e *env) campaignID(panelKey, name string) string {
	e.t.Helper()
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), panelKey)
	require.NoError(e.t, err)
	var rows []campaigns.Campaign
	require.NoError(e.t, e.db.Where("panel_id = ?", panel.ID).Find(&rows).Error)
	for _, r := range rows {
		if r.Names.In("en", r.DefaultLanguage) == name {
			return r.ID
		}
	}
	e.t.Fatalf("no campaign %q in %s", name, panelKey)
	return ""
}

// addCampaigns imports n extra one-question campaigns into the demo panel, listed first.
func (e *env) addCampaigns(n int) []string {
	e.t.Helper()
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), "demo")
	require.NoError(e.t, err)
	var defs []*campaigns.Definition
	for i := range n {
		defs = append(defs, &campaigns.Definition{
			UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": fmt.Sprintf("Extra %02d", i+1)},
			Reward: "1.00", EstimatedMinutes: 3, Priority: 1000 - i,
			Questions: []campaigns.Question{{ID: "q1", ControlType: campaigns.ControlText, Text: campaigns.Text{"en": "Why?"}}},
		})
	}
	_, err = e.app.Campaigns.Import(context.Background(), panel, defs)
	require.NoError(e.t, err)
	ids := make([]string, n)
	for i, d := range defs {
		ids[i] = d.UUID
	}
	return ids
}

func TestTheDemoMembersFeedListsQuickPollAtFiftyCents(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		f := decodeFeed(t, c.postJSON("/api/v3/campaigns/paged?page=first&pageSize=50&mode=list", "[]"))
		assert.False(t, f.WelcomeFirst, "the demo member has completed the welcome campaign")
		assert.True(t, f.EndOfFeed)
		assert.Equal(t, 50, f.PageSize)
		var poll bool
		for _, k := range f.Campaigns {
			assert.False(t, k.IsWelcome)
			assert.Equal(t, k.GUID, k.ID)
			assert.Equal(t, "USD", k.CurrencyCode)
			if k.Name == "Quick poll" {
				poll = true
				assert.Equal(t, "0.50", k.Reward)
				assert.Equal(t, 1, k.Invitation.QuestionsLength)
			}
		}
		assert.True(t, poll, "Quick poll is in the feed")
		assert.GreaterOrEqual(t, len(f.Campaigns), 6)

		page := c.get("/feed")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "Quick poll")
		assert.Contains(t, page.Body, "$0.50")
	})
}

func TestTheFeedAPIPagesWithASkipListAndNeverRepeatsAGuid(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		extra := e.addCampaigns(5)
		c := e.member()
		first := decodeFeed(t, c.postJSON("/api/v3/campaigns/paged?page=first&pageSize=3", ""))
		require.Len(t, first.Campaigns, 3)
		assert.Equal(t, extra[0], first.Campaigns[0].GUID)
		assert.False(t, first.EndOfFeed)

		seen := map[string]bool{}
		var skip []string
		for _, k := range first.Campaigns {
			seen[k.GUID], skip = true, append(skip, k.GUID)
		}
		for range 20 {
			body, _ := json.Marshal(skip)
			next := decodeFeed(t, c.postJSON("/api/v3/campaigns/paged?page=next&pageSize=3&mode=list", string(body)))
			for _, k := range next.Campaigns {
				assert.False(t, seen[k.GUID], "guid %s came twice", k.GUID)
				seen[k.GUID], skip = true, append(skip, k.GUID)
			}
			if next.EndOfFeed {
				break
			}
		}
		all := decodeFeed(t, c.postJSON("/api/v3/campaigns/paged?pageSize=50", `{"skip": []}`))
		assert.Len(t, seen, len(all.Campaigns), "paging reached every campaign once")
	})
}

func TestBadFeedRequestsAnswer400InTheSpecsErrorShape(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		for _, target := range []string{
			"/api/v3/campaigns/paged?page=last",
			"/api/v3/campaigns/paged?pageSize=0",
			"/api/v3/campaigns/paged?pageSize=51",
			"/api/v3/campaigns/paged?pageSize=ten",
			"/api/v3/campaigns/paged?filter=cheap",
			"/api/v3/campaigns/paged?mode=grid",
			"/api/v3/campaigns/paged?page=next&skipCount=-1",
		} {
			res := c.postJSON(target, "")
			assert.Equal(t, http.StatusBadRequest, res.StatusCode, target)
			name, msg, status := apiError(t, res)
			assert.Equal(t, "ClientError", name, target)
			assert.Equal(t, 400, status, target)
			assert.NotEmpty(t, msg, target)
		}
		res := c.postJSON("/api/v3/campaigns/paged?page=next", `["not-a-uuid"]`)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		res = c.postJSON("/api/v3/campaigns/paged?page=next", `{"skip": 5}`)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		for _, target := range []string{"/api/v3/participations/paged?page=0", "/api/v3/participations/paged?pageSize=500"} {
			assert.Equal(t, http.StatusBadRequest, c.get(target).StatusCode, target)
		}
	})
}

func TestEveryCampaignCallIsPrivateAndBlindToOtherPanels(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		mine := e.campaignID("demo", "Quick poll")
		theirs := e.campaignID("northwind", northwindCampaignName(t, e))
		c := e.member()
		calls := []struct{ method, path string }{
			{"GET", "/api/v1/demo/campaigns/%s"},
			{"POST", "/api/v1/demo/campaigns/%s/seen"},
			{"POST", "/api/v1/demo/campaigns/%s/skip"},
			{"POST", "/api/v1/demo/campaigns/%s/report-broken"},
			{"GET", "/api/v2/demo/campaigns/%s"},
		}
		report := `{"reasonCode":"not_loading"}`
		for _, call := range calls {
			path := fmt.Sprintf(call.path, theirs)
			res := c.do(call.method, path, strings.NewReader(report), http.Header{"Content-Type": {"application/json"}})
			assert.Equal(t, http.StatusNotFound, res.StatusCode, "%s %s", call.method, path)
			name, _, _ := apiError(t, res)
			assert.Equal(t, "ClientError", name)
			assert.NotContains(t, res.Body, theirs)

			path = fmt.Sprintf(strings.Replace(call.path, "/demo/", "/northwind/", 1), mine)
			res = c.do(call.method, path, strings.NewReader(report), http.Header{"Content-Type": {"application/json"}})
			assert.Equal(t, http.StatusNotFound, res.StatusCode, "another instance's code: %s", path)

			visitor := e.client("localhost")
			res = visitor.do(call.method, fmt.Sprintf(call.path, mine), strings.NewReader(report), http.Header{"Content-Type": {"application/json"}})
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "a visitor: %s", call.path)
		}
		for _, path := range []string{"/api/v3/participations/paged", "/api/v3/user/reports", "/api/v1/demo/campaigns/welcome?mode=list"} {
			assert.Equal(t, http.StatusUnauthorized, e.client("localhost").get(path).StatusCode, path)
		}
		assert.Equal(t, http.StatusUnauthorized, e.client("localhost").postJSON("/api/v3/campaigns/paged", "").StatusCode)

		res := c.get("/api/v1/demo/campaigns/" + mine)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		var detail struct {
			GUID        string `json:"guid"`
			Name        string `json:"name"`
			Reward      string `json:"reward"`
			Available   bool   `json:"available"`
			FooterLinks []any  `json:"footer_links"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.Body), &detail))
		assert.Equal(t, mine, detail.GUID)
		assert.Equal(t, "Quick poll", detail.Name)
		assert.Equal(t, "0.50", detail.Reward)
		assert.True(t, detail.Available)
		assert.NotNil(t, detail.FooterLinks)
	})
}

// northwindCampaignName is the English name of one of Northwind's demo campaigns.
func northwindCampaignName(t *testing.T, e *env) string {
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), "northwind")
	require.NoError(t, err)
	var c campaigns.Campaign
	require.NoError(t, e.db.Where("panel_id = ? AND is_welcome = ?", panel.ID, false).Order("id").Take(&c).Error)
	return c.Names.In("en", c.DefaultLanguage)
}

func TestSeenSkipAndReportChangeTheFeedAndTheReports(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		base := "/api/v1/demo/campaigns/" + poll

		res := c.postJSON(base+"/seen", "")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		res = c.postJSON("/api/v3/campaigns/paged?filter=new&pageSize=50", "")
		assert.NotContains(t, res.Body, poll, "a seen campaign is no longer new")

		res = c.postJSON(base+"/report-broken", `{"reasonCode":"other"}`)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, "other needs words")
		res = c.postJSON(base+"/report-broken", `{"reasonCode":"error_message","reasonText":" It showed   an error "}`)
		require.Equal(t, http.StatusCreated, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"reasonText":"It showed an error"`)
		again := c.postJSON(base+"/report-broken", `{"reasonCode":"not_loading"}`)
		assert.Equal(t, http.StatusOK, again.StatusCode, "a recent report is not taken twice")

		res = c.get("/api/v3/user/reports")
		require.Equal(t, http.StatusOK, res.StatusCode)
		var reports struct {
			Reports []struct {
				CampaignUUID    string  `json:"campaignUuid"`
				TransactionUUID *string `json:"transactionUuid"`
				CreatedAt       string  `json:"createdAt"`
				Recent          bool    `json:"recent"`
			} `json:"reports"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.Body), &reports))
		require.Len(t, reports.Reports, 1)
		assert.Equal(t, poll, reports.Reports[0].CampaignUUID)
		assert.Nil(t, reports.Reports[0].TransactionUUID)
		assert.True(t, reports.Reports[0].Recent)
		assert.NotEmpty(t, reports.Reports[0].CreatedAt)

		res = c.postJSON("/api/v3/campaigns/paged?pageSize=50", "")
		assert.NotContains(t, res.Body, poll, "a reported campaign leaves the feed")

		other := e.campaignID("demo", northwindless(t, e, poll))
		require.Equal(t, http.StatusOK, c.postJSON("/api/v1/demo/campaigns/"+other+"/skip", "").StatusCode)
		res = c.postJSON("/api/v3/campaigns/paged?pageSize=50", "")
		assert.NotContains(t, res.Body, other, "a skipped campaign is hidden")

		res = c.get("/api/v3/participations/paged?page=1&pageSize=10")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"participations":[]`, "seeing, hiding and reporting are not taking part")
	})
}

// northwindless names another demo campaign of the demo panel than the one given.
func northwindless(t *testing.T, e *env, not string) string {
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), "demo")
	require.NoError(t, err)
	var c campaigns.Campaign
	require.NoError(t, e.db.Where("panel_id = ? AND is_welcome = ? AND id <> ? AND audience_languages = ''", panel.ID, false, not).Order("id").Take(&c).Error)
	return c.Names.In("en", c.DefaultLanguage)
}

func TestANewMemberIsSentToTheWelcomeCampaignFirst(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.get("/join")
		require.Equal(t, http.StatusSeeOther, c.postForm("/join", url.Values{"email": {"newcomer@demo.test"}, "password": {"a-good-password"}}).StatusCode)

		f := decodeFeed(t, c.postJSON("/api/v3/campaigns/paged", ""))
		assert.True(t, f.WelcomeFirst)
		require.Len(t, f.Campaigns, 1)
		assert.True(t, f.Campaigns[0].IsWelcome)
		welcome := f.Campaigns[0].GUID

		res := c.get("/api/v1/demo/campaigns/welcome?mode=list")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, welcome)

		res = c.get("/api/v1/demo/campaigns/" + e.campaignID("demo", "Quick poll"))
		assert.Equal(t, http.StatusConflict, res.StatusCode)
		var body struct {
			Details []struct {
				Code string `json:"code"`
			} `json:"details"`
			Data map[string]string `json:"data"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.Body), &body))
		assert.Equal(t, "invalid_start_go_to_welcome_campaign", body.Details[0].Code)
		assert.Equal(t, welcome, body.Data["welcome_campaign_uuid"])

		page := c.get("/feed")
		assert.Contains(t, page.Body, "Start with this short survey")
		assert.Contains(t, page.Body, "/survey/"+welcome)
	})
}

var cardRE = regexp.MustCompile(`<li class="feed-card card" id="c-([0-9a-f-]{36})"`)

func cardsOf(body string) []string {
	var out []string
	for _, m := range cardRE.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

func TestTheFeedPageLoadsMoreWithHtmxAndWithAPlainLink(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		extra := e.addCampaigns(12)
		c := e.member()
		first := c.get("/feed")
		require.Equal(t, http.StatusOK, first.StatusCode)
		shown := cardsOf(first.Body)
		assert.Equal(t, extra[:10], shown, "the first page holds ten cards in feed order")
		assert.Contains(t, first.Body, `href="/feed?page=2"`)

		q := url.Values{"page": {"2"}}
		for _, id := range shown {
			q.Add("skip", id)
		}
		more := c.do(http.MethodGet, "/feed?"+q.Encode(), nil, http.Header{"HX-Request": {"true"}})
		require.Equal(t, http.StatusOK, more.StatusCode)
		assert.NotContains(t, more.Body, "<html", "htmx gets a fragment")
		added := cardsOf(more.Body)
		assert.Equal(t, extra[10:], added[:2], "the next cards follow")
		for _, id := range added {
			assert.NotContains(t, shown, id, "no card twice")
		}
		assert.Contains(t, more.Body, `hx-swap-oob="true"`, "the load-more control is replaced out of band")

		plain := c.get("/feed?page=2")
		assert.Equal(t, append(shown, added...)[:len(cardsOf(plain.Body))], cardsOf(plain.Body), "without JavaScript page 2 lists pages 1 and 2")
		assert.Equal(t, http.StatusBadRequest, c.get("/feed?page=0").StatusCode)
		assert.Equal(t, http.StatusBadRequest, c.get("/feed?filter=cheap").StatusCode)
	})
}

func TestTheEndOfTheFeedRecordsTheEventThroughTheTrackingImage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		page := c.get("/feed?filter=competitions")
		require.Equal(t, http.StatusOK, page.StatusCode)
		m := regexp.MustCompile(`<img class="tracking" src="([^"]+)"`).FindStringSubmatch(page.Body)
		require.NotNil(t, m, "the end of the feed carries the tracking image")
		src := htmlUnescape(m[1])
		assert.True(t, strings.HasPrefix(src, "/api/v1/demo/events/record?"), src)

		img := c.get(src)
		require.Equal(t, http.StatusOK, img.StatusCode, img.Body)
		assert.Equal(t, "image/gif", img.Header.Get("Content-Type"))
		panel, err := e.app.Tenancy.PanelByKey(context.Background(), "demo")
		require.NoError(t, err)
		list, err := e.app.Events.Recent(context.Background(), panel.ID, events.EndOfFeedReached, 5)
		require.NoError(t, err)
		require.Len(t, list, 1)
		var data map[string]any
		require.NoError(t, json.Unmarshal([]byte(list[0].Data), &data))
		assert.Equal(t, "competitions", data["filter"])
		assert.Equal(t, false, data["emptyFeed"])
		assert.EqualValues(t, len(cardsOf(page.Body)), data["campaignsLength"])
		assert.NotNil(t, list[0].ParticipantID, "the member is known from the cookie")

		assert.Equal(t, http.StatusBadRequest, c.get("/api/v1/demo/events/record?eventName=bad%20name").StatusCode)
		assert.Equal(t, http.StatusBadRequest, c.get("/api/v1/demo/events/record?eventName=X&eventData=%7Bnope").StatusCode)
		assert.Equal(t, http.StatusNotFound, c.get("/api/v1/demo/events/record?eventName=X&pp-panel=northwind").StatusCode)
		assert.Equal(t, http.StatusNotFound, c.get("/api/v1/northwind/events/record?eventName=X").StatusCode)
	})
}

func TestHidingAndReportingFromACardWorkWithAndWithoutJavaScript(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		cards := cardsOf(c.get("/feed").Body)
		require.GreaterOrEqual(t, len(cards), 4)

		res := c.postForm("/feed/"+cards[0]+"/hide", url.Values{"return": {"/feed?filter=all"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/feed?filter=all", res.Header.Get("Location"))
		page := c.get("/feed")
		assert.NotContains(t, cardsOf(page.Body), cards[0])
		assert.Contains(t, page.Body, "The survey is hidden from your feed.")

		form := url.Values{"_csrf": {c.cookie("XSRF-TOKEN")}}
		res = c.do(http.MethodPost, "/feed/"+cards[1]+"/hide", strings.NewReader(form.Encode()), http.Header{
			"Content-Type": {"application/x-www-form-urlencoded"}, "HX-Request": {"true"},
		})
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Empty(t, res.Body, "htmx swaps the card for nothing")
		assert.Contains(t, res.Header.Get("HX-Trigger"), "hidden from your feed")

		res = c.postForm("/feed/"+cards[2]+"/report", url.Values{"reasonCode": {"other"}, "reasonText": {""}})
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Contains(t, cardsOf(c.get("/feed").Body), cards[2], "a refused report keeps the card")

		res = c.postForm("/feed/"+cards[2]+"/report", url.Values{"reasonCode": {"not_loading"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		page = c.get("/feed")
		assert.NotContains(t, cardsOf(page.Body), cards[2])
		assert.Contains(t, page.Body, "Thanks for telling us.")

		res = c.postForm("/feed/"+cards[3]+"/hide", url.Values{"return": {"https://evil.example.com/"}})
		assert.Equal(t, "/feed", res.Header.Get("Location"), "a foreign return address is dropped")

		theirs := e.campaignID("northwind", northwindCampaignName(t, e))
		assert.Equal(t, http.StatusNotFound, c.postForm("/feed/"+theirs+"/hide", url.Values{}).StatusCode)
		assert.Equal(t, http.StatusForbidden, c.do(http.MethodPost, "/feed/"+cards[3]+"/hide", nil, http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}).StatusCode, "a form post needs its CSRF token")
	})
}

func TestTheSurveyScreenShowsTheInvitationAndMarksItSeen(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		poll := e.campaignID("demo", "Quick poll")
		page := c.get("/survey/" + poll)
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, "<h1 id=\"inv-h\" lang=\"en\">Quick poll</h1>")
		assert.Contains(t, page.Body, "$0.50")
		assert.Contains(t, page.Body, "1 question")
		assert.Equal(t, http.StatusOK, c.get("/survey/"+poll+"/q1").StatusCode, "deeper survey paths land on the same screen")
		res := c.postJSON("/api/v3/campaigns/paged?filter=new&pageSize=50", "")
		assert.NotContains(t, res.Body, poll, "opening a campaign marks it seen")

		es := e.client("localhost")
		es.login(DemoEmail, DemoPassword)
		assert.Contains(t, es.get("/survey/"+poll+"?lang=es").Header.Get("Location"), "/survey/"+poll)
		assert.Contains(t, es.get("/survey/"+poll).Body, "Encuesta rápida")

		theirs := e.campaignID("northwind", northwindCampaignName(t, e))
		assert.Equal(t, http.StatusNotFound, c.get("/survey/"+theirs).StatusCode)
		assert.Equal(t, http.StatusNotFound, c.get("/survey/not-a-uuid").StatusCode)

		newcomer := e.client("localhost")
		newcomer.get("/join")
		newcomer.postForm("/join", url.Values{"email": {"fresh@demo.test"}, "password": {"a-good-password"}})
		res = newcomer.get("/survey/" + poll)
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		welcome := e.campaignID("demo", "About you")
		assert.Equal(t, "/survey/"+welcome, res.Header.Get("Location"), "the welcome campaign comes first")
		assert.Equal(t, http.StatusOK, newcomer.get("/survey/"+welcome).StatusCode)
	})
}
