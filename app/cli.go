package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gorm.io/gorm"
)

// The command line, on cobra: every command and sub-command with its flags is declared here
// and in the *_cli.go files, and a line is parsed and checked before anything is opened. Help
// (`canvass help [COMMAND...]`, --help or -h at any level) and shell completion (`canvass
// completion bash|zsh|fish|powershell`) read no configuration and open no database, so they
// create no file; a command reads the configuration and opens the database inside its run only.
//
// Exit statuses: 0, 1 when a command ran and failed (the database, a member not found, an
// invalid file), 2 when the line does not parse (an unknown command or flag, a missing required
// flag, a wrong number of arguments, a flag value that does not parse): its error names what is
// wrong, with the hint "Run 'canvass COMMAND --help' for usage.".
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// usageError is a command line that does not parse (exit status 2).
type usageError struct {
	err error
	// command is the path of the command whose --help the hint names ("canvass ledger adjust").
	command string
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// cli is one run of a command line.
type cli struct {
	log *slog.Logger
	// running turns true when a command's own code starts (body): an error before it is
	// cobra's refusal of the line (an unknown command or flag, a flag value or an argument count
	// it refused, a required flag missing), a usage error.
	running bool
	// parsed, when set, is handed what each command parsed and checked, instead of running it:
	// tests see what a line parses to without configuration or database (parseCommand).
	parsed func(cmd any)
}

// run runs one command line (os.Args[1:]); a line that does not parse is a *usageError.
// The commands write to the process's standard output.
func run(ctx context.Context, args []string, log *slog.Logger) error {
	return (&cli{log: log}).execute(ctx, args, os.Stdout, os.Stderr)
}

// execute parses args against the command tree and runs the command they name, its output
// (help too) on stdout.
func (c *cli) execute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := c.rootCmd()
	root.SetArgs(append([]string{}, args...)) // never nil: cobra would read os.Args instead
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return nil
	}
	if cmd == nil {
		cmd = root
	}
	var usage *usageError
	if errors.As(err, &usage) || !c.running {
		if usage == nil {
			usage = &usageError{err: err}
		}
		usage.command = cmd.CommandPath()
		return usage
	}
	return err
}

// report prints a command's error once, as it reads best, and returns the exit status.
func report(err error, log *slog.Logger, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var usage *usageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "Error: %v\nRun '%s --help' for usage.\n", usage.err, usage.command)
		return exitUsage
	}
	if plainErrorText(err) {
		fmt.Fprintln(stderr, err) // one problem per line, as editors read them
		return exitError
	}
	log.Error("canvass failed", "err", err)
	return exitError
}

// The command groups of `canvass --help`.
const (
	groupServer  = "server"
	groupContent = "content"
	groupMoney   = "money"
)

// rootCmd is `canvass`: serve when no command is named.
func (c *cli) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "canvass",
		Short: "Serve every tenant of the Canvass survey-and-rewards panel",
		Long: `Canvass serves every tenant of the survey-and-rewards panel from one process; its commands
migrate, load and inspect the same database. Without a command it serves (canvass serve).

The configuration comes from the environment, never from flags: CANVASS_DATABASE_URL
(sqlite://data/canvass.db by default, or postgres://...), CANVASS_ADDR (:3000), CANVASS_ENV
(production, staging or development), CANVASS_SECRET (required in production), CANVASS_DEMO=1,
CANVASS_METRICS_ADDR, CANVASS_PPROF_ADDR and the others docs/running.md lists. Help and completion
read none of it and open no database.`,
		Example: `  CANVASS_ENV=development CANVASS_DEMO=1 canvass    serve the demo tenants on :3000
  canvass help ledger adjust                        a command's usage, flags and examples
  source <(canvass completion bash)                 complete commands and flags in bash`,
		// No Args: cobra's own check then refuses a word that names no command, even before --help.
		ValidArgsFunction: cobra.NoFileCompletions,
		SilenceErrors:     true,
		SilenceUsage:      true,
		RunE:              c.body(c.serveRun),
	}
	root.SetUsageTemplate(usageTemplate)
	root.AddGroup(
		&cobra.Group{ID: groupServer, Title: "Running the server:"},
		&cobra.Group{ID: groupContent, Title: "Tenants, content and operators:"},
		&cobra.Group{ID: groupMoney, Title: "Money, prizes and partners:"},
	)
	in := func(id string, cmds ...*cobra.Command) {
		for _, cmd := range cmds {
			cmd.GroupID = id
			root.AddCommand(cmd)
		}
	}
	in(groupServer, c.serveCmd(), c.migrateCmd(), c.demoCmd(), c.seedCmd(), c.backupCmd(), c.restoreCmd(),
		c.jobsCmd(), c.errorsCmd())
	in(groupContent, c.tenantCmd(), c.campaignsCmd(), c.postcodesCmd(), c.translationsCmd(),
		c.mailCmd(), c.operatorsCmd())
	in(groupMoney, c.ledgerCmd(), c.redemptionsCmd(), c.competitionsCmd(), c.affiliatesCmd())
	return root
}

