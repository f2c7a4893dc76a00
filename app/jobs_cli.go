package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/modules/jobs"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// jobsCommand is `canvass jobs list|retry|cancel`: the operators' view of the background jobs.
type jobsCommand struct {
	action, state string
	limit         int
	id            int64
}

func (c *cli) jobsCmd() *cobra.Command {
	return group("jobs", "Background jobs (mail, SMS, clean-up): list them, retry or cancel one",
		c.jobsListCmd(), c.jobsIDCmd("retry", "Run a job again now"), c.jobsIDCmd("cancel", "Stop a job for good"))
}

func (c *cli) jobsListCmd() *cobra.Command {
	jc := &jobsCommand{action: "list"}
	states := strings.Join(jobs.States, ", ")
	cmd := &cobra.Command{
		Use:   "list [--state STATE] [--limit 50]",
		Short: "Background jobs newest first: kind, state, attempts and errors",
		Long: `Lists background jobs newest first, one line each (kind, state, attempts, event, when created and
when next run or finished), and under it each failed attempt's error. States: ` + states + ".",
		Example:           "  canvass jobs list --state retryable",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			if jc.state != "" && !contains(jobs.States, jc.state) {
				return usageErrorf("--state %q is not a job state: %s", jc.state, states)
			}
			if err := checkRange("limit", jc.limit, 1, 10000); err != nil {
				return err
			}
			return c.withApp(cmd, jc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return jc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	cmd.Flags().StringVar(&jc.state, "state", "", "only jobs in this state: "+states)
	cmd.Flags().IntVar(&jc.limit, "limit", 50, "at most this many jobs, newest first, 1 to 10000")
	completeWith(cmd, "state", jobs.States...)
	return cmd
}

// jobsIDCommand is `canvass jobs retry ID` or `canvass jobs cancel ID`.
func (c *cli) jobsIDCmd(action, short string) *cobra.Command {
	jc := &jobsCommand{action: action}
	return &cobra.Command{
		Use:               action + " ID",
		Short:             short,
		Example:           "  canvass jobs " + action + " 42",
		Args:              oneArg("job ID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id < 1 {
				return usageErrorf("%q is not a job ID (a whole number, as canvass jobs list shows)", args[0])
			}
			jc.id = id
			return c.withApp(cmd, jc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return jc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (jc *jobsCommand) run(ctx context.Context, app *App, out io.Writer) error {
	switch jc.action {
	case "list":
		list, err := app.Jobs.List(ctx, jc.state, jc.limit)
		if err != nil {
			return err
		}
		printJobs(out, list)
		return nil
	case "retry":
		j, err := app.Jobs.Retry(ctx, jc.id)
		if err != nil {
			return jobNotFound(jc.id, err)
		}
		fmt.Fprintf(out, "job %d (%s) is %s: it runs again as soon as a worker is free\n", j.ID, j.Kind, j.State)
		return nil
	default:
		j, err := app.Jobs.Cancel(ctx, jc.id)
		if err != nil {
			return jobNotFound(jc.id, err)
		}
		fmt.Fprintf(out, "job %d (%s) is %s\n", j.ID, j.Kind, j.State)
		return nil
	}
}

func jobNotFound(id int64, err error) error {
	if strings.Contains(err.Error(), "not found") {
		return &plainError{fmt.Sprintf("no job %d", id)}
	}
	return err
}

// printJobs writes one line per job, and under it each failed attempt's error.
func printJobs(out io.Writer, list []jobs.Job) {
	if len(list) == 0 {
		fmt.Fprintln(out, "no jobs")
		return
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tSTATE\tATTEMPTS\tEVENT\tCREATED\tNEXT/FINISHED")
	for _, j := range list {
		when := j.ScheduledAt
		if j.FinalizedAt != nil {
			when = *j.FinalizedAt
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", j.ID, j.Kind, j.State, j.Attempt, j.MaxAttempts, j.Event,
			j.CreatedAt.UTC().Format(time.RFC3339), when.UTC().Format(time.RFC3339))
		for i, e := range j.Errors {
			fmt.Fprintf(tw, "\t\terror %d:\t%s\n", i+1, oneLine(e, 200))
		}
	}
	tw.Flush()
}
