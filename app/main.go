// Command canvass serves every tenant of the Canvass survey-and-rewards panel; its commands
// migrate, load and inspect the same database. `canvass help` lists them, `canvass help COMMAND`
// (or `canvass COMMAND --help`) explains one with its flags, and `canvass completion SHELL`
// writes a completion script; neither reads the configuration or opens the database. The
// command line is declared in cli.go and the *_cli.go files:
//
//	canvass [serve]                       serve HTTP (the default)
//	canvass migrate                       apply pending migrations
//	canvass demo                          load the demo tenants and data (idempotent)
//	canvass tenant apply FILE.yaml...     create or update tenants from YAML files
//	canvass campaigns validate|import|preview-link
//	canvass ledger adjust|balance|reconcile
//	canvass postcodes import
//	canvass redemptions options apply|list|show|approve|reject|mark-paid
//	canvass competitions list|show|draw|verify
//	canvass mail send
//	canvass translations missing|export
//	canvass affiliates create|list
//	canvass errors list|top
//	canvass operators add
//	canvass jobs list|retry|cancel
//	canvass backup FILE | canvass restore [--force] FILE
//	canvass completion bash|zsh|fish|powershell
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	neturl "net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/metrics"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	os.Exit(report(run(context.Background(), os.Args[1:], log), log, os.Stderr))
}

// plainErrorText tells the errors printed as they are, without the log line's decoration:
// files' problems one per line, as editors read them, and the PostgreSQL advice.
func plainErrorText(err error) bool {
	var invalid *invalidCampaignFilesError
	var badPostcodes *postcodes.InvalidError
	var badOptions *redemptions.InvalidOptionsError
	var plain *plainError
	return errors.As(err, &invalid) || errors.As(err, &badPostcodes) || errors.As(err, &badOptions) || errors.As(err, &plain)
}

func openMigrated(ctx context.Context, cfg Config, log *slog.Logger) (*gorm.DB, error) {
	db, err := migrations.Open(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := migrations.Up(ctx, db, log); err != nil {
		closeDB(db)
		return nil, err
	}
	return db, nil
}

func closeDB(db *gorm.DB) {
	if sqlDB, err := db.DB(); err == nil {
		sqlDB.Close()
	}
}

// shutdownDrain is how long `canvass serve` drains after SIGINT or SIGTERM: it stops accepting
// connections and taking jobs at once, lets the requests and jobs in flight finish (a job still
// running then is cancelled, and runs again later: every job is safe to run twice) and records
// what it kept in memory, and then exits, whatever is still running. The systemd unit's TimeoutStopSec
// (deploy/canvass.service) and a container's stop grace period must exceed it.
const shutdownDrain = 20 * time.Second

// serve runs until SIGINT or SIGTERM, then drains in-flight requests for up to shutdownDrain.
func serve(ctx context.Context, cfg Config, db *gorm.DB, log *slog.Logger) error {
	app, err := NewApp(cfg, db, log, Options{WorkJobs: true})
	if err != nil {
		return err
	}
	if cfg.Demo {
		if err := LoadDemo(ctx, app); err != nil {
			return fmt.Errorf("load demo data: %w", err)
		}
		if err := LoadDemoResults(ctx, app); err != nil {
			return fmt.Errorf("load demo results: %w", err)
		}
	}
	if err := app.Jobs.Start(ctx); err != nil {
		return err
	}
	if os.Getenv("GOGC") == "" {
		// A page allocates more than it keeps: collecting at twice the live heap instead of
		// once halves the collector's share of CPU for a few more MB (`make profile`).
		debug.SetGCPercent(200)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.PprofAddr != "" {
		stopProfiles, err := serveProfiles(cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopProfiles()
	}
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, app.Metrics, log)
		if err != nil {
			return err
		}
		defer stopMetrics()
		go app.Metrics.RunReconcile(ctx, metrics.ReconcileEvery, ledgerReconcile(app.Wallet), func(err error) {
			log.Warn("ledger reconcile for the metrics failed", "err", err)
		})
	}
	tcp, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		stopJobs(app, log)
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	ln := newDrainListener(tcp)
	port := tcp.Addr().(*net.TCPAddr).Port
	log.Info("canvass listening", startupAttrs(cfg, port)...)
	if cfg.Demo && cfg.Env == "development" {
		printDemoAddresses(os.Stderr, cfg, port)
	}
	errc := make(chan error, 1)
	go func() {
		errc <- app.Fiber.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true})
	}()
	select {
	case err := <-errc:
		stopJobs(app, log)
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownDrain)
	defer cancel()
	// Requests and jobs drain side by side, within the one deadline.
	jobsDone := make(chan error, 1)
	go func() { jobsDone <- app.Jobs.Stop(shutdownCtx) }()
	drained := make(chan struct{})
	go ln.closeSilentUntil(drained) // connections that never sent a request hold no work
	err = app.Fiber.ShutdownWithContext(shutdownCtx)
	close(drained)
	if jerr := <-jobsDone; jerr != nil {
		log.Warn("jobs still running at the end of the drain were cancelled (they run again later)", "err", jerr)
	}
	// Keys pages missed since the last write would otherwise be lost with the process.
	if ferr := app.Tenancy.FlushMissingTranslations(shutdownCtx); ferr != nil {
		log.Warn("missing translations not recorded", "err", ferr)
	}
	return err
}