// usageTemplate is cobra's, but a command that only groups others shows no line of its own.
const usageTemplate = `Usage:{{if and .Runnable (or (not .HasAvailableSubCommands) (not .HasParent))}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}{{$cmds := .Commands}}{{if eq (len .Groups) 0}}

Available Commands:{{range $cmds}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{else}}{{range $group := .Groups}}

{{.Title}}{{range $cmds}}{{if (and (eq .GroupID $group.ID) (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if not .AllChildCommandsHaveGroup}}

Additional Commands:{{range $cmds}}{{if (and (eq .GroupID "") (or .IsAvailableCommand (eq .Name "help")))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

// group is a command that holds sub-commands only: alone, or followed by a word that names
// none of them, it is a usage error.
func group(use, short string, subs ...*cobra.Command) *cobra.Command {
	g := &cobra.Command{
		Use:   use,
		Short: short,
		// An unknown sub-command's flags would otherwise be refused first, hiding the real mistake.
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		ValidArgsFunction:  cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			var names []string
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() {
					names = append(names, s.Name())
				}
			}
			if len(args) == 0 {
				return usageErrorf("%s needs a command: %s", cmd.CommandPath(), strings.Join(names, ", "))
			}
			return usageErrorf("unknown command %q for %q (its commands: %s)%s", args[0], cmd.CommandPath(),
				strings.Join(names, ", "), suggest(cmd, args[0]))
		},
	}
	g.AddCommand(subs...)
	return g
}

// suggest names the commands close to a mistyped one, as cobra does for the root's.
func suggest(cmd *cobra.Command, typed string) string {
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(typed); len(s) > 0 {
		return "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return ""
}

// body marks where a command's own code starts (running) and runs it, once the values of its
// required flags are known not to be blank (cobra checks only that they were given).
func (c *cli) body(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		var blank []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if _, req := f.Annotations[cobra.BashCompOneRequiredFlag]; req && strings.TrimSpace(f.Value.String()) == "" {
				blank = append(blank, "--"+f.Name)
			}
		})
		if len(blank) > 0 {
			return usageErrorf("%s must not be blank", strings.Join(blank, ", "))
		}
		c.running = true
		return fn(cmd, args)
	}
}

// required marks flags a command cannot run without.
func required(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		if err := cmd.MarkFlagRequired(n); err != nil {
			panic(err) // a flag the command does not declare: a programming error
		}
	}
}

// completeWith offers values for a flag in shell completion.
func completeWith(cmd *cobra.Command, flag string, values ...string) {
	if err := cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)); err != nil {
		panic(err)
	}
}

// filesEnding completes the names of files with these extensions (no dot).
func filesEnding(exts ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(exts, cobra.ShellCompDirectiveFilterFileExt)
}

// noArgs refuses positional arguments.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments, got %q", cmd.CommandPath(), strings.Join(args, " "))
	}
	return nil
}

// oneArg wants exactly one positional argument, named what.
func oneArg(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return usageErrorf("%s needs one %s", cmd.CommandPath(), what)
		case len(args) > 1:
			return usageErrorf("%s needs one %s, got %d: %s", cmd.CommandPath(), what, len(args), strings.Join(args, " "))
		case strings.TrimSpace(args[0]) == "":
			return usageErrorf("%s needs one %s, got an empty one", cmd.CommandPath(), what)
		}
		return nil
	}
}

// someArgs wants one or more positional arguments, each a what.
func someArgs(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErrorf("%s needs at least one %s", cmd.CommandPath(), what)
		}
		return nil
	}
}

// operatorFlag is --operator: who acts, $USER by default.
func operatorFlag(cmd *cobra.Command, p *string, usage string) {
	cmd.Flags().StringVar(p, "operator", os.Getenv("USER"), usage+" ($USER when absent)")
}

// config reads the configuration from the environment: inside a command's run only.
func (c *cli) config() (Config, error) {
	cfg, err := osConfig()
	if err != nil {
		return cfg, fmt.Errorf("configuration: %w", err)
	}
	return cfg, nil
}

// openDatabase reads the configuration and opens the database, migrated.
func (c *cli) openDatabase(ctx context.Context) (Config, *gorm.DB, error) {
	cfg, err := c.config()
	if err != nil {
		return cfg, nil, err
	}
	if cfg.SecretDerived {
		c.log.Warn("CANVASS_SECRET is not set: using a key derived for " + cfg.Env + " (never do this in production)")
	}
	db, err := openMigrated(ctx, cfg, c.log)
	return cfg, db, err
}

// withApp runs fn against the app on the migrated database, or hands parsed to c.parsed.
func (c *cli) withApp(cmd *cobra.Command, parsed any, fn func(ctx context.Context, app *App, cfg Config, db *gorm.DB) error) error {
	if c.parsed != nil {
		c.parsed(parsed)
		return nil
	}
	ctx := cmd.Context()
	cfg, db, err := c.openDatabase(ctx)
	if err != nil {
		return err
	}
	defer closeDB(db)
	app, err := NewApp(cfg, db, c.log, Options{})
	if err != nil {
		return err
	}
	return fn(ctx, app, cfg, db)
}

// serveCommand is `canvass serve`, also what `canvass` alone does.
func (c *cli) serveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve HTTP (the default command)",
		Long: `Applies pending migrations, then serves every panel, the operator console and the API on
