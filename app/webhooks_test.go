package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/webhooks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// hookReceiver is an operator's webhook endpoint over TLS: it checks every delivery's signature
// with the secrets it was given (per path), answers with its script (500 for the first few,
// then 200; or holding a request until released), and counts what it answered 2xx, per event id.
type hookReceiver struct {
	srv *httptest.Server

	mu       sync.Mutex
	secrets  map[string]string // path -> the webhook's secret
	failNext int               // answer this many more requests 500
	hold     chan struct{}     // when set, requests wait for it to close before answering
	held     int               // requests waiting on hold
	bad      []string          // requests whose signature or headers did not hold
	requests map[string]int    // event id -> requests received (any answer)
	accepted map[string]int    // event id -> requests answered 2xx
	payloads map[string]webhooks.Payload
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{secrets: map[string]string{}, requests: map[string]int{}, accepted: map[string]int{}, payloads: map[string]webhooks.Payload{}}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *hookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	secret := r.secrets[req.URL.Path]
	id := req.Header.Get(webhooks.HeaderEventID)
	err := webhooks.Verify(secret, req.Header.Get(webhooks.HeaderSignature), body, time.Now(), webhooks.DefaultTolerance)
	var p webhooks.Payload
	if err == nil {
		err = json.Unmarshal(body, &p)
	}
	if err == nil && (p.ID != id || p.Event != req.Header.Get(webhooks.HeaderEvent) || req.Header.Get("Content-Type") != "application/json" || req.Header.Get("User-Agent") != webhooks.UserAgent) {
		err = fmt.Errorf("headers %v do not match the payload %s", req.Header, body)
	}
	if err != nil {
		r.bad = append(r.bad, fmt.Sprintf("%s: %v", req.URL.Path, err))
		r.mu.Unlock()
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.requests[id]++
	if r.failNext > 0 {
		r.failNext--
		r.mu.Unlock()
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	hold := r.hold
	if hold != nil {
		r.held++
	}
	r.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-req.Context().Done():
			return // the sender gave up: no answer, nothing accepted
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.accepted[id]++
	r.payloads[id] = p
	w.WriteHeader(http.StatusNoContent)
}

// url is the address of one of the receiver's endpoints.
func (r *hookReceiver) url(path string) string { return r.srv.URL + path }

func (r *hookReceiver) trust(path, secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets[path] = secret
}

// snapshot is what the receiver has seen so far.
func (r *hookReceiver) snapshot() (accepted, requests map[string]int, payloads map[string]webhooks.Payload, bad []string, held int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	accepted, requests, payloads = map[string]int{}, map[string]int{}, map[string]webhooks.Payload{}
	for k, v := range r.accepted {
		accepted[k] = v
	}
	for k, v := range r.requests {
		requests[k] = v
	}
	for k, v := range r.payloads {
		payloads[k] = v
	}
	return accepted, requests, payloads, slices.Clone(r.bad), r.held
}

// waitFor polls (bounded) until cond holds of what the receiver has seen.
func (r *hookReceiver) waitFor(t *testing.T, what string, cond func(accepted, requests map[string]int) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		accepted, requests, _, bad, _ := r.snapshot()
		require.Empty(t, bad, "every delivery is signed with its webhook's secret")
		if cond(accepted, requests) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the receiver never saw %s: accepted %v, requests %v", what, accepted, requests)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// webhookEnv is a whole Canvass over db (the demo), working its jobs, whose webhooks are sent
// with a client that trusts the receiver's TLS certificate; adjust changes its config. Its jobs
// start when the test says (startJobs).
func webhookEnv(t *testing.T, db *gorm.DB, r *hookReceiver, adjust func(*Config)) *env {
	t.Helper()
	cfg := testConfig("development")
	cfg.UploadsDir = t.TempDir()
	cfg.JobPoll = 50 * time.Millisecond
	if adjust != nil {
		adjust(&cfg)
	}
	app, err := NewApp(cfg, db, testLogger(t), Options{WorkJobs: true, WebhookClient: r.srv.Client()})
	require.NoError(t, err)
	return &env{t: t, app: app, db: db, cfg: cfg}
}

// webhookDB is a fresh database of the dialect with the demo.
func webhookDB(t *testing.T, d migrations.Dialect) *gorm.DB {
	t.Helper()
	cfg := testConfig("development")
	cfg.UploadsDir = t.TempDir()
	return demoDB(t, d, cfg)
}

// drainWebhooks waits (bounded) until no delivery is pending and no delivery job is left to run.
func (e *env) drainWebhooks(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pending, open int64
		require.NoError(t, e.db.Table("webhook_deliveries").Where("status = ?", webhooks.StatusPending).Count(&pending).Error)
		require.NoError(t, e.db.Raw(`SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'running', 'retryable', 'scheduled', 'pending') AND kind = ?`, jobs.KindTask).Scan(&open).Error)
		if pending == 0 && open == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries pending, %d task jobs open", pending, open)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// delivery is a delivery's row.
func (e *env) delivery(t *testing.T, id string) webhooks.Delivery {
	t.Helper()
	var d webhooks.Delivery
	require.NoError(t, e.db.Where("id = ?", id).Take(&d).Error)
	return d
}

var newSecretRE = regexp.MustCompile(`<code id="new-secret"[^>]*>([^<]+)</code>`)

// addWebhook adds a webhook to the receiver's path through the owner's console page, and gives
// the receiver its secret, shown once on the answer.
func addWebhook(t *testing.T, owner *client, r *hookReceiver, path string, events ...string) string {
	t.Helper()
	form := url.Values{"url": {r.url(path)}, "events": events}
	res := owner.consolePost("/console/panels/demo/webhooks", "/console/panels/demo/webhooks", form)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"), "the secret is on this answer only")
	m := newSecretRE.FindStringSubmatch(res.Body)
	require.NotNil(t, m, "the new webhook's secret is shown")
	r.trust(path, html.UnescapeString(m[1]))
	id := regexp.MustCompile(`href="/console/panels/demo/webhooks/([0-9a-f-]{36})"`).FindStringSubmatch(res.Body)
	require.NotNil(t, id)
	assert.NotContains(t, owner.get("/console/panels/demo/webhooks").Body, m[1], "and never again")
	return id[1]
}

// screenOutOfPetOwners has the demo member say they own no pet: screened out of Pet owners at
// the first question. It returns the campaign's id.
func screenOutOfPetOwners(t *testing.T, e *env) string {
	t.Helper()
	pets := e.campaignID("demo", "Pet owners")
	m := e.member()
	api := "/api/v1/demo/campaigns/" + pets
	res := m.get(api + "/go")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Equal(t, http.StatusOK, m.postJSON(api+"/question/own_pet", `{"answer":"no"}`).StatusCode)
	return pets
}

func ownerClient(t *testing.T, e *env) *client {
	t.Helper()
	c := e.client(consoleHost)
	require.Equal(t, http.StatusSeeOther, c.consoleLogin("owner@ops.demo.test", "console-owner-1", "").StatusCode)
	return c
}

func TestAWebhookReceivesEachFinishedParticipationOnceSignedWithItsAnswers(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			r := newHookReceiver(t)
			e := webhookEnv(t, webhookDB(t, d), r, nil)
			startJobs(t, e.app)
			owner := ownerClient(t, e)
			assert.Contains(t, owner.get("/console/").Body, `href="/console/panels/demo/webhooks"`, "the home page links the panel's webhooks")
			all := addWebhook(t, owner, r, "/all", webhooks.Events...)
			addWebhook(t, owner, r, "/completes", webhooks.EventCompleted)

			poll := answerQuickPoll(t, e)
			pets := screenOutOfPetOwners(t, e)
			r.waitFor(t, "three events", func(accepted, _ map[string]int) bool { return len(accepted) == 3 })
			e.drainWebhooks(t)

			accepted, requests, payloads, _, _ := r.snapshot()
			byEvent := map[string][]webhooks.Payload{}
			for id, n := range accepted {
				assert.Equal(t, 1, n, "event %s is accepted once", id)
				assert.Equal(t, 1, requests[id], "and sent once")
				byEvent[payloads[id].Event] = append(byEvent[payloads[id].Event], payloads[id])
			}
			require.Len(t, byEvent[webhooks.EventCompleted], 2, "the complete, to both webhooks")
			require.Len(t, byEvent[webhooks.EventScreened], 1, "the screen-out, to the one that wants it")
			done, out := byEvent[webhooks.EventCompleted][0], byEvent[webhooks.EventScreened][0]
			assert.NotEqual(t, byEvent[webhooks.EventCompleted][0].ID, byEvent[webhooks.EventCompleted][1].ID, "an event id per webhook")
			assert.Equal(t, "demo", done.Panel)
			assert.Equal(t, webhooks.PayloadCampaign{ID: poll, Name: "Quick poll"}, done.Campaign)
			assert.Equal(t, "completed", done.Participation.Outcome)
			assert.NotNil(t, done.Participation.FinishedAt)
			require.Len(t, done.Answers, 1)
			assert.Equal(t, "morning_drink", done.Answers[0].QuestionID)
			assert.JSONEq(t, `"tea"`, string(done.Answers[0].Value))
			_, err := time.Parse(time.RFC3339, done.CreatedAt)
			assert.NoError(t, err)
			assert.Equal(t, pets, out.Campaign.ID)
			assert.Equal(t, "screened", out.Participation.Outcome)
			assert.Equal(t, done.Participation.MemberID, out.Participation.MemberID, "the demo member's two runs")
			assert.NotEqual(t, done.Participation.ID, out.Participation.ID)
			require.Len(t, out.Answers, 1)
			assert.JSONEq(t, `"no"`, string(out.Answers[0].Value))

			// The console logs each delivery: status, attempts, HTTP status, latency.
			page := owner.get("/console/panels/demo/webhooks/" + all)
			require.Equal(t, http.StatusOK, page.StatusCode)
			assert.Len(t, regexp.MustCompile(`<tr data-delivery="[^"]+" data-status="delivered">`).FindAllString(page.Body, -1), 2)
			assert.Regexp(t, `<td class="wh-num">1</td><td class="wh-num">204</td><td class="wh-num">\d+ ms</td>`, page.Body)
			list := owner.get("/console/panels/demo/webhooks")
			assert.Contains(t, list.Body, `data-status="delivered"`, "the list shows each webhook's last delivery")

			// The API lists the same, and so do its deliveries.
			token := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionManageWebhooks)
			api := e.client(consoleHost)
			hooks := decodeJSON[struct {
				Webhooks []webhooks.WebhookJSON `json:"webhooks"`
			}](t, api.consoleCall(http.MethodGet, "/console/api/panels/demo/webhooks", token, ""), http.StatusOK)
			require.Len(t, hooks.Webhooks, 2)
			require.NotNil(t, hooks.Webhooks[0].LastDelivery)
			assert.Equal(t, webhooks.StatusDelivered, hooks.Webhooks[0].LastDelivery.Status)
			deliveries := decodeJSON[struct {
				Deliveries []webhooks.DeliveryJSON `json:"deliveries"`
				Next       *string                 `json:"next"`
			}](t, api.consoleCall(http.MethodGet, "/console/api/panels/demo/webhooks/"+all+"/deliveries", token, ""), http.StatusOK)
			require.Len(t, deliveries.Deliveries, 2)
			assert.Nil(t, deliveries.Next)
			assert.Equal(t, http.StatusNoContent, *deliveries.Deliveries[0].LastStatus)
		})
	}
}

