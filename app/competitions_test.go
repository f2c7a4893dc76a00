package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo competitions' answers by question id, as JSON.
var competitionAnswers = map[string]string{
	// Summer travel prize draw (demo).
	"next_trip": `"2027-03-01"`, "destination_type": `"beach"`, "trip_budget": `1200`, "companions": `"partner"`, "dream_destination": `"Kyoto"`,
	// Spring prize draw (northwind).
	"long_weekend": `"seaside"`, "last_holiday": `4`, "must_visit": `"Edinburgh"`,
}

// competitionGo is the survey engine's answer with the thank-you's competition invitation.
type competitionGo struct {
	CampaignStatus string `json:"campaign_status"`
	Question       *struct {
		ID string `json:"id"`
	} `json:"question"`
	ThankYou *struct {
		Competition *struct {
			UUID     string  `json:"uuid"`
			Prize    string  `json:"prize"`
			Decision *string `json:"decision"`
			Closed   bool    `json:"closed"`
		} `json:"competition"`
	} `json:"thank_you"`
}

// completeCompetition answers every question of a demo competition campaign through the API
// and returns the engine's last answer.
func (c *client) completeCompetition(t *testing.T, base string) competitionGo {
	t.Helper()
	g := decodeJSON[competitionGo](t, c.get(base+"/go"), http.StatusOK)
	for range 10 {
		if g.CampaignStatus == "completed" {
			return g
		}
		require.NotNil(t, g.Question, "status %s without a question", g.CampaignStatus)
		answer, ok := competitionAnswers[g.Question.ID]
		require.True(t, ok, "no answer for %s", g.Question.ID)
		g = decodeJSON[competitionGo](t, c.postJSON(base+"/question/"+g.Question.ID, `{"answer":`+answer+`}`), http.StatusOK)
	}
	require.Equal(t, "completed", g.CampaignStatus)
	return g
}

// decide posts an enter-competition or reject-competition call without a body.
func (c *client) decide(path string) *response {
	return c.do(http.MethodPost, path, nil, http.Header{"Content-Type": {"application/json"}})
}

// refused asserts an API error's status, message and code.
func refused(t *testing.T, res *response, status int, message, code string) {
	t.Helper()
	body := decodeJSON[redeemErrorBody](t, res, status)
	assert.Equal(t, "ClientError", body.Name)
	assert.Equal(t, message, body.Message)
	if code != "" {
		require.NotEmpty(t, body.Details, res.Body)
		assert.Equal(t, code, body.Details[0].Code)
	}
}

