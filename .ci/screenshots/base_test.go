package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

func TestLinkNodeModules(t *testing.T) {
	tests := []struct {
		name             string
		baseLock         string
		stamp            bool
		linked           bool
		packageBackdated bool
	}{
		{"the same lock: linked, the base's package files dated back", `{"v":1}`, true, true, true},
		{"another lock: npm installs the base's own", `{"v":2}`, true, false, false},
		{"no stamp in the work tree: not linked, npm would install through the link", `{"v":1}`, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, src := t.TempDir(), t.TempDir()
			write(t, filepath.Join(root, "package-lock.json"), `{"v":1}`)
			write(t, filepath.Join(root, "node_modules", "vite", "package.json"), `{}`)
			if tt.stamp {
				write(t, filepath.Join(root, "node_modules", ".installed"), "")
			}
			write(t, filepath.Join(src, "package.json"), `{}`)
			write(t, filepath.Join(src, "package-lock.json"), tt.baseLock)

			assert.Equal(t, tt.linked, linkNodeModules(root, src))
			target, err := os.Readlink(filepath.Join(src, "node_modules"))
			if tt.linked {
				require.NoError(t, err)
				assert.Equal(t, filepath.Join(root, "node_modules"), target)
			} else {
				assert.Error(t, err)
			}
			fi, err := os.Stat(filepath.Join(src, "package.json"))
			require.NoError(t, err)
			assert.Equal(t, tt.packageBackdated, fi.ModTime().Before(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)))
		})
	}
}

func TestRemovingTheBaseLeavesTheWorkTreesPackages(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(t.TempDir(), "base-src")
	write(t, filepath.Join(root, "package-lock.json"), `{}`)
	write(t, filepath.Join(root, "node_modules", ".installed"), "")
	write(t, filepath.Join(root, "node_modules", "vite", "package.json"), `{}`)
	write(t, filepath.Join(src, "package-lock.json"), `{}`)
	write(t, filepath.Join(src, "bin", "canvass"), "binary")
	require.True(t, linkNodeModules(root, src))

	removeWorktree(root, src)
	assert.NoDirExists(t, src)
	assert.FileExists(t, filepath.Join(root, "node_modules", "vite", "package.json"))
}
