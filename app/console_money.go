package main

import "github.com/canvass/canvass/modules/console"

// consoleMoney adapts the modules the console's money part acts through.
func consoleMoney(a *App) console.Money { return nil }
