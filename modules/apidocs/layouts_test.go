package apidocs

import (
	"testing"

	"github.com/canvass/canvass/views/layouts/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The console's panel settings name a layout by its registered name: the document lists the
// same names the registry has (and "" for the standard one), so a new layout is not refused
// by a client that validates against the document.
func TestTheDocumentsLayoutsAreTheRegisteredOnes(t *testing.T) {
	t.Parallel()
	doc, err := Load()
	require.NoError(t, err)
	settings := doc.T.Components.Schemas["ConsolePanelAppSettings"]
	require.NotNil(t, settings)
	layout := settings.Value.Properties["layout"]
	require.NotNil(t, layout, "ConsolePanelAppSettings has a layout")
	want := []any{""}
	for _, name := range registry.Names() {
		want = append(want, name)
	}
	assert.Equal(t, want, layout.Value.Enum)
}
