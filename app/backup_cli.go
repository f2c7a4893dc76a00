package main

import (
	"github.com/spf13/cobra"
)

// backupCmd is `canvass backup FILE`, restoreCmd `canvass restore [--force] FILE`: both work on
// the database file itself, never through a migrated connection (a backup before an upgrade
// must be of the old schema, and restore must not replace a file a pool of its own holds open).
func (c *cli) backupCmd() *cobra.Command {
	bc := &backupCommand{action: "backup"}
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Take a consistent copy of the SQLite database while it serves",
		Long: `Copies the SQLite database (CANVASS_DATABASE_URL) into FILE as of one instant, while the server
goes on reading and writing, checks the copy and only then gives it its name; it never overwrites
a file. On PostgreSQL it explains pg_dump and pg_restore instead.`,
		Example:           "  canvass backup backups/canvass-$(date +%F).db",
		Args:              oneArg("backup FILE"),
		ValidArgsFunction: filesEnding("db"),
		RunE:              c.body(c.backupRun(bc)),
	}
}

func (c *cli) restoreCmd() *cobra.Command {
	bc := &backupCommand{action: "restore"}
	cmd := &cobra.Command{
		Use:   "restore [--force] FILE",
		Short: "Put a backup back in place of the SQLite database (stop the server first)",
		Long: `Checks FILE (an intact SQLite database that Canvass migrated, to a version this binary knows) and
puts it in place of the database (CANVASS_DATABASE_URL). It refuses while a process has the
database open, unless --force. The database it replaces is kept beside it, never deleted; the
next start (or canvass migrate) applies the migrations the backup lacks.`,
		Example:           "  canvass restore backups/canvass-2026-11-01.db",
		Args:              oneArg("backup FILE"),
		ValidArgsFunction: filesEnding("db"),
		RunE:              c.body(c.backupRun(bc)),
	}
	cmd.Flags().BoolVar(&bc.force, "force", false, "overwrite a database that a process has open")
	return cmd
}

// backupRun reads the configuration (the database's file) and runs bc, or hands it to c.parsed.
func (c *cli) backupRun(bc *backupCommand) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		bc.file = args[0]
		if c.parsed != nil {
			c.parsed(bc)
			return nil
		}
		cfg, err := c.config()
		if err != nil {
			return err
		}
		return bc.run(cmd.Context(), cfg, cmd.OutOrStdout())
	}
}
