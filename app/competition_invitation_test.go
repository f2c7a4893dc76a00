package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importDraw imports a one-question competition campaign into the demo panel, drawn at drawAt.
func (e *env) importDraw(t *testing.T, drawAt time.Time) string {
	t.Helper()
	return e.importSurvey(t, "Winter prize draw", "0.50", []campaigns.Question{choiceQuestion("season", "Which season do you like best?", "winter", "summer")},
		func(d *campaigns.Definition) {
			d.Type = campaigns.TypeCompetition
			d.Competition = &campaigns.Competition{Prize: campaigns.Text{"en": "a $50 gift card"}, PrizeAmount: "50.00", Winners: 1, DrawAt: &drawAt,
				Terms: campaigns.Text{"en": "One winner, drawn at random from the members who enter."}}
			d.ThankYou = campaigns.ThankYou{Kind: campaigns.ThankYouCompetitionInvitation, Title: campaigns.Text{"en": "Thanks for your answers!"}}
		})
}

// invitationOf is the thank_you.competition of a go result: nil when there is none.
func invitationOf(t *testing.T, res *response) map[string]any {
	t.Helper()
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	var g struct {
		ThankYou *struct {
			Kind        string         `json:"kind"`
			Competition map[string]any `json:"competition"`
		} `json:"thank_you"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.Body), &g))
	if g.ThankYou == nil {
		return nil
	}
	return g.ThankYou.Competition
}

func TestTheThankYouOfACompletedCompetitionInvitesIntoTheDrawAndKeepsTheDecision(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		drawAt := time.Now().UTC().AddDate(0, 1, 0).Truncate(time.Second)
		id := e.importDraw(t, drawAt)
		c := e.member()
		base := "/api/v1/demo/campaigns/" + id
		assert.Nil(t, invitationOf(t, c.get(base+"/go")), "no invitation before the campaign is completed")

		got := invitationOf(t, c.postJSON(base+"/question/season", `{"answer":"winter"}`))
		require.NotNil(t, got, "the completing answer's result carries the invitation")
		assert.Equal(t, map[string]any{
			"uuid": campaigns.CompetitionID(id), "prize": "a $50 gift card", "prize_amount": "50.00", "currency_code": "USD",
			"winners": float64(1), "draw_at": drawAt.Format(time.RFC3339), "terms": "One winner, drawn at random from the members who enter.",
			"decision": nil, "closed": false,
		}, got)

		// Without JavaScript: the thank-you page's form.
		page := c.get("/survey/" + id)
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `class="competition-invite"`)
		assert.Contains(t, page.Body, `class="sb-spacer"`)
		assert.Contains(t, page.Body, "Winners are drawn on "+drawAt.Format("Jan 2, 2006")+".", "the draw date in the member's language")
		for _, bad := range []struct {
			name   string
			form   url.Values
			status int
		}{
			{"an unknown decision", url.Values{"decision": {"maybe"}, "competition": {campaigns.CompetitionID(id)}}, http.StatusBadRequest},
			{"another competition's uuid", url.Values{"decision": {"enter"}, "competition": {campaigns.CompetitionID("elsewhere")}}, http.StatusNotFound},
		} {
			res := c.postForm("/survey/"+id+"/competition", bad.form)
			assert.Equal(t, bad.status, res.StatusCode, bad.name)
		}
		assert.Nil(t, invitationOf(t, c.get(base+"/go"))["decision"], "refusals decide nothing")

		res := c.postForm("/survey/"+id+"/competition", url.Values{"decision": {"reject"}, "competition": {campaigns.CompetitionID(id)}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "rejected", invitationOf(t, c.get(base+"/go"))["decision"])
		res = c.postForm("/survey/"+id+"/competition", url.Values{"decision": {"enter"}, "competition": {campaigns.CompetitionID(id)}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "entered", invitationOf(t, c.get(base+"/go"))["decision"], "a member who declined may enter after all")
		assert.Contains(t, c.get("/survey/"+id).Body, "You&#39;re in the draw. Good luck!")

		// Declining now is refused, with the reason on the page.
		res = c.postForm("/survey/"+id+"/competition", url.Values{"decision": {"reject"}, "competition": {campaigns.CompetitionID(id)}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Contains(t, c.get("/survey/"+id).Body, `data-toast="error"`)
		assert.Equal(t, "entered", invitationOf(t, c.get(base+"/go"))["decision"])
		e.reconciledLedger()
	})
}

func TestACompetitionWhoseDrawDateHasPassedSaysTheDrawHasClosed(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		id := e.importDraw(t, time.Now().UTC().Add(-time.Hour).Truncate(time.Second))
		c := e.member()
		base := "/api/v1/demo/campaigns/" + id
		got := invitationOf(t, c.postJSON(base+"/question/season", `{"answer":"summer"}`))
		require.NotNil(t, got)
		assert.Equal(t, true, got["closed"])
		page := c.get("/survey/" + id)
		assert.Contains(t, page.Body, "This draw has closed.")
		assert.NotContains(t, page.Body, `name="decision"`, "nothing to choose")
	})
}

func TestACompetitionDrawnBeforeItsDateSaysTheDrawHasClosed(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		id := e.importDraw(t, time.Now().UTC().AddDate(0, 1, 0).Truncate(time.Second))
		c := e.member()
		base := "/api/v1/demo/campaigns/" + id
		got := invitationOf(t, c.postJSON(base+"/question/season", `{"answer":"summer"}`))
		require.NotNil(t, got)
		require.Equal(t, false, got["closed"])

		panel, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
		require.NoError(t, err)
		_, err = e.app.Competitions.Draw(t.Context(), panel, campaigns.CompetitionID(id), "ops", "the sponsor asked", true)
		require.NoError(t, err)
		assert.Equal(t, true, invitationOf(t, c.get(base+"/go"))["closed"], "drawn early: closed")
		assert.Contains(t, c.get("/survey/"+id).Body, "This draw has closed.")
	})
}
