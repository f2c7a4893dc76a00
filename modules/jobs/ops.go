package jobs

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// States are River's job states, in the order `canvass jobs list` accepts them.
var States = []string{"available", "scheduled", "pending", "running", "retryable", "completed", "discarded", "cancelled"}

// Job is one job as operators see it (never the sealed message).
type Job struct {
	ID          int64
	Kind        string
	State       string
	Attempt     int
	MaxAttempts int
	Event       string // the event a mail is for, the sweep's name
	CreatedAt   time.Time
	ScheduledAt time.Time
	FinalizedAt *time.Time
	Errors      []string // each failed attempt's error, oldest first
}

// List is the jobs in state (every state when empty), newest first, at most limit.
func (q *Queue) List(ctx context.Context, state string, limit int) ([]Job, error) {
	params := river.NewJobListParams().OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(min(max(limit, 1), 10000))
	if state != "" {
		if !slices.Contains(States, state) {
			return nil, fmt.Errorf("no job state %q (one of %v)", state, States)
		}
		params = params.States(rivertype.JobState(state))
	}
	res, err := q.client.JobList(ctx, params)
	if err != nil {
		return nil, err
	}
	out := make([]Job, 0, len(res.Jobs))
	for _, j := range res.Jobs {
		out = append(out, view(j))
	}
	return out, nil
}

func view(j *rivertype.JobRow) Job {
	v := Job{
		ID: j.ID, Kind: j.Kind, State: string(j.State), Attempt: j.Attempt, MaxAttempts: j.MaxAttempts,
		CreatedAt: j.CreatedAt, ScheduledAt: j.ScheduledAt, FinalizedAt: j.FinalizedAt, Event: eventOf(j),
	}
	for _, e := range j.Errors {
		v.Errors = append(v.Errors, e.Error)
	}
	return v
}

// eventOf reads the event (mail) or name (sweep) from the args, without the sealed body.
func eventOf(j *rivertype.JobRow) string {
	var a struct {
		Event string `json:"event"`
		Name  string `json:"name"`
	}
	_ = jsonUnmarshal(j.EncodedArgs, &a)
	if a.Event != "" {
		return a.Event
	}
	return a.Name
}

// Retry makes a job available to run now: a discarded or cancelled one gets its attempts
// again; a completed mail runs, finds its sent-marker and sends nothing.
func (q *Queue) Retry(ctx context.Context, id int64) (Job, error) {
	j, err := q.client.JobRetry(ctx, id)
	if err != nil {
		return Job{}, fmt.Errorf("retry job %d: %w", id, err)
	}
	return view(j), nil
}

// Cancel cancels a job that has not finished: it never runs again (one running now is asked
// to stop). A text cancelled so is reported failed to its module, as a text the provider
// refused would be: the member was told it was on its way, and is now told it is not coming.
func (q *Queue) Cancel(ctx context.Context, id int64) (Job, error) {
	j, err := q.client.JobCancel(ctx, id)
	if err != nil {
		return Job{}, fmt.Errorf("cancel job %d: %w", id, err)
	}
	if j.Kind == KindSMS && j.State == rivertype.JobStateCancelled {
		h := q.smsHandler()
		if h == nil {
			return view(j), fmt.Errorf("cancel job %d: cancelled, but this process cannot tell the member (no SMS handler)", id)
		}
		if err := h.Failed(ctx, eventOf(j)); err != nil {
			return view(j), fmt.Errorf("cancel job %d: cancelled, but recording its text failed: %w", id, err)
		}
	}
	return view(j), nil
}