func TestTheDemoMemberCompletesTheTravelCompetitionAndEntersItsDrawThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		id := e.campaignID("demo", "Summer travel prize draw")
		x := campaigns.CompetitionID(id)
		base := "/api/v1/demo/campaigns/" + id
		enter := base + "/enter-competition/" + x

		refused(t, c.decide(enter), http.StatusForbidden, "Finish the survey to enter its prize draw.", "competition_not_completed")
		refused(t, c.decide(base+"/reject-competition"), http.StatusForbidden, "Finish the survey to enter its prize draw.", "competition_not_completed")

		done := c.completeCompetition(t, base)
		require.NotNil(t, done.ThankYou)
		require.NotNil(t, done.ThankYou.Competition, "the thank-you invites to the draw")
		assert.Equal(t, x, done.ThankYou.Competition.UUID)
		assert.Nil(t, done.ThankYou.Competition.Decision)
		assert.Equal(t, "25.25", e.balanceOf(c))

		refused(t, c.decide(base+"/enter-competition/"+uuid.NewString()), http.StatusNotFound, "Not found", "")
		refused(t, c.decide(base+"/enter-competition/not-a-uuid"), http.StatusNotFound, "Not found", "")

		res := c.postJSON(enter, `{}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		var ids []string
		require.NoError(t, e.db.Model(&wallet.Entry{}).Where("natural_key = ?", competitions.EntryKey(x)).Pluck("id", &ids).Error)
		require.Len(t, ids, 1)
		txID := ids[0]
		assert.Equal(t, fmt.Sprintf(`{"competition_uuid":%q,"decision":"entered","transactionUuid":%q}`, x, txID), res.Body)

		again := c.decide(strings.Replace(enter, "/api/v1/", "/api/v2/", 1))
		assert.Equal(t, http.StatusOK, again.StatusCode)
		assert.Equal(t, res.Body, again.Body, "entering again answers the same, on v2 too")
		upper := c.decide(base + "/enter-competition/" + strings.ToUpper(x))
		assert.Equal(t, res.Body, upper.Body, "the competition uuid in capitals is the same competition")

		tx := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?competitions=yes"), http.StatusOK)
		require.NotEmpty(t, tx.Transactions)
		entry := tx.Transactions[0]
		assert.Equal(t, txID, entry.TransactionUUID, "the entry heads the member's competitions")
		assert.Equal(t, "0.00", entry.Amount)
		assert.Equal(t, "25.25", entry.Balance)
		assert.Equal(t, "campaign", entry.Origin)
		assert.True(t, entry.Competition)
		assert.Equal(t, "Entered the draw: a $50 gift card", entry.Title)
		require.NotNil(t, entry.CampaignUUID)
		assert.Equal(t, id, *entry.CampaignUUID)
		entries := 0
		for _, tr := range tx.Transactions {
			if tr.TransactionUUID == txID {
				entries++
			}
		}
		assert.Equal(t, 1, entries, "one entry however often the member enters")
		assert.Equal(t, "25.25", e.balanceOf(c), "an entry moves no money")

		refused(t, c.decide(base+"/reject-competition"), http.StatusConflict, "You have already entered this prize draw.", "competition_already_entered")
		g := decodeJSON[competitionGo](t, c.get(base+"/go"), http.StatusOK)
		require.NotNil(t, g.ThankYou)
		require.NotNil(t, g.ThankYou.Competition)
		require.NotNil(t, g.ThankYou.Competition.Decision)
		assert.Equal(t, "entered", *g.ThankYou.Competition.Decision, "the thank-you shows the decision after a reload")
		e.reconciledLedger()
	})
}

func TestANorthwindMemberDeclinesTheSpringCompetitionThenEntersAfterAll(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.northwindMember()
		id := e.campaignID("northwind", "Spring prize draw")
		x := campaigns.CompetitionID(id)
		base := "/api/v2/northwind/campaigns/" + id
		c.completeCompetition(t, base)

		rejected := fmt.Sprintf(`{"competition_uuid":%q,"decision":"rejected"}`, x)
		res := c.decide(base + "/reject-competition")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Equal(t, rejected, res.Body)
		res = c.postJSON(base+"/reject-competition", `{}`)
		assert.Equal(t, http.StatusOK, res.StatusCode, "declining twice is fine")
		assert.Equal(t, rejected, res.Body)
		none := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?competitions=yes"), http.StatusOK)
		for _, tr := range none.Transactions {
			assert.NotEqual(t, "0.00", tr.Amount, "declining records nothing")
		}

		res = c.decide(base + "/enter-competition/" + x)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"decision":"entered"`)
		tx := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?competitions=yes"), http.StatusOK)
		require.NotEmpty(t, tx.Transactions)
		assert.Equal(t, "Entered the draw: a £50 gift voucher", tx.Transactions[0].Title)
		assert.Equal(t, "0.00", tx.Transactions[0].Amount)
		e.reconciledLedger()
	})
}

func TestCompetitionCallsRefuseStrangersOtherPanelsOtherCampaignsAndClosedDraws(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		id := e.campaignID("demo", "Summer travel prize draw")
		x := campaigns.CompetitionID(id)
		enter := "/api/v1/demo/campaigns/" + id + "/enter-competition/" + x

		stranger := e.client("localhost")
		assert.Equal(t, http.StatusUnauthorized, stranger.decide(enter).StatusCode, "a visitor is not signed in")

		c := e.member()
		refused(t, c.decide(strings.Replace(enter, "/demo/", "/northwind/", 1)), http.StatusNotFound, "Not found", "")
		poll := e.campaignID("demo", "Quick poll")
		refused(t, c.decide("/api/v1/demo/campaigns/"+poll+"/enter-competition/"+campaigns.CompetitionID(poll)), http.StatusNotFound, "Not found", "")
		refused(t, c.decide("/api/v1/demo/campaigns/"+poll+"/reject-competition"), http.StatusNotFound, "Not found", "")
		refused(t, c.decide("/api/v1/demo/campaigns/"+uuid.NewString()+"/reject-competition"), http.StatusNotFound, "Not found", "")
		spring := e.campaignID("northwind", "Spring prize draw")
		refused(t, c.decide("/api/v1/demo/campaigns/"+spring+"/enter-competition/"+campaigns.CompetitionID(spring)), http.StatusNotFound, "Not found", "")

		c.completeCompetition(t, "/api/v1/demo/campaigns/"+id)
		panel, _ := e.demoParticipant()
		d, err := e.app.Competitions.Draw(context.Background(), panel, x, "olga", "the sponsor closed it early", true)
		require.NoError(t, err)
		assert.Zero(t, d.Record.Entrants)
		refused(t, c.decide(enter), http.StatusConflict, "This prize draw has closed.", "competition_closed")
		refused(t, c.decide("/api/v1/demo/campaigns/"+id+"/reject-competition"), http.StatusConflict, "This prize draw has closed.", "competition_closed")

		c.get("/feed?lang=es") // the member switches to Spanish
		refused(t, c.decide(enter), http.StatusConflict, "Este sorteo ya está cerrado.", "competition_closed")
		var rows int64
		require.NoError(t, e.db.Model(&competitions.Entry{}).Count(&rows).Error)
		assert.Zero(t, rows, "refusals write nothing")
	})
}
