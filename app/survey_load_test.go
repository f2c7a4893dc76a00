package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// Size of the answer load run: 64 members each answer every question of their own survey.
const (
	loadSurveyQuestions = 40
	loadSurveyMembers   = 64
)

// TestSurveyLoadRun has 64 members answer a 40-question survey at once, each over their own
// connection, through POST campaigns/{id}/question/{qid}, on every dialect, and reports
// answers per second and latency percentiles (the last answer of each completes the survey
// and pays it). It measures; it asserts nothing about time. `make bench` runs it.
func TestSurveyLoadRun(t *testing.T) {
	if os.Getenv("CANVASS_LOAD") != "1" {
		t.Skip("set CANVASS_LOAD=1 (make bench) to run the survey load run")
	}
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			e := newEnv(t, d)
			ctx := context.Background()
			panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
			require.NoError(t, err)
			def := &campaigns.Definition{UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "Load survey"}, Reward: "0.25", EstimatedMinutes: 10}
			for i := range loadSurveyQuestions {
				q := campaigns.Question{ID: fmt.Sprintf("q%02d", i+1), Text: campaigns.Text{"en": fmt.Sprintf("Question %d", i+1)}}
				if i%2 == 0 {
					q.ControlType = campaigns.ControlRadio
					q.Answers = []campaigns.Option{{ID: "a", Text: campaigns.Text{"en": "A"}}, {ID: "b", Text: campaigns.Text{"en": "B"}}}
				} else {
					q.ControlType = campaigns.ControlText
				}
				def.Questions = append(def.Questions, q)
			}
			_, err = e.app.Campaigns.Import(ctx, panel, []*campaigns.Definition{def})
			require.NoError(t, err)

			base := listenLoopback(t, e)
			headers := make([]http.Header, loadSurveyMembers)
			for w := range headers {
				email := fmt.Sprintf("answer%02d@demo.test", w)
				require.NoError(t, e.app.Accounts.Service().EnsureMember(ctx, panel, accounts.RegisterInput{Email: email, Password: "load-password-1", AcceptTerms: true, LanguageCode: "en"}, accounts.Metadata{"welcomeCampaignCompleted": true}))
				c := e.client("localhost")
				require.Equal(t, http.StatusSeeOther, c.login(email, "load-password-1").StatusCode)
				headers[w] = http.Header{"Cookie": {"pp-token=" + c.cookie("pp-token")}, "Content-Type": {"application/json"}}
				require.Equal(t, http.StatusOK, c.get("/api/v1/demo/campaigns/"+def.UUID+"/go").StatusCode)
			}
			path := "/api/v1/demo/campaigns/" + def.UUID + "/question/"
			start := time.Now()
			drive(t, base, loadTarget{name: string(d) + " answers", method: http.MethodPost, each: func(w, i int) loadTarget {
				body := `{"answer":"a"}`
				if i%2 == 1 {
					body = `{"answer":"Because it is quick"}`
				}
				return loadTarget{path: path + def.Questions[i].ID, body: body, header: headers[w]}
			}}, loadSurveyMembers, loadSurveyQuestions)
			t.Logf("%s: %d members finished %d questions in %v", d, loadSurveyMembers, loadSurveyQuestions, time.Since(start).Round(time.Millisecond))
			var paid int64
			require.NoError(t, e.db.Table("ledger_entries").Where("campaign_id = ?", def.UUID).Count(&paid).Error)
			require.EqualValues(t, loadSurveyMembers, paid, "every member was paid once")
		})
	}
}
