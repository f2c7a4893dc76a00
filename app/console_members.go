package main

import (
	"github.com/canvass/canvass/modules/console"
	consolemembers "github.com/canvass/canvass/modules/console/members"
	"github.com/canvass/canvass/modules/web"
)

// consoleMembers is the console's members part, over the modules it reads and acts through.
func consoleMembers(a *App, kit *web.Kit) console.Part {
	return consolemembers.New(consolemembers.Deps{
		Accounts: a.Accounts, Closing: a.Profile, Participations: a.Surveys, Campaigns: a.Campaigns, Ledger: a.Wallet,
		Redemptions: a.Redemptions, Mobile: a.Mobile, Referrals: a.Referrals,
		Panel: a.Redemptions.PanelByID, Origin: kit.PanelOrigin, // the panel's own origin, never the console request's host
	})
}