func TestAWebhookThatAnswersAnErrorGetsTheEventAgainLaterAndOnRequest(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			r := newHookReceiver(t)
			e := webhookEnv(t, webhookDB(t, d), r, nil)
			startJobs(t, e.app)
			owner := ownerClient(t, e)
			hook := addWebhook(t, owner, r, "/flaky", webhooks.EventCompleted)
			r.mu.Lock()
			r.failNext = 1
			r.mu.Unlock()

			answerQuickPoll(t, e)
			r.waitFor(t, "the first attempt", func(_, requests map[string]int) bool { return len(requests) == 1 })
			// River keeps the job for its retry, 30 s on: the test brings it forward rather than wait.
			var job jobs.Job
			deadline := time.Now().Add(20 * time.Second)
			for job.ID == 0 {
				list, err := e.app.Jobs.List(ctx, "retryable", 20)
				require.NoError(t, err)
				for _, j := range list {
					if j.Kind == jobs.KindTask && j.Event == webhooks.TaskDeliver {
						job = j
					}
				}
				require.True(t, time.Now().Before(deadline), "the failed delivery waits for its retry")
				time.Sleep(20 * time.Millisecond)
			}
			assert.Equal(t, webhooks.TaskAttempts, job.MaxAttempts)
			assert.WithinDuration(t, time.Now().Add(webhooks.RetryAfter(1)), job.ScheduledAt, 10*time.Second, "the first retry comes after 30 s")
			var id string
			require.NoError(t, e.db.Table("webhook_deliveries").Select("id").Where("webhook_id = ?", hook).Scan(&id).Error)
			first := e.delivery(t, id)
			assert.Equal(t, webhooks.StatusPending, first.Status)
			assert.Equal(t, http.StatusInternalServerError, *first.LastStatus)
			assert.Contains(t, owner.get("/console/panels/demo/webhooks/"+hook).Body, "HTTP 500", "the console shows why")

			_, err := e.app.Jobs.Retry(ctx, job.ID)
			require.NoError(t, err)
			r.waitFor(t, "the event again", func(accepted, _ map[string]int) bool { return accepted[id] == 1 })
			e.drainWebhooks(t)
			_, requests, _, _, _ := r.snapshot()
			assert.Equal(t, 2, requests[id], "sent twice: the 500, then the one accepted")
			again := e.delivery(t, id)
			assert.Equal(t, webhooks.StatusDelivered, again.Status)
			assert.Equal(t, 2, again.Attempts)

			// Send again (an operator's button): the same event id once more, audited.
			res := owner.consolePost("/console/panels/demo/webhooks/"+hook, "/console/panels/demo/webhooks/"+hook+"/deliveries/"+id+"/resend", url.Values{})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
			assert.Equal(t, "/console/panels/demo/webhooks/"+hook+"?done=resent", res.Header.Get("Location"))
			r.waitFor(t, "the event sent again", func(accepted, _ map[string]int) bool { return accepted[id] == 2 })
			e.drainWebhooks(t)
			assert.EqualValues(t, 1, consoleAudits(t, e, "webhook.resend", id))
			assert.Equal(t, 3, e.delivery(t, id).Attempts)
			assert.Contains(t, owner.get(res.Header.Get("Location")).Body, "queued to be sent again")
		})
	}
}

