package apidocs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTheEmbeddedDocumentLoadsAndValidates(t *testing.T) {
	t.Parallel()
	doc, err := Load()
	require.NoError(t, err)
	require.NotEmpty(t, doc.JSON)
}
