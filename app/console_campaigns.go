package main

import (
	"github.com/canvass/canvass/modules/console"
	consolecampaigns "github.com/canvass/canvass/modules/console/campaigns"
)

// consoleCampaigns is the console's campaigns part, over the catalogue, the survey engine's
// participations and previews, and the panels.
func consoleCampaigns(a *App) console.Part {
	return consolecampaigns.New(consolecampaigns.Deps{
		Catalogue: a.Campaigns, Participations: a.Surveys, Previews: a.Surveys, Panel: a.Tenancy.PanelByKey,
	})
}
