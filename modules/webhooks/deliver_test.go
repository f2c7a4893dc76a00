package webhooks

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a migrated database with a panel, the module over it with a clock the test moves,
// a TLS receiver that checks every signature, and the tasks the module queued.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	db    *gorm.DB
	m     *Module
	panel *web.Panel
	recv  *receiver

	mu     sync.Mutex
	clock  time.Time // the module's and the receiver's clock, moved by the test (setClock)
	queued []taskPayload
}

func (f *fixture) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.clock
}

func (f *fixture) setClock(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clock = t
}

// receiver is a webhook's far end: it answers each request with the next status of its
// script (then 200), and keeps what it was sent when the signature holds.
type receiver struct {
	srv    *httptest.Server
	secret string
	now    func() time.Time

	mu       sync.Mutex
	statuses []int
	got      []received
	bad      int
}

type received struct {
	header  http.Header
	payload Payload
}

func newReceiver(t *testing.T, now func() time.Time) *receiver {
	r := &receiver{now: now}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err := Verify(r.secret, req.Header.Get(HeaderSignature), body, r.now(), DefaultTolerance); err != nil {
			r.bad++
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var p Payload
		_ = json.Unmarshal(body, &p)
		r.got = append(r.got, received{header: req.Header.Clone(), payload: p})
		status := http.StatusOK
		if len(r.statuses) > 0 {
			status, r.statuses = r.statuses[0], r.statuses[1:]
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) answer(statuses ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.statuses = statuses
}

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// fakeRuns is the survey engine and catalogue as the module reads them: one run of one
// campaign, answered.
type fakeRuns struct{ started, finished time.Time }

const (
	runID      = "11111111-1111-4111-8111-111111111111"
	campaignID = "22222222-2222-4222-8222-222222222222"
	memberID   = "33333333-3333-4333-8333-333333333333"
)

func (f fakeRuns) Response(_ context.Context, _, campaign, participation string) (*surveys.Response, []surveys.ResponseAnswer, error) {
	if campaign != campaignID || participation != runID {
		return nil, nil, surveys.ErrNoResponse
	}
	lang := "en"
	return &surveys.Response{ID: runID, ParticipantID: memberID, Status: campaigns.StatusCompleted, StartedAt: f.started, FinishedAt: &f.finished, Language: &lang},
		[]surveys.ResponseAnswer{{QuestionID: "morning_drink", Value: `"tea"`}, {QuestionID: "cups", Value: `3`}}, nil
}

func (f fakeRuns) Campaign(_ context.Context, _ *web.Panel, id string) (*campaigns.Campaign, error) {
	if id != campaignID {
		return nil, web.ErrNotFound
	}
	return &campaigns.Campaign{ID: id, DefaultLanguage: "en", Names: campaigns.Text{"en": "Quick poll", "es": "Encuesta rápida"}}, nil
}

func (f *fixture) QueueTask(_ *gorm.DB, name string, payload []byte) error {
	require.Equal(f.t, TaskDeliver, name)
	var p taskPayload
	require.NoError(f.t, json.Unmarshal(payload, &p))
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queued = append(f.queued, p)
	return nil
}

func (f *fixture) tasks() []taskPayload {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]taskPayload(nil), f.queued...)
}

func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)}
		f.panel = seed.Panel(t, db, "acme", "USD", "en")
		f.recv = newReceiver(t, f.now)
		sealer, err := web.NewSealer(make([]byte, 32))
		require.NoError(t, err)
		runs := fakeRuns{started: f.clock.Add(-5 * time.Minute), finished: f.clock}
		f.m = New(Deps{
			DB: db, Sealer: sealer, Tasks: f, Responses: runs, Catalogue: runs, AllowPrivate: true, Client: f.recv.srv.Client(),
			Panel: func(_ context.Context, id string) (*web.Panel, error) {
				if id != f.panel.ID {
					return nil, web.ErrNotFound
				}
				return f.panel, nil
			},
			Now: f.now,
		})
		fn(t, f)
	})
}

// webhook adds a webhook to the receiver for events and makes the receiver check its secret.
func (f *fixture) webhook(events ...string) *Webhook {
	w, secret, err := f.m.Create(f.ctx, f.panel.ID, Input{URL: f.recv.srv.URL + "/hooks", Events: events, Active: true})
	require.NoError(f.t, err)
	f.recv.mu.Lock()
	f.recv.secret = secret
	f.recv.mu.Unlock()
	return w
}