func TestEveryEventReachesTheReceiverExactlyOnceThroughAServerRestart(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			r := newHookReceiver(t)
			db := webhookDB(t, d)
			// The first server works one job at a time, so that most deliveries are left to the second.
			one := webhookEnv(t, db, r, func(cfg *Config) { cfg.JobWorkers = 1 })
			owner := ownerClient(t, one)
			for i := range 4 {
				addWebhook(t, owner, r, fmt.Sprintf("/hook-%d", i), webhooks.Events...)
			}
			const events = 8 // two runs, four webhooks
			answerQuickPoll(t, one)
			screenOutOfPetOwners(t, one)
			var queued int64
			require.NoError(t, db.Table("webhook_deliveries").Count(&queued).Error)
			require.EqualValues(t, events, queued, "every event is queued with its run")

			// The receiver takes two, then holds the next while the first server stops: the
			// delivery in hand finishes, and the first server works no more.
			hold := make(chan struct{})
			startJobs(t, one.app) // stopped below; stopping again at the end does nothing
			r.waitFor(t, "two events", func(accepted, _ map[string]int) bool { return len(accepted) >= 2 })
			r.mu.Lock()
			r.hold = hold
			r.mu.Unlock()
			deadline := time.Now().Add(30 * time.Second)
			for {
				_, _, _, _, held := r.snapshot()
				if held > 0 {
					break
				}
				require.True(t, time.Now().Before(deadline), "a delivery is in hand")
				time.Sleep(10 * time.Millisecond)
			}
			stopped := make(chan error, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				stopped <- one.app.Jobs.Stop(ctx)
			}()
			time.Sleep(300 * time.Millisecond) // the stop has begun: no job is fetched any more
			close(hold)
			require.NoError(t, <-stopped)
			accepted, _, _, _, _ := r.snapshot()
			served := len(accepted)
			require.Less(t, served, events, "the first server left deliveries to the second")
			time.Sleep(300 * time.Millisecond)
			accepted, _, _, _, _ = r.snapshot()
			assert.Len(t, accepted, served, "a stopped server sends nothing more")

			// The second server, on the same database, sends the rest.
			two := webhookEnv(t, db, r, nil)
			startJobs(t, two.app)
			r.waitFor(t, "every event", func(accepted, _ map[string]int) bool { return len(accepted) == events })
			two.drainWebhooks(t)
			time.Sleep(200 * time.Millisecond)
			accepted, requests, _, bad, _ := r.snapshot()
			assert.Empty(t, bad)
			assert.Len(t, accepted, events)
			for id, n := range accepted {
				assert.Equal(t, 1, n, "event %s accepted exactly once", id)
				assert.Equal(t, 1, requests[id], "and sent exactly once")
			}
			var delivered int64
			require.NoError(t, db.Table("webhook_deliveries").Where("status = ? AND attempts = 1", webhooks.StatusDelivered).Count(&delivered).Error)
			assert.EqualValues(t, events, delivered)
			t.Logf("%s: %d events sent by the first server, %d by the second", d, served, events-served)
		})
	}
}

