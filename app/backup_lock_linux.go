//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// sqliteShmDMS is the byte of a WAL database's -shm file on which every connection that has
// the database open holds a read lock for as long as it is open (SQLite's os_unix.c:
// UNIX_SHM_BASE 120 + SQLITE_SHM_NLOCK 8, the "dead man switch").
const sqliteShmDMS = 128

// sqliteInUse tells whether a process has the WAL database at path open, by asking for a write
// lock on its -shm file's DMS byte. An open-file-description lock conflicts with SQLite's
// classic record locks even inside this same process, so a server in this process counts too.
// No -shm file: nobody has it open in WAL mode.
func sqliteInUse(path string) (bool, error) {
	f, err := os.OpenFile(path+"-shm", os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart, Start: sqliteShmDMS, Len: 1}
	err = unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	switch {
	case err == nil:
		lk.Type = unix.F_UNLCK
		_ = unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		return false, nil
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EACCES):
		return true, nil
	default:
		return false, fmt.Errorf("lock %s-shm: %w", path, err)
	}
}
