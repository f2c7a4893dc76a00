package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// readyTimeout bounds a server's start: migrations, the demo's seed and the first answer.
const readyTimeout = 120 * time.Second

// server is one side's Canvass serving the demo in development on a loopback port.
type server struct {
	side   string // "base" or "work tree", for messages
	url    string // http://127.0.0.1:port
	tmp    string // its database, uploads and log
	log    string
	cmd    *exec.Cmd
	exited chan struct{}
}

// startServer runs bin serve in dir with a fresh SQLite database.
func startServer(side, dir, bin string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "canvass-screenshots-server-")
	if err != nil {
		return nil, err
	}
	s := &server{side: side, url: fmt.Sprintf("http://127.0.0.1:%d", port), tmp: tmp, log: filepath.Join(tmp, "server.log"), exited: make(chan struct{})}
	logFile, err := os.Create(s.log)
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, err
	}
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	// Both sides get the same settings, whatever CANVASS_* the caller's shell has.
	s.cmd.Env = append(withoutEnv(os.Environ(), "CANVASS_"),
		"CANVASS_ENV=development",
		"CANVASS_DEMO=1",
		fmt.Sprintf("CANVASS_ADDR=127.0.0.1:%d", port),
		"CANVASS_DATABASE_URL=sqlite://"+filepath.Join(tmp, "canvass.db"),
		"CANVASS_UPLOADS_DIR="+filepath.Join(tmp, "uploads"),
	)
	// Its own process group: Ctrl-C reaches this program, which stops the server itself.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		_ = logFile.Close()
		_ = os.RemoveAll(tmp)
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() {
		_ = s.cmd.Wait()
		_ = logFile.Close()
		close(s.exited)
	}()
	return s, nil
}

// waitReady waits for the gallery's list of states and returns it.
func (s *server) waitReady(ctx context.Context, revision string) ([]state, error) {
	deadline := time.Now().Add(readyTimeout)
	client := &http.Client{Timeout: 10 * time.Second}
	last := "no answer"
	for {
		states, status, err := fetchStates(ctx, client, s.url+galleryPath+"/states.json")
		switch {
		case err == nil && status == http.StatusOK:
			return states, nil
		case status == http.StatusNotFound:
			return nil, fmt.Errorf("%s has no development gallery: GET %s/states.json answered 404 (the gallery must exist in both revisions)", revision, galleryPath)
		case err != nil:
			last = err.Error()
		default:
			last = fmt.Sprintf("status %d", status)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the %s's server (%s) did not serve %s/states.json within %v (last: %s); its log ends:\n%s", s.side, revision, galleryPath, readyTimeout, last, s.logTail(30))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.exited:
			return nil, fmt.Errorf("the %s's server (%s) stopped before serving the gallery; its log ends:\n%s", s.side, revision, s.logTail(30))
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// fetchStates gets the gallery's list; a status other than 200 comes back without an error.
func fetchStates(ctx context.Context, client *http.Client, address string) ([]state, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return nil, 0, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, res.Body)
		return nil, res.StatusCode, nil
	}
	var states []state
	if err := json.NewDecoder(res.Body).Decode(&states); err != nil {
		return nil, res.StatusCode, fmt.Errorf("read %s: %w", address, err)
	}
	return states, res.StatusCode, nil
}

// stop ends the server (its process group) and removes its files.
func (s *server) stop() {
	select {
	case <-s.exited:
	default:
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
	}
	_ = os.RemoveAll(s.tmp)
}

// logTail is the last n lines of the server's log.
func (s *server) logTail(n int) string {
	data, err := os.ReadFile(s.log)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return tail(string(data), n)
}

func tail(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

// freePort is a loopback port free at the time of asking.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// withoutEnv is env without the entries that start with any of prefixes ("NAME=" for one
// variable, "NAME_" for a family).
func withoutEnv(env []string, prefixes ...string) []string {
	var out []string
	for _, kv := range env {
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(kv, p) }) {
			out = append(out, kv)
		}
	}
	return out
}