CANVASS_ADDR, and works the background jobs, until SIGINT or SIGTERM; then it drains the requests
and jobs in flight for up to 20 seconds. It logs where it listens, which database it uses and the
metrics and profiles addresses (CANVASS_METRICS_ADDR, CANVASS_PPROF_ADDR) when set. With
CANVASS_DEMO=1 it loads the demo tenants first; in development it then prints the demo's addresses.`,
		Example:           "  CANVASS_ENV=development CANVASS_DEMO=1 canvass serve",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.body(c.serveRun),
	}
}

func (c *cli) serveRun(cmd *cobra.Command, _ []string) error {
	if c.parsed != nil {
		c.parsed("serve")
		return nil
	}
	cfg, db, err := c.openDatabase(cmd.Context())
	if err != nil {
		return err
	}
	defer closeDB(db)
	return serve(cmd.Context(), cfg, db, c.log)
}

// migrateCommand is `canvass migrate`.
func (c *cli) migrateCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "migrate",
		Short:             "Apply pending migrations and exit",
		Long:              "Applies every pending schema migration, each in its own transaction, logging each as it finishes. Every other command that opens the database does so as well.",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			if c.parsed != nil {
				c.parsed("migrate")
				return nil
			}
			_, db, err := c.openDatabase(cmd.Context())
			if err != nil {
				return err
			}
			closeDB(db)
			return nil
		}),
	}
}

// demoCommand is `canvass demo`.
func (c *cli) demoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Load the demo tenants and their data (idempotent)",
		Long: `Creates or updates the demo tenants (Canvass Demo, Northwind Rewards), their campaigns, postcodes,
redemption options, the demo members and the console's demo operators (README.md, Demo accounts),
and a few hundred synthetic respondents (respondent-NNNN@synthetic.invalid, who can never sign in)
whose answers fill the console's results (docs/console.md, Results). Running it again changes nothing. canvass serve does it at start with CANVASS_DEMO=1.`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			return c.withApp(cmd, "demo", func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				if err := LoadDemo(ctx, app); err != nil {
					return err
				}
				return LoadDemoResults(ctx, app)
			})
		}),
	}
}

// tenantCommand is `canvass tenant apply FILE.yaml...`.
func (c *cli) tenantCmd() *cobra.Command {
	apply := &cobra.Command{
		Use:   "apply FILE.yaml...",
		Short: "Create or update tenants from YAML files",
		Long: `Creates or updates the instance and panel each file describes (docs/tenants.md), and
prints every colour of an applied panel's theme that the contrast rule had to adjust.`,
		Example: "  canvass tenant apply tenants/acme.yaml tenants/beta.yaml",
		Args:    someArgs("tenant FILE.yaml"),
		RunE: c.body(func(cmd *cobra.Command, files []string) error {
			return c.withApp(cmd, files, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return applyTenantFiles(ctx, app, files, c.log, cmd.OutOrStdout())
			})
		}),
	}
	return group("tenant", "Create or update tenants from files", apply)
}

// checkRange refuses a whole-number flag's value outside lo to hi.
func checkRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return usageErrorf("--%s must be a whole number from %d to %d, not %d", flag, lo, hi, v)
	}
	return nil
}
