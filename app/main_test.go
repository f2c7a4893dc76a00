package main

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	closeSharedBrowser()
	os.Exit(code)
}