// finish ends the run with status in a transaction of its own, as the engine's finish hook.
func (f *fixture) finish(status string) {
	require.NoError(f.t, f.db.Transaction(func(tx *gorm.DB) error {
		return f.m.OnFinished(tx, surveys.Finished{Panel: f.panel, CampaignID: campaignID, ParticipationID: runID, ParticipantID: memberID, Status: status, FinishedAt: f.now()})
	}))
}

func (f *fixture) delivery(id string) Delivery {
	var d Delivery
	require.NoError(f.t, f.db.Where("id = ?", id).Take(&d).Error)
	return d
}

func (f *fixture) deliver(p taskPayload) error {
	raw, err := json.Marshal(p)
	require.NoError(f.t, err)
	return f.m.Deliver(f.ctx, raw)
}

func TestAFinishedRunQueuesADeliveryForEachActiveWebhookThatWantsItsEventInTheSameTransaction(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		all := f.webhook(Events...)
		completes := f.webhook(EventCompleted)
		off := f.webhook(Events...)
		_, err := f.m.SetActive(f.ctx, f.panel.ID, off.ID, false)
		require.NoError(t, err)

		f.finish(campaigns.StatusCompleted)
		var rows []Delivery
		require.NoError(t, f.db.Order("webhook_id").Find(&rows).Error)
		require.Len(t, rows, 2, "one per active webhook wanting completes")
		got := map[string]string{}
		for _, d := range rows {
			got[d.WebhookID] = d.Event
			assert.Equal(t, StatusPending, d.Status)
			assert.Equal(t, f.now().Add(RetryWindow), d.RetryUntil.UTC(), "retried for a day")
		}
		assert.Equal(t, map[string]string{all.ID: EventCompleted, completes.ID: EventCompleted}, got)
		assert.Len(t, f.tasks(), 2, "each with its job")

		f.finish(campaigns.StatusCompleted)
		assert.Len(t, f.tasks(), 2, "the same run's event is queued once")

		for _, tc := range []struct {
			status string
			more   int
		}{
			{campaigns.StatusScreened, 1}, {campaigns.StatusQuotaFull, 1}, {campaigns.StatusDisqualified, 0},
		} {
			before := len(f.tasks())
			f.finish(tc.status)
			assert.Equal(t, tc.more, len(f.tasks())-before, tc.status)
		}

		// Rolled back with the run's outcome: no delivery is left behind.
		var n int64
		require.NoError(t, f.db.Model(&Delivery{}).Count(&n).Error)
		err = f.db.Transaction(func(tx *gorm.DB) error {
			require.NoError(t, f.m.OnFinished(tx, surveys.Finished{Panel: f.panel, CampaignID: campaignID, ParticipationID: "another-run", Status: campaigns.StatusCompleted}))
			return assert.AnError
		})
		require.ErrorIs(t, err, assert.AnError)
		var after int64
		require.NoError(t, f.db.Model(&Delivery{}).Count(&after).Error)
		assert.Equal(t, n, after)
	})
}

func TestAPanelWithoutWebhooksCostsAFinishedRunOneQuery(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		var statements int
		require.NoError(t, f.db.Callback().Query().After("gorm:query").Register("count_webhook_queries", func(*gorm.DB) { statements++ }))
		require.NoError(t, f.db.Callback().Create().After("gorm:create").Register("count_webhook_creates", func(*gorm.DB) { statements++ }))
		f.finish(campaigns.StatusCompleted)
		assert.Equal(t, 1, statements)
		assert.Empty(t, f.tasks())
	})
}

