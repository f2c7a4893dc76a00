package main

import "github.com/canvass/canvass/modules/console"

// consolePanelSettings adapts the modules the console's panelsettings part acts through.
func consolePanelSettings(a *App) console.PanelSettings { return nil }
