package main

import "github.com/canvass/canvass/modules/console"

// consoleCampaigns is the console's campaigns part (nil until it lands), over the modules it acts through.
func consoleCampaigns(a *App) console.Part { return nil }
