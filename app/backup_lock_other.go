//go:build !linux

package main

import (
	"errors"
	"os"
)

// sqliteInUse cannot tell on this system (it needs Linux's open-file-description locks): with
// a -shm file beside the database, restore asks for --force.
func sqliteInUse(path string) (bool, error) {
	if _, err := os.Stat(path + "-shm"); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return false, errors.New("this system cannot check SQLite's locks")
}
