package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// axeViolations runs axe-core (axeRun in a11y_walk_browser_test.go) over the survey box for
// WCAG 2.2 A and AA and lists what it finds.
func axeViolations(t *testing.T, p *rod.Page, src string) []string {
	t.Helper()
	var out []string
	for _, v := range axeRun(t, p, src, `[data-island="survey-box"]`) {
		var nodes []string
		for _, n := range v.Nodes {
			nodes = append(nodes, n.Target)
		}
		out = append(out, v.ID+": "+strings.Join(nodes, ", "))
	}
	return out
}

// TestInChromiumAxeFindsNoWCAGViolationOnTheSurveyBoxForAnyControl walks a campaign with
// every control in the survey-box island and runs axe-core on each question.
func TestInChromiumAxeFindsNoWCAGViolationOnTheSurveyBoxForAnyControl(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	b := newBrowserEnv(t)
	everyControl(t, b.env)
	api := b.member()
	page := b.signedInFeed(t, false).CancelTimeout()
	var rows []campaigns.Campaign
	require.NoError(t, b.db.Where("id = ?", everyControlID).Find(&rows).Error)
	seen := map[string]bool{}
	for _, c := range rows {
		base := "/api/v1/demo/campaigns/" + c.ID
		g := decodeJSON[goResultJSON](t, api.get(base+"/go"), http.StatusOK)
		for i := 0; g.Question != nil && i < 40; i++ {
			if !seen[g.Question.ControlType] {
				seen[g.Question.ControlType] = true
				// Each control gets its own 30 s: the page's deadline is fixed when it is set,
				// and 24 controls under -race on a busy machine outlast one.
				p := page.Timeout(browserStep)
				p.MustNavigate(b.url("localhost", "/survey/"+c.ID)).MustWaitLoad()
				p.MustElement(surveyIsland)
				p.MustWait(`() => !!document.querySelector('[data-island="survey-box"] .survey-question [aria-labelledby], [data-island="survey-box"] .survey-question input, [data-island="survey-box"] .survey-question select') && !document.querySelector('[data-island="survey-box"] .spinner')`)
				v := axeViolations(t, p, src)
				assert.Empty(t, v, "%s question %s (%s)", c.Names.In("en", "en"), g.Question.ID, g.Question.ControlType)
			}
			body := answerFor(t, b.env, c.ID, g.Question.ID)
			g = decodeJSON[goResultJSON](t, api.postJSON(base+"/question/"+g.Question.ID, body), http.StatusOK)
		}
	}
	var missing []string
	for _, ct := range campaigns.ControlTypes {
		if !seen[ct] {
			missing = append(missing, ct)
		}
	}
	assert.Empty(t, missing, "every control was checked")
}

const everyControlID = "0e1f3a5c-7b9d-4e2f-8a6c-000000000024"

// everyControl imports "Every control": the first question of each control type found in
// the demo campaigns, without their routes, so one walk meets all 24 controls.
func everyControl(t *testing.T, e *env) {
	t.Helper()
	everyControlIn(t, e, "demo", everyControlID)
}

// everyControlIn imports "Every control" into a panel under the given uuid and returns it.
func everyControlIn(t *testing.T, e *env, panelKey, id string) string {
	t.Helper()
	var rows []campaigns.Campaign
	require.NoError(t, e.db.Where("panel_id = (SELECT id FROM panels WHERE key = ?)", "demo").Find(&rows).Error)
	def := &campaigns.Definition{UUID: id, Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "Every control"}, Reward: "0.10", EstimatedMinutes: 10, Priority: 1000}
	seen := map[string]bool{}
	for _, r := range rows {
		for _, q := range r.Definition.Questions {
			if seen[q.ControlType] {
				continue
			}
			seen[q.ControlType] = true
			q.Routes = nil
			q.ID = fmt.Sprintf("%02d_%s", len(def.Questions)+1, q.ControlType)
			def.Questions = append(def.Questions, q)
		}
	}
	panel, err := e.app.Tenancy.PanelByKey(t.Context(), panelKey)
	require.NoError(t, err)
	_, err = e.app.Campaigns.Import(t.Context(), panel, []*campaigns.Definition{def})
	require.NoError(t, err)
	return id
}
