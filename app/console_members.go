package main

import "github.com/canvass/canvass/modules/console"

// consoleMembers is the console's members part (nil until it lands), over the modules it acts through.
func consoleMembers(a *App) console.Part { return nil }