func TestADeliveryIsSignedCarriesTheRunAndItsAnswersAndIsMarkedDeliveredOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.webhook(EventCompleted)
		f.finish(campaigns.StatusCompleted)
		require.Len(t, f.tasks(), 1)
		job := f.tasks()[0]

		require.NoError(t, f.deliver(job))
		got := f.recv.received()
		require.Len(t, got, 1)
		assert.Zero(t, f.recv.bad, "every signature holds")
		h, p := got[0].header, got[0].payload
		assert.Equal(t, "application/json", h.Get("Content-Type"))
		assert.Equal(t, UserAgent, h.Get("User-Agent"))
		assert.Equal(t, job.Delivery, h.Get(HeaderEventID))
		assert.Equal(t, EventCompleted, h.Get(HeaderEvent))
		assert.Equal(t, job.Delivery, p.ID)
		assert.Equal(t, EventCompleted, p.Event)
		assert.Equal(t, "2026-11-28T10:00:00Z", p.CreatedAt)
		assert.Equal(t, "acme", p.Panel)
		assert.Equal(t, PayloadCampaign{ID: campaignID, Name: "Quick poll"}, p.Campaign)
		assert.Equal(t, runID, p.Participation.ID)
		assert.Equal(t, memberID, p.Participation.MemberID)
		assert.Equal(t, "completed", p.Participation.Outcome)
		assert.Equal(t, "2026-11-28T09:55:00Z", p.Participation.StartedAt)
		require.NotNil(t, p.Participation.FinishedAt)
		assert.Equal(t, "2026-11-28T10:00:00Z", *p.Participation.FinishedAt)
		require.Len(t, p.Answers, 2)
		assert.Equal(t, PayloadAnswer{QuestionID: "morning_drink", Value: json.RawMessage(`"tea"`)}, p.Answers[0])

		d := f.delivery(job.Delivery)
		assert.Equal(t, StatusDelivered, d.Status)
		assert.Equal(t, 1, d.Attempts)
		require.NotNil(t, d.LastStatus)
		assert.Equal(t, http.StatusOK, *d.LastStatus)
		require.NotNil(t, d.LastLatencyMS)
		assert.GreaterOrEqual(t, *d.LastLatencyMS, 0)
		assert.NotNil(t, d.DeliveredAt)

		require.NoError(t, f.deliver(job), "the job again (a retry after a crash)")
		assert.Len(t, f.recv.received(), 1, "a delivered event is not sent twice")

		// Send again: a new job (seq 2) sends the same event id; the old job does nothing.
		before, after, err := f.m.Resend(f.ctx, f.panel.ID, d.WebhookID, d.ID)
		require.NoError(t, err)
		assert.Equal(t, StatusDelivered, before.Status)
		assert.Equal(t, StatusPending, after.Status)
		require.Len(t, f.tasks(), 2)
		assert.Equal(t, taskPayload{Delivery: d.ID, Seq: 2}, f.tasks()[1])
		require.NoError(t, f.deliver(job))
		assert.Len(t, f.recv.received(), 1, "the superseded job sends nothing")
		require.NoError(t, f.deliver(f.tasks()[1]))
		require.Len(t, f.recv.received(), 2)
		assert.Equal(t, d.ID, f.recv.received()[1].payload.ID, "the same event id")
		assert.Equal(t, 2, f.delivery(d.ID).Attempts)
		assert.Equal(t, StatusDelivered, f.delivery(d.ID).Status)
	})
}

func TestAFailedDeliveryIsRetriedUntilItsDayEndsThenMarkedFailed(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		w := f.webhook(EventCompleted)
		f.finish(campaigns.StatusCompleted)
		job := f.tasks()[0]

		f.recv.answer(http.StatusInternalServerError, http.StatusBadGateway)
		err := f.deliver(job)
		require.Error(t, err, "a 500 is retried by River")
		assert.Contains(t, err.Error(), "HTTP 500")
		d := f.delivery(job.Delivery)
		assert.Equal(t, StatusPending, d.Status)
		assert.Equal(t, 1, d.Attempts)
		assert.Equal(t, http.StatusInternalServerError, *d.LastStatus)
		assert.Equal(t, "HTTP 500", d.LastError)

		// The last attempt that fits in the day: its failure ends the delivery.
		f.setClock(d.RetryUntil.Add(-10 * time.Second))
		require.NoError(t, f.deliver(job))
		d = f.delivery(job.Delivery)
		assert.Equal(t, StatusFailed, d.Status)
		assert.Equal(t, 2, d.Attempts)
		assert.Equal(t, http.StatusBadGateway, *d.LastStatus)
		require.NoError(t, f.deliver(job))
		assert.Len(t, f.recv.received(), 2, "a failed delivery is not sent by its old job")

		// A job that starts after the day has passed sends nothing and fails it.
		_, _, err = f.m.Resend(f.ctx, f.panel.ID, w.ID, d.ID)
		require.NoError(t, err)
		f.setClock(f.now().Add(RetryWindow + time.Hour))
		require.NoError(t, f.deliver(f.tasks()[1]))
		assert.Len(t, f.recv.received(), 2)
		assert.Equal(t, StatusFailed, f.delivery(d.ID).Status)

		// A webhook turned off is sent nothing: its pending delivery fails, to be sent again later.
		_, _, err = f.m.Resend(f.ctx, f.panel.ID, w.ID, d.ID)
		require.NoError(t, err)
		_, err = f.m.SetActive(f.ctx, f.panel.ID, w.ID, false)
		require.NoError(t, err)
		require.NoError(t, f.deliver(f.tasks()[2]))
		assert.Len(t, f.recv.received(), 2)
		d = f.delivery(d.ID)
		assert.Equal(t, StatusFailed, d.Status)
		assert.Equal(t, "the webhook is off", d.LastError)
	})
}

