package main

import "github.com/canvass/canvass/modules/console"

// consolePanelSettings is the console's panelsettings part (nil until it lands), over the modules it acts through.
func consolePanelSettings(a *App) console.Part { return nil }
