package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiskStorageKeepsGivesAndForgetsAFile(t *testing.T) {
	t.Parallel()
	d := DiskStorage{Dir: t.TempDir()}
	name := "7b0c2a52-6a53-4c2e-9d43-2f0d1c6a0001/" + strings.Repeat("ab", 32)

	_, err := d.Get(t.Context(), name)
	assert.ErrorIs(t, err, ErrNotFound, "nothing yet")
	require.NoError(t, d.Put(t.Context(), name, []byte("first")))
	require.NoError(t, d.Put(t.Context(), name, []byte("second")), "replaced as a whole")
	got, err := d.Get(t.Context(), name)
	require.NoError(t, err)
	assert.Equal(t, "second", string(got))
	leftovers, err := filepath.Glob(filepath.Join(d.Dir, "*", ".upload-*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers, "no temporary file stays behind")

	require.NoError(t, d.Delete(t.Context(), name))
	require.NoError(t, d.Delete(t.Context(), name), "deleting again is no error")
	_, err = d.Get(t.Context(), name)
	assert.ErrorIs(t, err, ErrNotFound)
}

func TestDiskStorageRefusesANameThatCouldLeaveItsDirectory(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	d := DiskStorage{Dir: filepath.Join(root, "uploads")}
	for _, name := range []string{
		"../outside", "panel/../../outside", "/etc/passwd", "panel/" + strings.Repeat("ab", 32) + "/x",
		"panel\\..\\x", "", "panel/ABCDEF", "panel/" + strings.Repeat("zz", 32),
	} {
		assert.Error(t, d.Put(t.Context(), name, []byte("x")), "%q", name)
		_, err := d.Get(t.Context(), name)
		assert.Error(t, err, "%q", name)
		assert.Error(t, d.Delete(t.Context(), name), "%q", name)
	}
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was written anywhere")
}
