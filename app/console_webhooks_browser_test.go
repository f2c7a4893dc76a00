package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func init() {
	consoleParts["webhooks"] = consolePart{
		pages: []string{"/console/panels/:panel/webhooks", "/console/panels/:panel/webhooks/:id"},
		visit: webhooksA11yVisit,
	}
}

// webhooksA11yVisit walks the webhooks pages, as an owner of both demo panels: the list with
// none yet, a refused URL, one added (its secret shown once), the list with it, and its page
// with a delivery (to a closed port on loopback, which development allows: it fails and waits
// for its retry, its error logged).
func webhooksA11yVisit(t *testing.T, w *a11yWalk, s *a11ySession) {
	ctx := context.Background()
	app := w.b.app
	list := "/console/panels/northwind/webhooks"
	w.open(s, list)
	w.check(s, "console: webhooks, none yet")
	// The browser's own check would stop a URL it finds invalid before the server sees it.
	s.p().MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
	fill(s.p(), map[string]string{"#f-url": "http://hooks.example.com/canvass"})
	w.submit(s, "#add-form button[type=submit]")
	w.check(s, "console: webhooks, a refused URL")
	assert.True(t, s.p().MustHas("#f-url[aria-invalid=true]"), "the URL is refused beside its field")

	fill(s.p(), map[string]string{"#f-url": "https://127.0.0.1:9/hooks/canvass"})
	w.submit(s, "#add-form button[type=submit]")
	w.check(s, "console: webhooks, one added, its secret shown once")
	require.True(t, s.p().MustHas("#new-secret"))
	w.open(s, list)
	w.check(s, "console: webhooks, one")

	panel, err := app.Tenancy.PanelByKey(ctx, "northwind")
	require.NoError(t, err)
	hooks, err := app.Webhooks.List(ctx, panel.ID)
	require.NoError(t, err)
	require.Len(t, hooks, 1)
	// A finished run of the panel's (the synthetic respondents' or, without them, none): its
	// event goes to the new webhook as the engine's hook would send it.
	var run struct{ ID, CampaignID, ParticipantID, Status string }
	w.b.db.Raw(`SELECT id, campaign_id, participant_id, status FROM participations WHERE panel_id = ? AND status IN ('completed', 'screened', 'quota_full') ORDER BY id LIMIT 1`, panel.ID).Scan(&run)
	if run.ID != "" {
		require.NoError(t, w.b.db.Transaction(func(tx *gorm.DB) error {
			return app.Webhooks.OnFinished(tx, surveys.Finished{Panel: panel, CampaignID: run.CampaignID, ParticipationID: run.ID, ParticipantID: run.ParticipantID, Status: run.Status})
		}))
	}
	page := "/console/panels/northwind/webhooks/" + hooks[0].ID
	w.open(s, page)
	w.check(s, "console: a webhook and its deliveries")
	w.submit(s, "#disable-form button[type=submit]")
	w.check(s, "console: a webhook, turned off")
	w.open(s, "/console/panels/northwind/webhooks/00000000-0000-4000-8000-000000000000")
	w.check(s, "console: webhooks, no such webhook")
	c := w.b.client(consoleHost)
	assert.Equal(t, http.StatusSeeOther, c.get(page).StatusCode, "signed out: to the sign-in")
}
