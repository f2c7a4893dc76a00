package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// command is a command in dir in a process group of its own: cancelling ctx (Ctrl-C) ends the
// whole group (make's go build and npm too), not only the command.
func command(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// build runs make build in dir, its output in logPath.
func build(ctx context.Context, dir, logPath string) error {
	log, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := command(ctx, dir, "make", "build")
	// A make above this one (make screenshots) passes its jobserver and level down in these;
	// the base's build is a make of its own.
	cmd.Env = withoutEnv(os.Environ(), "MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=", "MAKEOVERRIDES=")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		data, _ := os.ReadFile(logPath)
		return fmt.Errorf("make build: %w; %s ends:\n%s", err, logPath, tail(string(data), 40))
	}
	return nil
}

// linkNodeModules lets the base's build use the work tree's npm packages when both lock the
// same ones, and tells whether it did. Make installs packages when package.json or
// package-lock.json is newer than node_modules/.installed: the base's copies, just checked
// out, are dated back so the work tree's stamp (through the link) stands. The work tree's own
// files are not touched.
func linkNodeModules(root, src string) bool {
	headLock, err := os.ReadFile(filepath.Join(root, "package-lock.json"))
	if err != nil {
		return false
	}
	baseLock, err := os.ReadFile(filepath.Join(src, "package-lock.json"))
	if err != nil || !bytes.Equal(headLock, baseLock) {
		return false
	}
	// Without the stamp, make would run npm install through the link, into the work tree's packages.
	if _, err := os.Stat(filepath.Join(root, "node_modules", ".installed")); err != nil {
		return false
	}
	if err := os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(src, "node_modules")); err != nil {
		return false
	}
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"package.json", "package-lock.json"} {
		if err := os.Chtimes(filepath.Join(src, name), old, old); err != nil && !os.IsNotExist(err) {
			_ = os.Remove(filepath.Join(src, "node_modules"))
			return false
		}
	}
	return true
}

// removeWorktree removes the base's worktree, if any, and git's record of it. It runs on the
// way out, also after Ctrl-C, so it takes no context.
func removeWorktree(root, src string) {
	// The link first: whatever removes the directory then never reaches the work tree's packages.
	if fi, err := os.Lstat(filepath.Join(src, "node_modules")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		_ = os.Remove(filepath.Join(src, "node_modules"))
	}
	if _, err := os.Stat(src); err == nil {
		_, _ = git(context.Background(), root, "worktree", "remove", "--force", src)
	}
	_ = os.RemoveAll(src)
	_, _ = git(context.Background(), root, "worktree", "prune")
}
