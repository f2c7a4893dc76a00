package main

import "github.com/canvass/canvass/modules/console"

// consoleMoney is the console's money part (nil until it lands), over the modules it acts through.
func consoleMoney(a *App) console.Part { return nil }
