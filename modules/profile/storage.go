package profile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// Storage keeps uploaded files (profile pictures) under names the module chooses. DiskStorage
// is the default; an object store (S3 and alikes) fits the same three calls.
type Storage interface {
	// Put stores data under name, replacing what was there, all or nothing.
	Put(ctx context.Context, name string, data []byte) error
	// Get returns what name holds; ErrNotFound when nothing.
	Get(ctx context.Context, name string) ([]byte, error)
	// Delete removes name; a name that holds nothing is not an error.
	Delete(ctx context.Context, name string) error
}

// storageNameRE is every name the module stores under: <panel uuid>/<sha-256 hex>. Nothing
// else reaches the disk, so a name can never climb out of the directory.
var storageNameRE = regexp.MustCompile(`^[0-9a-f-]{1,64}/[0-9a-f]{64}$`)

// DiskStorage keeps files in a directory of the local disk (CANVASS_UPLOADS_DIR): fine for one
// server, or several sharing a network file system.
type DiskStorage struct{ Dir string }

func (d DiskStorage) path(name string) (string, error) {
	if !storageNameRE.MatchString(name) {
		return "", fmt.Errorf("storage: bad name %q", name)
	}
	return filepath.Join(d.Dir, filepath.FromSlash(name)), nil
}

// Put writes to a temporary file beside the target and renames it, so a reader never sees half
// a file and a crash leaves the old one.
func (d DiskStorage) Put(_ context.Context, name string, data []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	defer os.Remove(f.Name()) // gone after the rename; cleans up after a failure
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("storage: write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("storage: sync %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", name, err)
	}
	if err := os.Chmod(f.Name(), 0o640); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		return fmt.Errorf("storage: store %s: %w", name, err)
	}
	return nil
}

func (d DiskStorage) Get(_ context.Context, name string) ([]byte, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("storage: read %s: %w", name, err)
	}
	return data, nil
}

func (d DiskStorage) Delete(_ context.Context, name string) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: delete %s: %w", name, err)
	}
	return nil
}
