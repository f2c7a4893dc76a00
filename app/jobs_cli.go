package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/modules/jobs"
)

const jobsUsage = `usage: canvass jobs list [--state STATE] [--limit 50]
       canvass jobs retry ID
       canvass jobs cancel ID
states: ` + "available, scheduled, pending, running, retryable, completed, discarded, cancelled"

// jobsCommand is `canvass jobs list|retry|cancel`: the operators' view of the background jobs.
type jobsCommand struct {
	action, state string
	limit         int
	id            int64
}

func prepareJobsCommand(args []string) (*jobsCommand, error) {
	if len(args) == 0 {
		return nil, &plainError{jobsUsage}
	}
	jc := &jobsCommand{action: args[0]}
	fs := flag.NewFlagSet("jobs "+jc.action, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	switch jc.action {
	case "list":
		fs.StringVar(&jc.state, "state", "", "only jobs in this state")
		fs.IntVar(&jc.limit, "limit", 50, "at most this many jobs, newest first")
	case "retry", "cancel":
	default:
		return nil, &plainError{jobsUsage}
	}
	positional, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return nil, &plainError{fmt.Sprintf("%v\n%s", err, jobsUsage)}
	}
	if jc.action == "list" {
		if len(positional) > 0 {
			return nil, &plainError{jobsUsage}
		}
		if jc.state != "" && !contains(jobs.States, jc.state) {
			return nil, &plainError{fmt.Sprintf("--state %q is not a job state\n%s", jc.state, jobsUsage)}
		}
		if jc.limit < 1 || jc.limit > 10000 {
			return nil, &plainError{"--limit must be a whole number from 1 to 10000\n" + jobsUsage}
		}
		return jc, nil
	}
	if len(positional) != 1 {
		return nil, &plainError{jobsUsage}
	}
	if jc.id, err = strconv.ParseInt(positional[0], 10, 64); err != nil || jc.id < 1 {
		return nil, &plainError{fmt.Sprintf("%q is not a job id\n%s", positional[0], jobsUsage)}
	}
	return jc, nil
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
