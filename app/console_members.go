package main

import (
	"strings"

	"github.com/canvass/canvass/modules/console"
	consolemembers "github.com/canvass/canvass/modules/console/members"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// consoleMembers is the console's members part, over the modules it reads and acts through.
func consoleMembers(a *App) console.Part {
	return consolemembers.New(consolemembers.Deps{
		Accounts: a.Accounts, Participations: a.Surveys, Campaigns: a.Campaigns, Ledger: a.Wallet,
		Redemptions: a.Redemptions, Mobile: a.Mobile, Referrals: a.Referrals,
		Panel: a.Redemptions.PanelByID, Origin: consolePanelOrigin,
	})
}

// consolePanelOrigin is where a panel answers, for links mailed from the console: its first
// host with the console request's scheme and port (the demo's panels and console share one
// port; a real panel has its own https host). The accounts module's CANVASS_BASE_URL wins.
func consolePanelOrigin(c fiber.Ctx, p *web.Panel) string {
	if len(p.Hosts) == 0 {
		return ""
	}
	host := p.Hosts[0]
	if h := c.Host(); strings.Contains(h, ":") && !strings.HasSuffix(h, "]") {
		host += h[strings.LastIndex(h, ":"):]
	}
	return c.Scheme() + "://" + host
}