func TestAnOwnerAddsTurnsOffChangesAndDeletesWebhooksEachChangeAudited(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		owner := ownerClient(t, e)
		base := "/console/panels/demo/webhooks"
		empty := owner.get(base)
		require.Equal(t, http.StatusOK, empty.StatusCode)
		assert.Contains(t, empty.Body, `id="webhooks-none"`)

		for _, tc := range []struct {
			name, url string
			events    []string
			message   string
		}{
			{"plain http", "http://hooks.example.com/in", webhooks.Events, "The address must start with https://."},
			{"not a URL", "hooks.example.com/in", webhooks.Events, "Enter a whole address"},
			{"no event", "https://hooks.example.com/in", nil, "Choose at least one event from the list."},
			{"an unknown event", "https://hooks.example.com/in", []string{"participation.started"}, "Choose at least one event from the list."},
		} {
			t.Run("a refused form: "+tc.name, func(t *testing.T) {
				res := owner.consolePost(base, base, url.Values{"url": {tc.url}, "events": tc.events})
				assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
				assert.Contains(t, html.UnescapeString(res.Body), tc.message)
				assert.NotContains(t, res.Body, `id="new-secret"`)
			})
		}
		var n int64
		require.NoError(t, e.db.Table("webhooks").Count(&n).Error)
		assert.Zero(t, n, "a refused form adds nothing")

		// The API: created with its secret once, changed, listed, deleted.
		token := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionManageWebhooks)
		api := e.client(consoleHost)
		created := decodeJSON[struct {
			Webhook webhooks.WebhookJSON `json:"webhook"`
			Secret  string               `json:"secret"`
		}](t, api.consoleCall(http.MethodPost, "/console/api"+base[len("/console"):], token, `{"url":"https://hooks.example.com/api","events":["participation.screened"]}`), http.StatusCreated)
		assert.True(t, created.Webhook.Active)
		assert.Regexp(t, `^whsec_`, created.Secret)
		assert.Nil(t, created.Webhook.LastDelivery)
		one := "/console/api/panels/demo/webhooks/" + created.Webhook.ID
		assert.NotContains(t, api.consoleCall(http.MethodGet, one, token, "").Body, created.Secret, "the secret is given once")
		changed := decodeJSON[struct {
			Webhook webhooks.WebhookJSON `json:"webhook"`
			Changed bool                 `json:"changed"`
		}](t, api.consoleCall(http.MethodPut, one, token, `{"url":"https://hooks.example.com/v2","events":["participation.completed","participation.screened"],"active":false}`), http.StatusOK)
		assert.True(t, changed.Changed)
		assert.False(t, changed.Webhook.Active)
		assert.Equal(t, []string{webhooks.EventCompleted, webhooks.EventScreened}, changed.Webhook.Events)
		bad := api.consoleCall(http.MethodPut, one, token, `{"url":"http://hooks.example.com/v2","events":[]}`)
		assert.Equal(t, http.StatusBadRequest, bad.StatusCode)
		assert.Contains(t, bad.Body, `"field":"active"`)
		assert.Equal(t, http.StatusNoContent, api.consoleCall(http.MethodDelete, one, token, "").StatusCode)
		assert.Equal(t, http.StatusNotFound, api.consoleCall(http.MethodGet, one, token, "").StatusCode)

		// The pages: add, turn off (twice: nothing more changes), on, delete.
		form := url.Values{"url": {"https://hooks.example.com/page"}, "events": {webhooks.EventCompleted}}
		added := owner.consolePost(base, base, form)
		require.Equal(t, http.StatusOK, added.StatusCode)
		id := regexp.MustCompile(`href="/console/panels/demo/webhooks/([0-9a-f-]{36})"`).FindStringSubmatch(added.Body)[1]
		page := base + "/" + id
		for _, step := range []struct{ action, notice string }{
			{"disable", "The webhook is off"}, {"disable", "Nothing changed: the webhook was off already."},
			{"enable", "The webhook is on."},
		} {
			res := owner.consolePost(page, page+"/"+step.action, url.Values{})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, step.action)
			assert.Contains(t, owner.get(res.Header.Get("Location")).Body, step.notice, step.action)
		}
		res := owner.consolePost(page, page+"/delete", url.Values{})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Contains(t, owner.get(res.Header.Get("Location")).Body, "The webhook and its deliveries are deleted.")
		assert.Equal(t, http.StatusNotFound, owner.get(page).StatusCode)

		for action, want := range map[string]int64{"webhook.create": 2, "webhook.update": 1, "webhook.disable": 1, "webhook.enable": 1, "webhook.delete": 2} {
			var got int64
			require.NoError(t, e.db.Table("console_audit").Where("action = ?", action).Count(&got).Error)
			assert.Equal(t, want, got, action)
		}
		var secrets int64
		require.NoError(t, e.db.Table("console_audit").Where("after_json LIKE ? OR before_json LIKE ?", "%whsec_%", "%whsec_%").Count(&secrets).Error)
		assert.Zero(t, secrets, "no secret in the audit log")
	})
}
