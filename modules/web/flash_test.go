package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAFlashCookieIsShownOnlyWhenItNamesACatalogueMessageOfItsKind(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind, id string
		shown    bool
	}{
		{"success", "flash.rating_saved", true},
		{"info", "flash.nothing_changed", true},
		{"error", "flash.link_expired", true},
		{"error", "error.competition_closed", true},
		{"success", "error.competition_closed", false},
		{"info", "error.not_found", false},
		{"error", "<script>alert(1)</script>", false},
		{"error", "survey.next", false},
		{"warning", "flash.rating_saved", false},
		{"", "", false},
	} {
		assert.Equal(t, c.shown, flashable(c.kind, c.id), "%s|%s", c.kind, c.id)
	}
}
