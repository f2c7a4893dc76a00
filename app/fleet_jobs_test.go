package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fleet run (issue 22 part 3): three `canvass serve` processes on one PostgreSQL database
// behind a round-robin proxy, members' journeys across them, one process killed (SIGKILL)
// mid-run and started again, then every acknowledged request checked against the database.
const (
	fleetProcesses = 3
	fleetWorkers   = 6 // journeys at once
	fleetJourneys  = 18
	fleetKillAfter = 6 // journeys finished before the kill
)

// fleetProcess is one `canvass serve` that can be killed and started again on its address.
type fleetProcess struct {
	addr string
	env  []string
	bin  string
	log  *os.File
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit, once done is closed
}

func (p *fleetProcess) start() error {
	p.cmd = exec.Command(p.bin, "serve")
	p.cmd.Env = p.env
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		return err
	}
	p.done = make(chan struct{})
	go func(p *fleetProcess, cmd *exec.Cmd, done chan struct{}) { p.err = cmd.Wait(); close(done) }(p, p.cmd, p.done)
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get("http://" + p.addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return fmt.Errorf("canvass on %s exited at start: %v", p.addr, p.err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("canvass on %s did not answer within 60 s: %v", p.addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends sig and waits for the exit, at most within.
func (p *fleetProcess) stop(sig os.Signal, within time.Duration) (error, bool) {
	select {
	case <-p.done:
		return p.err, true // exited already
	default:
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return p.err, true
	case <-time.After(within):
		_ = p.cmd.Process.Kill()
		<-p.done
		return p.err, false
	}
}

// fleetCounts are the run's figures.
type fleetCounts struct {
	requests, acknowledged, retried atomic.Int64
}

// fleetClient sends a journey's requests through the proxy as one client address, retrying
// a request the proxy could not deliver (the process behind it died): the same request, with
// the same Idempotency-Key.
type fleetClient struct {
	proxy, ip, token string
	counts           *fleetCounts
}

func (c *fleetClient) call(method, path, body string, header map[string]string) (int, string) {
	for attempt := 0; ; attempt++ {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, _ := http.NewRequest(method, c.proxy+path, rd)
		req.Host = "localhost"
		req.Header.Set("X-Forwarded-For", c.ip)
		req.Header.Set("Content-Type", "application/json")
		if c.token != "" {
			req.Header.Set("Pp-Token", c.token)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		c.counts.requests.Add(1)
		res, err := fleetHTTP.Do(req)
		status, text := 0, ""
		if err == nil {
			data, _ := io.ReadAll(res.Body)
			res.Body.Close()
			status, text = res.StatusCode, string(data)
		}
		if (err != nil || status == http.StatusBadGateway) && attempt < 40 {
			c.counts.retried.Add(1)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if status >= 200 && status < 300 {
			c.counts.acknowledged.Add(1)
		}
		return status, text
	}
}

// fleetHTTP bounds each request: a process that hangs fails the run instead of holding it.
var fleetHTTP = &http.Client{Timeout: 30 * time.Second}

// journeyResult is what the server acknowledged (2xx) to one journey.
type journeyResult struct {
	email              string
	joined, completed  bool
	entered, redeemed  bool
	forgot             int // acknowledged password-reset requests
	redeemKey, entryTx string
}

func TestThreeProcessesOnOnePostgreSQLServeEveryJourneyOnceThroughAKill(t *testing.T) {
	for _, d := range dbtest.Dialects(t) {
		if d != migrations.Postgres {
			continue
		}
		t.Run(string(d), func(t *testing.T) { fleetRun(t) })
	}
}

func fleetRun(t *testing.T) {
	ctx := context.Background()
	dbURL := dbtest.PostgresURL(t)
	db, err := migrations.Open(dbURL)
	require.NoError(t, err)
	t.Cleanup(func() { closeDB(db) })
	require.NoError(t, migrations.Up(ctx, db, nil))
	cfg := testConfig("staging")
	setup, err := NewApp(cfg, db, testLogger(t), Options{}) // the test's own hands on the database
	require.NoError(t, err)
	require.NoError(t, LoadDemo(ctx, setup))
	e := &env{t: t, app: setup, db: db, cfg: cfg}
	panel, err := setup.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	compCampaign := e.campaignID("demo", "Summer travel prize draw")
	compID := campaigns.CompetitionID(compCampaign)
	smtp := mailertest.Start(t)

	bin := filepath.Join(t.TempDir(), "canvass")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	procs := make([]*fleetProcess, fleetProcesses)
	backends := make([]*url.URL, fleetProcesses)
	for i := range procs {
		addr := freeAddr(t)
		logf, err := os.Create(filepath.Join(t.TempDir(), fmt.Sprintf("canvass-%d.log", i)))
		require.NoError(t, err)
		procs[i] = &fleetProcess{addr: addr, bin: bin, log: logf, env: append(os.Environ(), "CANVASS_ENV=staging", "CANVASS_SECRET="+cfg.Secret,
			"CANVASS_DATABASE_URL="+dbURL, "CANVASS_ADDR="+addr, "CANVASS_DEMO=", "CANVASS_SMTP_URL="+smtp.URL(),
			"CANVASS_TRUSTED_PROXIES=127.0.0.1", "CANVASS_JOB_POLL=50ms", "CANVASS_METRICS_ADDR=")}
		require.NoError(t, procs[i].start())
		backends[i], _ = url.Parse("http://" + addr)
	}
	t.Cleanup(func() {
		for _, p := range procs {
			_, _ = p.stop(syscall.SIGKILL, 5*time.Second)
			if t.Failed() {
				data, _ := os.ReadFile(p.log.Name())
				t.Logf("process on %s (last 3 KB): %s", p.addr, tail(string(data), 3072))
			}
			p.log.Close()
		}
	})

	// The proxy: each request to the next process in turn.
	var next atomic.Int64
	proxy := &httputil.ReverseProxy{Director: func(r *http.Request) {
		b := backends[int(next.Add(1))%len(backends)]
		r.URL.Scheme, r.URL.Host = b.Scheme, b.Host
	}, ErrorLog: nil, ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) { w.WriteHeader(http.StatusBadGateway) }}
	ln := freeAddr(t)
	srv := &http.Server{Addr: ln, Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.ListenAndServe() }()
	t.Cleanup(func() { _ = srv.Close() })
	waitUp(t, "http://"+ln+"/healthz")
	proxyURL := "http://" + ln

	counts := &fleetCounts{}
	results := make([]journeyResult, fleetJourneys)
	var finished atomic.Int64
	killed := make(chan error, 1)
	var kills atomic.Int64
	go func() {
		for finished.Load() < fleetKillAfter {
			time.Sleep(20 * time.Millisecond)
		}
		p := procs[1]
		_, _ = p.stop(syscall.SIGKILL, 5*time.Second)
		kills.Add(1)
		t.Logf("killed the process on %s after %d journeys; starting it again", p.addr, finished.Load())
		time.Sleep(300 * time.Millisecond)
		killed <- p.start()
	}()

	journey := func(i int) journeyResult {
		r := journeyResult{email: fmt.Sprintf("fleet%02d@demo.test", i)}
		c := &fleetClient{proxy: proxyURL, ip: fmt.Sprintf("198.51.100.%d", i+1), counts: counts}
		// Join.
		status, body := c.call(http.MethodPost, "/ah/api/v2/user/register", fmt.Sprintf(`{"email":%q,"password":"fleet-password-1","acceptedTermsConditions":true}`, r.email), nil)
		if status != http.StatusCreated {
			// Its first attempt may have joined before the process died: sign in instead.
			status, body = c.call(http.MethodPost, "/ah/api/v2/user/login", fmt.Sprintf(`{"email":%q,"password":"fleet-password-1"}`, r.email), nil)
			if status != http.StatusOK {
				return r
			}
		}
		r.joined = true
		var tok struct {
			PPToken string `json:"ppToken"`
		}
		_ = json.Unmarshal([]byte(body), &tok)
		c.token = tok.PPToken
		// The welcome campaign done, a balance and a verified mobile: the test's own hands.
		pid, err := setup.Accounts.Service().ParticipantByEmail(ctx, panel, r.email)
		if err != nil {
			return r
		}
		_ = setup.Accounts.Service().MarkWelcomeCompleted(ctx, pid)
		_, _, _ = setup.Wallet.Credit(ctx, wallet.Movement{Panel: panel, ParticipantID: pid, Amount: 2500, Currency: panel.CurrencyCode,
			Origin: wallet.OriginManual, Key: "fleet-seed", Title: "Fleet seed", Reason: "fleet run", Operator: "test"})
		_, _ = setup.Mobile.Service().SetVerified(ctx, panel, pid, fmt.Sprintf("+1202555%04d", i), time.Now().AddDate(0, 0, -30))
		// A password reset: its mail is a job.
		if status, _ := c.call(http.MethodPost, "/ah/api/v2/user/forgot-password", fmt.Sprintf(`{"email":%q}`, r.email), nil); status == http.StatusOK {
			r.forgot++
		}
		// Answer the competition campaign to completion, resuming from /go after a refusal.
		base := "/api/v1/demo/campaigns/" + compCampaign
		for step := 0; step < 20 && !r.completed; step++ {
			status, body := c.call(http.MethodGet, base+"/go", "", nil)
			for status == http.StatusOK && step < 20 {
				step++
				var g competitionGo
				if json.Unmarshal([]byte(body), &g) != nil {
					break
				}
				if g.CampaignStatus == "completed" {
					r.completed = true
					break
				}
				if g.Question == nil {
					break
				}
				status, body = c.call(http.MethodPost, base+"/question/"+g.Question.ID, `{"answer":`+competitionAnswers[g.Question.ID]+`}`, nil)
			}
		}
		if !r.completed {
			return r
		}
		// Enter the draw.
		if status, _ := c.call(http.MethodPost, base+"/enter-competition/"+compID, "", nil); status == http.StatusOK {
			r.entered = true
		}
		// Redeem, with one Idempotency-Key for every attempt.
		r.redeemKey = uuid.NewString()
		if status, _ := c.call(http.MethodPost, "/api/v3/redemptions/redeem", `{"redemptionId":"amazon-voucher","amount":"10.00"}`,
			map[string]string{"Idempotency-Key": r.redeemKey}); status == http.StatusCreated {
			r.redeemed = true
		}
		return r
	}

	work := make(chan int)
	var wg sync.WaitGroup
	for range fleetWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = journey(i)
				finished.Add(1)
			}
		}()
	}
	for i := range fleetJourneys {
		work <- i
	}
	close(work)
	wg.Wait()
	require.NoError(t, <-killed, "the killed process starts again")
	t.Logf("journeys done: %d requests so far", counts.requests.Load())

	// Login limits hold across processes: failures through the proxy, refused by each process.
	limited := &fleetClient{proxy: proxyURL, ip: "203.0.113.9", counts: counts}
	for range 6 {
		limited.call(http.MethodPost, "/ah/api/v2/user/login", `{"email":"fleet00@demo.test","password":"wrong-password"}`, nil)
	}
	limitedEverywhere := 0
	for _, p := range procs {
		direct := &fleetClient{proxy: "http://" + p.addr, ip: "203.0.113.9", counts: counts}
		if status, _ := direct.call(http.MethodPost, "/ah/api/v2/user/login", `{"email":"fleet00@demo.test","password":"fleet-password-1"}`, nil); status == http.StatusTooManyRequests {
			limitedEverywhere++
		}
	}
	// An Idempotency-Key holds across processes: one redeem sent to two of them is one redemption.
	var sameAnswer bool
	{
		one := &fleetClient{proxy: "http://" + procs[0].addr, ip: "203.0.113.10", counts: counts}
		two := &fleetClient{proxy: "http://" + procs[2].addr, ip: "203.0.113.10", counts: counts}
		_, body := one.call(http.MethodPost, "/ah/api/v2/user/login", `{"email":"fleet01@demo.test","password":"fleet-password-1"}`, nil)
		var tok struct {
			PPToken string `json:"ppToken"`
		}
		_ = json.Unmarshal([]byte(body), &tok)
		one.token, two.token = tok.PPToken, tok.PPToken
		key := uuid.NewString()
		s1, b1 := one.call(http.MethodPost, "/api/v3/redemptions/redeem", `{"redemptionId":"amazon-voucher","amount":"10.00"}`, map[string]string{"Idempotency-Key": key})
		s2, b2 := two.call(http.MethodPost, "/api/v3/redemptions/redeem", `{"redemptionId":"amazon-voucher","amount":"10.00"}`, map[string]string{"Idempotency-Key": key})
		var r1, r2 struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal([]byte(b1), &r1)
		_ = json.Unmarshal([]byte(b2), &r2)
		// The first is a 201; its replay on the other process a 200 with the same redemption.
		sameAnswer = s1 == http.StatusCreated && s2 == http.StatusOK && r1.ID != "" && r1.ID == r2.ID
		var n int64
		require.NoError(t, db.Raw(`SELECT COUNT(*) FROM redemptions WHERE idempotency_key = ?`, key).Scan(&n).Error)
		assert.Equal(t, int64(1), n, "one redemption for the key sent to two processes")
	}

	// Every queued mail goes out: wait (bounded) for the queue to empty.
	deadline := time.Now().Add(60 * time.Second)
	for {
		var open int64
		require.NoError(t, db.Raw(`SELECT COUNT(*) FROM river_job WHERE kind = ? AND state NOT IN ('completed', 'discarded', 'cancelled')`, jobs.KindMail).Scan(&open).Error)
		if open == 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "%d mail jobs never finished", open)
		time.Sleep(50 * time.Millisecond)
	}

	// SIGTERM drains: requests in flight to a process are answered, and it exits within the drain.
	drainOK, drained := 0, 0
	{
		p := procs[0]
		// The proxy's and the clients' idle keep-alive connections closed first: a process
		// drains the connections it has, and a load balancer stops sending before SIGTERM.
		backends[0] = backends[2]
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		fleetHTTP.CloseIdleConnections()
		burst := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
		var inflight sync.WaitGroup
		var answered, failed atomic.Int64
		direct := &fleetClient{proxy: "http://" + p.addr, ip: "203.0.113.11", counts: counts}
		for range 20 {
			inflight.Add(1)
			go func() {
				defer inflight.Done()
				req, _ := http.NewRequest(http.MethodGet, direct.proxy+"/login", nil)
				req.Host = "localhost"
				res, err := burst.Do(req)
				if err != nil {
					return // refused after the listener closed: never accepted, nothing to drain
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					answered.Add(1)
				} else {
					failed.Add(1)
				}
			}()
		}
		time.Sleep(5 * time.Millisecond)
		exitErr, inTime := p.stop(syscall.SIGTERM, shutdownDrain+5*time.Second)
		inflight.Wait()
		assert.True(t, inTime, "SIGTERM: the process exits within the drain (%s)", shutdownDrain)
		assert.NoError(t, exitErr, "and exits cleanly")
		assert.Zero(t, failed.Load(), "every accepted request was answered")
		drainOK, drained = int(answered.Load()), 20
		var running int64
		require.NoError(t, db.Raw(`SELECT COUNT(*) FROM river_job WHERE state = 'running' AND attempted_by[array_length(attempted_by, 1)] = ?`, jobs.DefaultID(p.addr)).Scan(&running).Error)
		assert.Zero(t, running, "its jobs finished or were handed back")
	}

	// Afterwards: each acknowledged request is in the database exactly once.
	var joined, completed, entered, redeemed, forgot, doubled int
	for _, r := range results {
		var holders int64
		require.NoError(t, db.Raw(`SELECT COUNT(*) FROM account_holders WHERE email = ?`, r.email).Scan(&holders).Error)
		if r.joined {
			joined++
			assert.Equal(t, int64(1), holders, "%s joined once", r.email)
		}
		pid, _ := setup.Accounts.Service().ParticipantByEmail(ctx, panel, r.email)
		if r.completed {
			completed++
			var credits int64
			require.NoError(t, db.Raw(`SELECT COUNT(*) FROM ledger_entries WHERE participant_id = ? AND natural_key = ?`, pid, wallet.CampaignKey(compCampaign)).Scan(&credits).Error)
			assert.Equal(t, int64(1), credits, "%s: one completion credit", r.email)
			var parts int64
			require.NoError(t, db.Raw(`SELECT COUNT(*) FROM participations WHERE participant_id = ? AND campaign_id = ?`, pid, compCampaign).Scan(&parts).Error)
			assert.Equal(t, int64(1), parts, "%s: one participation", r.email)
		}
		if r.entered {
			entered++
			var entries int64
			require.NoError(t, db.Raw(`SELECT COUNT(*) FROM ledger_entries WHERE participant_id = ? AND natural_key = ?`, pid, competitions.EntryKey(compID)).Scan(&entries).Error)
			assert.Equal(t, int64(1), entries, "%s: one draw entry", r.email)
		}
		if r.redeemed {
			redeemed++
			var n int64
			require.NoError(t, db.Raw(`SELECT COUNT(*) FROM redemptions WHERE participant_id = ? AND idempotency_key = ?`, pid, r.redeemKey).Scan(&n).Error)
			assert.Equal(t, int64(1), n, "%s: one redemption", r.email)
		}
		// Mail: one per reset token (each token's event), none lost, none doubled.
		forgot += r.forgot
		var tokens int64
		require.NoError(t, db.Raw(`SELECT COUNT(*) FROM account_tokens t JOIN account_holders a ON a.id = t.account_holder_id WHERE a.email = ? AND t.purpose = ?`, r.email, accounts.PurposePasswordReset).Scan(&tokens).Error)
		mails := 0
		for _, m := range smtp.Messages() {
			if len(m.To) == 1 && strings.EqualFold(m.To[0], r.email) {
				mails++
			}
		}
		assert.GreaterOrEqual(t, mails, int(tokens), "%s: no reset mail lost", r.email)
		assert.GreaterOrEqual(t, mails, r.forgot, "%s: a mail for every acknowledged reset", r.email)
		doubled += max(mails-int(tokens), 0)
	}
	bad, err := setup.Wallet.Reconcile(ctx, "")
	require.NoError(t, err)
	assert.Empty(t, bad, "ledger reconcile is clean")
	var mailJobs, delivered, discarded int64
	require.NoError(t, db.Raw(`SELECT COUNT(*) FROM river_job WHERE kind = ? AND state = 'completed'`, jobs.KindMail).Scan(&mailJobs).Error)
	require.NoError(t, db.Raw(`SELECT COUNT(*) FROM river_job WHERE kind = ? AND state IN ('discarded', 'cancelled')`, jobs.KindMail).Scan(&discarded).Error)
	require.NoError(t, db.Raw(`SELECT COUNT(*) FROM job_deliveries WHERE kind = ?`, jobs.KindMail).Scan(&delivered).Error)
	assert.Zero(t, discarded, "no mail job failed for good")
	assert.Equal(t, mailJobs, delivered, "every completed mail job has its sent-marker")
	// A mail sent twice can only be one whose send the SIGKILL cut between the SMTP server's
	// acceptance and the commit of its sent-marker: its job was taken back and ran again.
	var rescued int64
	require.NoError(t, db.Raw(`SELECT COUNT(*) FROM river_job WHERE kind = ? AND attempt > 1`, jobs.KindMail).Scan(&rescued).Error)
	assert.LessOrEqual(t, int64(doubled), rescued, "a mail doubled only by a send the kill interrupted")
	assert.Equal(t, int(delivered)+doubled, len(smtp.Messages()), "the SMTP server got one mail per delivered job, besides those")
	assert.Equal(t, fleetProcesses, limitedEverywhere, "the login limit hit through the proxy holds on every process")
	assert.True(t, sameAnswer, "an Idempotency-Key answers the same on another process")
	assert.Equal(t, fleetJourneys, joined, "every journey joined")

	var buf bytes.Buffer
	fmt.Fprintf(&buf, "fleet run: %d processes, %d journeys (%d at once), %d requests (%d retried after the proxy found no process), %d acknowledged (2xx), %d SIGKILL + restart\n",
		fleetProcesses, fleetJourneys, fleetWorkers, counts.requests.Load(), counts.retried.Load(), counts.acknowledged.Load(), kills.Load())
	fmt.Fprintf(&buf, "checked: %d joined once, %d completions with one participation and one credit, %d draw entries once, %d redemptions once, %d resets acknowledged -> %d mails for %d mail jobs (%d sent-markers, %d jobs taken back after the kill, %d mails doubled by a send the kill cut, 0 lost), reconcile clean, login limit on %d/%d processes, one redemption for a key sent to two processes, SIGTERM answered %d/%d in-flight requests and exited within %s",
		joined, completed, entered, redeemed, forgot, len(smtp.Messages()), mailJobs, delivered, rescued, doubled, limitedEverywhere, fleetProcesses, drainOK, drained, shutdownDrain)
	t.Log(buf.String())
}
