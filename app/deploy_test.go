package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// containerStage is one FROM of the Containerfile and the instructions under it.
type containerStage struct {
	from         string
	instructions []string // "RUN ...", "USER ...", joined across continuation lines
}

func containerStages(t *testing.T) []containerStage {
	t.Helper()
	b, err := os.ReadFile("../Containerfile")
	require.NoError(t, err)
	var stages []containerStage
	var line string
	for _, raw := range strings.Split(string(b), "\n") {
		raw = strings.TrimSpace(raw)
		if line == "" && (raw == "" || strings.HasPrefix(raw, "#")) {
			continue
		}
		if cont, ok := strings.CutSuffix(raw, `\`); ok {
			line += cont + " "
			continue
		}
		line += raw
		if strings.HasPrefix(strings.ToUpper(line), "FROM ") {
			stages = append(stages, containerStage{from: strings.Fields(line)[1]})
		} else if len(stages) > 0 {
			stages[len(stages)-1].instructions = append(stages[len(stages)-1].instructions, line)
		}
		line = ""
	}
	require.NotEmpty(t, stages, "the Containerfile has stages")
	return stages
}

func (s containerStage) has(prefix string) []string {
	var out []string
	for _, in := range s.instructions {
		if strings.HasPrefix(strings.ToUpper(in), prefix) {
			out = append(out, in)
		}
	}
	return out
}

func TestTheContainerImageIsStaticNonRootAndShellless(t *testing.T) {
	t.Parallel()
	stages := containerStages(t)
	final := stages[len(stages)-1]
	var build *containerStage
	for i := range stages {
		for _, run := range stages[i].has("RUN ") {
			if strings.Contains(run, "go build") {
				build = &stages[i]
			}
		}
	}
	require.NotNil(t, build, "a stage builds the Go binary")
	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"it builds in several stages", func(t *testing.T) { assert.GreaterOrEqual(t, len(stages), 3) }},
		{"the islands are built with Node in a stage of their own", func(t *testing.T) {
			assert.True(t, strings.Contains(stages[0].from, "node"), stages[0].from)
			assert.Contains(t, strings.Join(stages[0].has("RUN "), "\n"), "npm run build")
		}},
		{"the binary is built with cgo off", func(t *testing.T) {
			assert.Contains(t, strings.Join(build.instructions, "\n"), "CGO_ENABLED=0")
		}},
		{"the final image is distroless static or scratch", func(t *testing.T) {
			assert.True(t, strings.Contains(final.from, "distroless/static") || final.from == "scratch", final.from)
		}},
		{"the final image runs nothing at build time, having no shell to run it with", func(t *testing.T) {
			assert.Empty(t, final.has("RUN "))
		}},
		{"the final image runs as a user other than root", func(t *testing.T) {
			users := final.has("USER ")
			require.NotEmpty(t, users)
			user := strings.Fields(users[len(users)-1])[1]
			name := strings.Split(user, ":")[0]
			assert.NotContains(t, []string{"root", "0"}, name)
		}},
		{"the entry point is the binary itself, with no shell in between", func(t *testing.T) {
			entry := final.has("ENTRYPOINT ")
			require.Len(t, entry, 1)
			assert.Contains(t, entry[0], `["/`, "exec form")
			assert.NotContains(t, entry[0], "sh")
		}},
		{"it exposes the panels' port", func(t *testing.T) { assert.Contains(t, final.has("EXPOSE "), "EXPOSE 3000") }},
	} {
		t.Run(tc.name, tc.check)
	}
}

// unitSettings reads a systemd unit's Key=Value lines; a key given twice keeps every value.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "[") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		require.True(t, ok, line)
		out[k] = append(out[k], v)
	}
	require.NoError(t, sc.Err())
	return out
}