// stopJobs stops the workers when the server ends by itself (its listener failed).
func stopJobs(app *App, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownDrain)
	defer cancel()
	if err := app.Jobs.Stop(ctx); err != nil {
		log.Warn("jobs stopped", "err", err)
	}
}

// startupAttrs are the start-up line's: where the server listens (the port it really has, when
// CANVASS_ADDR asked for any), the environment, the database, and the metrics and profiles
// listeners when set.
func startupAttrs(cfg Config, port int) []any {
	attrs := []any{"addr", listenAddr(cfg.Addr, port), "env", cfg.Env}
	attrs = append(attrs, databaseAttrs(cfg.DatabaseURL)...)
	if cfg.MetricsAddr != "" {
		attrs = append(attrs, "metrics", cfg.MetricsAddr)
	}
	if cfg.PprofAddr != "" {
		attrs = append(attrs, "pprof", cfg.PprofAddr)
	}
	return attrs
}

// listenAddr is addr (CANVASS_ADDR) with the port the listener got.
func listenAddr(addr string, port int) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// databaseAttrs name the database for the log: sqlite and its file, or postgres and its host
// and database; never the URL, which may hold a password.
func databaseAttrs(url string) []any {
	if path, ok := strings.CutPrefix(url, "sqlite://"); ok {
		return []any{"database", "sqlite", "path", path}
	}
	u, err := neturl.Parse(url)
	if err != nil {
		return []any{"database", "postgres"} // the error would quote the URL
	}
	host := u.Host // without the user and password
	if host == "" {
		host = u.Query().Get("host") // a socket directory: postgres:///canvass?host=/run/postgresql
	}
	return []any{"database", "postgres", "host", host, "name", strings.TrimPrefix(u.Path, "/")}
}

// printDemoAddresses is what to open once the demo serves in development (`make run`): each
// demo panel at its first domain, the partner site and the console, on the port the server
// listens on.
func printDemoAddresses(w io.Writer, cfg Config, port int) {
	at := func(host string) string { return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) }
	fmt.Fprintln(w, "\nThe demo is ready:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, spec := range demoPanelsFor(cfg.Addr) {
		fmt.Fprintf(tw, "  %s\t%s\t(a panel)\n", spec.Name, at(spec.Hosts[0]))
	}
	fmt.Fprintf(tw, "  Partner demo\t%s\t(a partner's site framing the panels' widgets)\n", at(demoPartnerHost))
	fmt.Fprintf(tw, "  Console\t%s\t(the operators' console)\n", at(cfg.ConsoleHost))
	tw.Flush()
	fmt.Fprintln(w, "Demo sign-ins: see README.md, section 'Demo accounts'")
	fmt.Fprintln(w)
}
