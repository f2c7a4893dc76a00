// Command canvass serves every tenant of the Canvass survey-and-rewards panel.
//
//	canvass [serve]                       serve HTTP (the default)
//	canvass migrate                       apply pending migrations
//	canvass demo                          load the demo tenants and data (idempotent)
//	canvass tenant apply FILE.yaml...     create or update tenants from YAML files
//	canvass campaigns validate FILE...    check campaign files (YAML or JSON); needs no database
//	canvass campaigns import --panel KEY FILE...
//	                                      create or update a panel's campaigns, all or none
//	canvass campaigns preview-link --panel KEY [--lang CODE] [--hours 72] [--question QID] UUID
//	                                      a signed link to preview a campaign (nothing recorded)
//	canvass ledger adjust --panel KEY --member EMAIL --amount 5.00 --reason "..."
//	                                      an operator's manual entry (negative debits)
//	canvass ledger balance --panel KEY --member EMAIL
//	canvass ledger reconcile              check every cached balance against its entries
//	canvass postcodes import --panel KEY FILE.csv
//	                                      create or update a panel's postcodes by id, all or none
//	canvass redemptions options apply --panel KEY FILE.yaml
//	                                      create or update a panel's redemption options by id
//	canvass redemptions list [--panel KEY] [--status S]   the operators' queue, oldest first
//	canvass redemptions show ID           a redemption with its whole payout destination
//	canvass redemptions approve|reject|mark-paid ID --reason TEXT [--operator NAME]
//	                                      move a redemption on (reject refunds the member)
//	canvass competitions list [--panel KEY]  competitions with their entries and draws
//	canvass competitions show ID          a competition, its draw and winners
//	canvass competitions draw ID --reason TEXT [--operator NAME] [--early]
//	                                      draw the winners once and credit their prizes
//	canvass competitions verify ID        check a draw again from its seed and entrants
//	canvass mail send --panel KEY [--origin URL] FILE.yaml
//	                                      a bulk mail to the members subscribed to its kind
//	canvass translations missing [--panel KEY] [--lang CODE]
//	                                      the message keys members' languages lacked, most seen first
//	canvass translations export --lang CODE [--panel KEY] [--out FILE]
//	                                      those keys as a locale file to fill in (locales/CODE.yaml)
//	canvass affiliates create --panel KEY --code CODE --partner NAME [--bonus 2.00]
//	                                      a partner's code: members it brings get the bonus once
//	canvass affiliates list --panel KEY   a panel's partner codes with the members each brought
//	canvass errors list [--panel KEY] [--limit 50]
//	                                      the latest client error reports, with page, member and app
//	canvass errors top [--panel KEY] [--since 24h] [--limit 20]
//	                                      the most frequent client errors in the window
//	canvass operators add --email EMAIL --role owner|editor|finance|support --panel KEY [--password P]
//	                                      an operator of the console (the password is printed once)
//	canvass jobs list [--state STATE] [--limit 50]
//	                                      background jobs newest first: kind, state, attempts, errors
//	canvass jobs retry|cancel ID          run a job again now, or stop it for good
//	canvass backup FILE                   a consistent copy of the SQLite database while it serves
//	canvass restore [--force] FILE        put a backup back (refuses a database in use)
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
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
	if err := run(context.Background(), os.Args[1:], log); err != nil {
		var invalid *invalidCampaignFilesError
		var badPostcodes *postcodes.InvalidError
		var badOptions *redemptions.InvalidOptionsError
		var plain *plainError
		if errors.As(err, &invalid) || errors.As(err, &badPostcodes) || errors.As(err, &badOptions) || errors.As(err, &plain) {
			fmt.Fprintln(os.Stderr, err) // one problem per line, as editors read them
			os.Exit(1)
		}
		log.Error("canvass failed", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, log *slog.Logger) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	// Commands that check their input before (or instead of) touching the database.
	var campaignsImport *campaignImport
	var preview *previewLink
	if cmd == "campaigns" && len(args) > 0 && args[0] == "preview-link" {
		pl, err := preparePreviewLink(args[1:])
		if err != nil {
			return err
		}
		preview = pl
	} else if cmd == "campaigns" {
		if len(args) > 0 && args[0] == "validate" {
			return validateCampaignFiles(os.Stdout, args[1:])
		}
		ci, err := prepareCampaignImport(args)
		if err != nil {
			return err
		}
		campaignsImport = ci
	}
	var postcodesCmd *postcodesImport
	if cmd == "postcodes" {
		pi, err := preparePostcodesImport(args)
		if err != nil {
			return err
		}
		postcodesCmd = pi
	}
	var redemptionsCmd *redemptionsCommand
	if cmd == "redemptions" {
		rc, err := prepareRedemptionsCommand(args)
		if err != nil {
			return err
		}
		redemptionsCmd = rc
	}
	var competitionsCmd *competitionsCommand
	if cmd == "competitions" {
		cc, err := prepareCompetitionsCommand(args)
		if err != nil {
			return err
		}
		competitionsCmd = cc
	}
	var affiliatesCmd *affiliatesCommand
	if cmd == "affiliates" {
		ac, err := prepareAffiliatesCommand(args)
		if err != nil {
			return err
		}
		affiliatesCmd = ac
	}
	var errorsCmd *errorsCommand
	if cmd == "errors" {
		ec, err := prepareErrorsCommand(args)
		if err != nil {
			return err
		}
		errorsCmd = ec
	}
	var mailCmd *mailSend
	if cmd == "mail" {
		mc, err := prepareMailCommand(args)
		if err != nil {
			return err
		}
		mailCmd = mc
	}
	var ledger *ledgerCommand
	if cmd == "ledger" {
		lc, err := prepareLedgerCommand(args)
		if err != nil {
			return err
		}
		ledger = lc
	}
	var translationsCmd *translationsCommand
	if cmd == "translations" {
		tc, err := prepareTranslationsCommand(args)
		if err != nil {
			return err
		}
		translationsCmd = tc
	}
	var operatorsCmd *operatorsCommand
	if cmd == "operators" {
		oc, err := prepareOperatorsCommand(args)
		if err != nil {
			return err
		}
		operatorsCmd = oc
	}
	var jobsCmd *jobsCommand
	if cmd == "jobs" {
		jc, err := prepareJobsCommand(args)
		if err != nil {
			return err
		}
		jobsCmd = jc
	}
	var backupCmd *backupCommand
	if cmd == "backup" || cmd == "restore" {
		bc, err := prepareBackupCommand(cmd, args)
		if err != nil {
			return err
		}
		backupCmd = bc
	}
	cfg, err := osConfig()
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if backupCmd != nil {
		// The database file itself: neither migrated first (a backup before an upgrade must be
		// of the old schema) nor opened by a pool that restore would have to replace under it.
		return backupCmd.run(ctx, cfg, os.Stdout)
	}
	if cfg.SecretDerived {
		log.Warn("CANVASS_SECRET is not set: using a key derived for " + cfg.Env + " (never do this in production)")
	}
	db, err := openMigrated(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeDB(db)
	switch cmd {
	case "serve":
		return serve(ctx, cfg, db, log)
	case "migrate":
		return nil // openMigrated applied them
	case "demo":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return LoadDemo(ctx, app)
	case "tenant":
		if len(args) < 2 || args[0] != "apply" {
			return errors.New("usage: canvass tenant apply FILE.yaml...")
		}
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return ApplyTenantFiles(ctx, app, args[1:], log)
	case "campaigns":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		if preview != nil {
			return preview.run(ctx, app, cfg, os.Stdout)
		}
		return campaignsImport.run(ctx, app, os.Stdout)
	case "mail":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return mailCmd.run(ctx, app, cfg, os.Stdout)
	case "ledger":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return ledger.run(ctx, app, os.Stdout)
	case "translations":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return translationsCmd.run(ctx, app, os.Stdout)
	case "postcodes":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return postcodesCmd.run(ctx, app, os.Stdout)
	case "redemptions":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return redemptionsCmd.run(ctx, app, os.Stdout)
	case "competitions":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return competitionsCmd.run(ctx, app, os.Stdout)
	case "affiliates":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return affiliatesCmd.run(ctx, app, os.Stdout)
	case "errors":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return errorsCmd.run(ctx, app, db, os.Stdout, time.Now())
	case "operators":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return operatorsCmd.run(ctx, app, os.Stdout)
	case "jobs":
		app, err := NewApp(cfg, db, log, Options{})
		if err != nil {
			return err
		}
		return jobsCmd.run(ctx, app, os.Stdout)
	default:
		return fmt.Errorf("unknown command %q (serve, migrate, demo, tenant apply, campaigns validate, campaigns import, ledger adjust, ledger balance, ledger reconcile, postcodes import, redemptions options apply, redemptions list, redemptions show, redemptions approve, redemptions reject, redemptions mark-paid, competitions list, competitions show, competitions draw, competitions verify, affiliates create, affiliates list, mail send, translations missing, translations export, errors list, errors top, operators add, jobs list, jobs retry, jobs cancel, backup, restore)", cmd)
	}
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
	errc := make(chan error, 1)
	go func() {
		log.Info("canvass listening", "addr", cfg.Addr, "env", cfg.Env, "database", dialectName(cfg.DatabaseURL))
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

func dialectName(url string) string {
	if len(url) >= 9 && url[:9] == "sqlite://" {
		return "sqlite"
	}
	return "postgres"
}