func TestTheSystemdUnitIsHardenedAndWaitsForTheDrain(t *testing.T) {
	t.Parallel()
	unit := unitSettings(t, "../deploy/canvass.service")
	for _, tc := range []struct {
		key, want string
	}{
		{"DynamicUser", "yes"},
		{"NoNewPrivileges", "yes"},
		{"ProtectSystem", "strict"},
		{"ProtectHome", "yes"},
		{"PrivateTmp", "yes"},
		{"PrivateDevices", "yes"},
		{"RestrictAddressFamilies", "AF_INET AF_INET6 AF_UNIX"},
		{"ReadWritePaths", "/var/lib/canvass"},
		{"Restart", "on-failure"},
		{"EnvironmentFile", "/etc/canvass/canvass.env"},
		{"KillSignal", "SIGTERM"},
		{"ExecStart", "/usr/local/bin/canvass serve"},
	} {
		t.Run(fmt.Sprintf("it sets %s=%s", tc.key, tc.want), func(t *testing.T) {
			assert.Contains(t, unit[tc.key], tc.want)
		})
	}
	t.Run("the database and the uploads are under the writable state directory", func(t *testing.T) {
		env := strings.Join(unit["Environment"], "\n")
		assert.Contains(t, env, "CANVASS_DATABASE_URL=sqlite:///var/lib/canvass/")
		assert.Contains(t, env, "CANVASS_UPLOADS_DIR=/var/lib/canvass/")
	})
	t.Run("systemd waits longer than serve drains before it kills", func(t *testing.T) {
		require.Len(t, unit["TimeoutStopSec"], 1)
		stop, err := time.ParseDuration(unit["TimeoutStopSec"][0] + "s")
		require.NoError(t, err)
		assert.Greater(t, stop, shutdownDrain)
		assert.LessOrEqual(t, stop, shutdownDrain+15*time.Second, "but not much longer: a stuck process is killed soon after")
	})
}

func TestSIGTERMLetsARequestInFlightFinishWhileNewConnectionsAreRefused(t *testing.T) {
	e := newEnv(t, migrations.SQLite)
	cfg := e.cfg
	cfg.Addr = freeAddr(t)
	cfg.MetricsAddr = freeAddr(t)
	done := make(chan error, 1)
	go func() { done <- serve(context.Background(), cfg, e.db, testLogger(t)) }()
	require.Eventually(t, func() bool {
		res, err := http.Get("http://" + cfg.Addr + "/healthz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, 30*time.Second, 20*time.Millisecond, "serve answers")
	res, err := http.Get("http://" + cfg.MetricsAddr + "/metrics")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "serve listens on CANVASS_METRICS_ADDR too")

	// A login whose body is still on its way when SIGTERM arrives: in flight, and unfinished
	// until the test sends the rest.
	body := `{"email":"member@demo.test","password":"not-the-password"}`
	conn, err := net.Dial("tcp", cfg.Addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /ah/api/v2/user/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:10])
	require.NoError(t, err)

	// A connection that never sends a request (a browser's preconnect, a load balancer's warm
	// pool): it must not hold the drain to its deadline.
	silent, err := net.Dial("tcp", cfg.Addr)
	require.NoError(t, err)
	defer silent.Close()

	select {
	case err := <-done:
		t.Fatalf("serve ended before the signal: %v", err)
	default:
	}
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))

	for _, tc := range []struct {
		name  string
		check func(t *testing.T)
	}{
		{"new connections are refused once the signal has arrived", func(t *testing.T) {
			assert.Eventually(t, func() bool {
				c, err := net.Dial("tcp", cfg.Addr)
				if err != nil {
					return true
				}
				c.Close()
				return false
			}, 10*time.Second, 10*time.Millisecond)
		}},
		{"serve waits for the request in flight", func(t *testing.T) {
			select {
			case err := <-done:
				t.Fatalf("serve ended with a request in flight: %v", err)
			default:
			}
		}},
		{"the request in flight gets its whole answer", func(t *testing.T) {
			_, err := io.WriteString(conn, body[10:])
			require.NoError(t, err)
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			b, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode, string(b))
			assert.Contains(t, string(b), "ClientError")
		}},
		{"a connection that sent nothing is closed, not waited for", func(t *testing.T) {
			require.NoError(t, silent.SetReadDeadline(time.Now().Add(shutdownDrain)))
			_, err := silent.Read(make([]byte, 1))
			assert.ErrorIs(t, err, io.EOF, "the server closed it")
		}},
		{"serve then ends cleanly, well within the drain time", func(t *testing.T) {
			select {
			case err := <-done:
				assert.NoError(t, err)
			case <-time.After(shutdownDrain):
				t.Fatal("serve did not end within shutdownDrain")
			}
		}},
	} {
		t.Run(tc.name, tc.check)
	}
}
