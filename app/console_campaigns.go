package main

import "github.com/canvass/canvass/modules/console"

// consoleCampaigns adapts the modules the console's campaigns part acts through.
func consoleCampaigns(a *App) console.Campaigns { return nil }
