package apidocs

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTheEmbeddedDocumentLoadsAndValidates(t *testing.T) {
	doc, err := Load()
	require.NoError(t, err)
	require.NotEmpty(t, doc.JSON)
}
