package main

import "github.com/canvass/canvass/modules/console"

// consoleMembers adapts the modules the console's members part acts through.
func consoleMembers(a *App) console.Members { return nil }
