package main

import (
	"os"

	"github.com/canvass/canvass/modules/console"
	consolepanels "github.com/canvass/canvass/modules/console/panels"
)

// consolePanelSettings is the console's panels part (create panels; settings, theme, uploads,
// provider credentials, the tenant file's export and import), over the modules it acts through.
func consolePanelSettings(a *App) console.Part {
	return consolepanels.New(consolepanels.Deps{
		Tenancy: a.Tenancy, SignIn: a.SignIn, Offers: a.Offers, Referrals: a.Referrals, Getenv: os.Getenv,
	})
}