func TestAnUnreachableReceiverIsLoggedWithoutAStatus(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		w := f.webhook(EventCompleted)
		_, err := f.m.Update(f.ctx, f.panel.ID, w.ID, Input{URL: "https://127.0.0.1:1/closed", Events: []string{EventCompleted}, Active: true})
		require.NoError(t, err)
		f.finish(campaigns.StatusCompleted)
		require.Error(t, f.deliver(f.tasks()[0]))
		d := f.delivery(f.tasks()[0].Delivery)
		assert.Equal(t, StatusPending, d.Status)
		assert.Nil(t, d.LastStatus, "no answer")
		assert.NotEmpty(t, d.LastError)
		assert.NotContains(t, d.LastError, "/closed", "the URL's path is not in the log")
	})
}

func TestAWebhookIsOnlyItsPanelsAndItsSecretIsKeptSealed(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		other := seed.Panel(t, f.db, "globex", "GBP", "en")
		w, secret, err := f.m.Create(f.ctx, f.panel.ID, Input{URL: "https://hooks.example.com/a", Events: []string{EventScreened, EventCompleted, EventCompleted}, Active: true})
		require.NoError(t, err)
		assert.Equal(t, "participation.completed participation.screened", w.Events, "in order, each once")
		assert.Regexp(t, `^whsec_[A-Za-z0-9_-]{43}$`, secret)
		var stored Webhook
		require.NoError(t, f.db.Where("id = ?", w.ID).Take(&stored).Error)
		assert.NotContains(t, stored.SecretSealed, secret[len(SecretPrefix):])

		_, err = f.m.Webhook(f.ctx, other.ID, w.ID)
		assert.ErrorIs(t, err, ErrNotFound, "another panel's webhook")
		_, err = f.m.SetActive(f.ctx, other.ID, w.ID, false)
		assert.ErrorIs(t, err, ErrNotFound)
		_, err = f.m.Delete(f.ctx, other.ID, w.ID)
		assert.ErrorIs(t, err, ErrNotFound)

		for _, tc := range []struct {
			name   string
			events []string
		}{{"no event", nil}, {"an unknown event", []string{EventCompleted, "participation.started"}}} {
			_, _, err := f.m.Create(f.ctx, f.panel.ID, Input{URL: "https://hooks.example.com/a", Events: tc.events})
			assert.ErrorIs(t, err, ErrEvents, tc.name)
		}
		for range MaxPerPanel - 1 {
			_, _, err := f.m.Create(f.ctx, f.panel.ID, Input{URL: "https://hooks.example.com/b", Events: Events, Active: true})
			require.NoError(t, err)
		}
		_, _, err = f.m.Create(f.ctx, f.panel.ID, Input{URL: "https://hooks.example.com/c", Events: Events, Active: true})
		assert.ErrorIs(t, err, ErrTooMany)
	})
}

func TestDeliveriesArePagedNewestFirstByKeyset(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		w := f.webhook(Events...)
		var ids []string
		for i := range 5 {
			f.setClock(f.now().Add(time.Duration(i%2) * time.Second)) // pairs share their time: the id breaks the tie
			require.NoError(t, f.db.Transaction(func(tx *gorm.DB) error {
				return f.m.OnFinished(tx, surveys.Finished{Panel: f.panel, CampaignID: campaignID, ParticipationID: "run-" + string(rune('a'+i)), Status: campaigns.StatusCompleted})
			}))
			ids = append(ids, f.tasks()[i].Delivery)
		}
		var seen []string
		var after *Cursor
		for pages := 0; ; pages++ {
			require.Less(t, pages, 5)
			rows, more, err := f.m.Deliveries(f.ctx, f.panel.ID, w.ID, after, 2)
			require.NoError(t, err)
			for _, d := range rows {
				seen = append(seen, d.ID)
			}
			if !more {
				break
			}
			c := Cursor{At: rows[len(rows)-1].CreatedAt, ID: rows[len(rows)-1].ID}
			after, err = ParseCursor(c.String())
			require.NoError(t, err)
		}
		assert.ElementsMatch(t, ids, seen, "every delivery once")
		assert.Len(t, seen, 5)
		_, err := ParseCursor("not-a-cursor")
		assert.ErrorIs(t, err, ErrCursor)
	})
}
