package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/web"
	"github.com/riverqueue/river"
	"gorm.io/gorm"
)

// Payload is the JSON body of every delivery. Its id is the event's (the Canvass-Event-Id
// header's, the same on every attempt and every "Send again"): a receiver keeps the ids it has
// handled and drops a second delivery of one. Times are RFC 3339 in UTC.
type Payload struct {
	ID            string               `json:"id"`
	Event         string               `json:"event"`
	CreatedAt     string               `json:"createdAt"`
	Panel         string               `json:"panel"` // the panel's key
	Campaign      PayloadCampaign      `json:"campaign"`
	Participation PayloadParticipation `json:"participation"`
	Answers       []PayloadAnswer      `json:"answers"`
}

// PayloadCampaign is the campaign the run was of, named in its default language.
type PayloadCampaign struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// PayloadParticipation is the run.
type PayloadParticipation struct {
	ID         string  `json:"id"`
	MemberID   string  `json:"memberId"`
	Outcome    string  `json:"outcome"` // completed, screened, quota_full
	StartedAt  string  `json:"startedAt"`
	FinishedAt *string `json:"finishedAt"`
	Language   *string `json:"language"`
}

// PayloadAnswer is one answer, its value as the member gave it (ARCHITECTURE.md, Answers). A
// member who closed their account took their answers with them: the list is empty then.
type PayloadAnswer struct {
	QuestionID string          `json:"questionId"`
	Value      json.RawMessage `json:"value"`
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// errGone is a delivery whose run or campaign no longer exists: it will never go.
var errGone = errors.New("the participation or its campaign is gone")

// body is the delivery's payload, read now: the run and its answers, the campaign's name.
func (m *Module) body(ctx context.Context, d *Delivery) ([]byte, error) {
	panel, err := m.d.Panel(ctx, d.PanelID)
	if err != nil {
		if errors.Is(err, web.ErrNotFound) {
			return nil, errGone
		}
		return nil, err
	}
	r, answers, err := m.d.Responses.Response(ctx, d.PanelID, d.CampaignID, d.ParticipationID)
	if err != nil {
		if errors.Is(err, web.ErrNotFound) {
			return nil, errGone
		}
		return nil, err
	}
	camp, err := m.d.Catalogue.Campaign(ctx, panel, d.CampaignID)
	if err != nil {
		if errors.Is(err, web.ErrNotFound) {
			return nil, errGone
		}
		return nil, err
	}
	p := Payload{
		ID: d.ID, Event: d.Event, CreatedAt: rfc3339(d.CreatedAt), Panel: panel.Key,
		Campaign: PayloadCampaign{ID: camp.ID, Name: camp.Names.In(camp.DefaultLanguage, "")},
		Participation: PayloadParticipation{
			ID: r.ID, MemberID: r.ParticipantID, Outcome: r.Outcome(), StartedAt: rfc3339(r.StartedAt), Language: r.Language,
		},
		Answers: make([]PayloadAnswer, 0, len(answers)),
	}
	if r.FinishedAt != nil {
		s := rfc3339(*r.FinishedAt)
		p.Participation.FinishedAt = &s
	}
	for _, a := range answers {
		v := json.RawMessage(a.Value)
		if !json.Valid(v) {
			v, _ = json.Marshal(a.Value)
		}
		p.Answers = append(p.Answers, PayloadAnswer{QuestionID: a.QuestionID, Value: v})
	}
	return json.Marshal(p)
}

// Deliver is the delivery task (jobs.TaskHandler): one attempt at sending a delivery. A
// delivery already delivered or failed, sent again since this job was queued (another seq),
// or deleted, is left alone. A 2xx answer marks it delivered; anything else (or no answer in
// DeliveryTimeout) is an error River retries after RetryAfter, unless the next attempt would
// fall after the delivery's RetryUntil (or the job has no attempts left): then it is failed.
func (m *Module) Deliver(ctx context.Context, raw []byte) error {
	var p taskPayload
	if err := json.Unmarshal(raw, &p); err != nil || p.Delivery == "" {
		return river.JobCancel(fmt.Errorf("webhooks: a delivery job's payload does not read: %q", raw))
	}
	var d Delivery
	err := m.db.WithContext(ctx).Where("id = ?", p.Delivery).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil // its webhook was deleted
	}
	if err != nil {
		return fmt.Errorf("load delivery %s: %w", p.Delivery, err)
	}
	if d.Status != StatusPending || d.Seq != p.Seq {
		return nil // delivered, failed, or sent again by another job
	}
	var w Webhook
	if err := m.db.WithContext(ctx).Where("id = ?", d.WebhookID).Take(&w).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		return fmt.Errorf("load webhook %s: %w", d.WebhookID, err)
	}
	now := m.now()
	switch {
	case !now.Before(d.RetryUntil):
		return m.fail(ctx, &d, "not delivered within its retry window")
	case !w.Active:
		return m.fail(ctx, &d, "the webhook is off")
	}
	secret, err := m.d.Sealer.Open(w.SecretSealed, secretBinding(w.ID))
	if err != nil {
		return m.fail(ctx, &d, "the webhook's secret does not open (was CANVASS_SECRET changed?)")
	}
	body, err := m.body(ctx, &d)
	if errors.Is(err, errGone) {
		return m.fail(ctx, &d, errGone.Error())
	}
	if err != nil {
		return err // the database: retried
	}
	status, latency, sendErr := m.send(ctx, w.URL, string(secret), &d, body)
	if sendErr != nil && ctx.Err() != nil {
		// The process is stopping (or the job timed out): no attempt to log. Wrapping the
		// cancellation lets River hand the job straight to the next process.
		return fmt.Errorf("webhook delivery %s interrupted: %w", d.ID, ctx.Err())
	}
	if sendErr == nil && status/100 == 2 {
		return m.record(ctx, &d, status, latency, "", StatusDelivered)
	}
	why := "HTTP " + strconv.Itoa(status)
	if sendErr != nil {
		why = short(sendErr)
	}
	attempt, attempts := jobs.TaskAttempt(ctx)
	outcome := StatusPending
	if (attempts > 0 && attempt >= attempts) || !m.now().Add(RetryAfter(attempt)).Before(d.RetryUntil) {
		outcome = StatusFailed // no attempt is left in the window: this was the last
	}
	if err := m.record(ctx, &d, status, latency, why, outcome); err != nil {
		return err
	}
	if outcome == StatusFailed {
		return nil
	}
	return fmt.Errorf("webhook delivery %s to %s: %s", d.ID, host(w.URL), why)
}

// send POSTs the body, signed now, and reads (a little of) the answer. status is 0 when no
// answer came.
func (m *Module) send(ctx context.Context, target, secret string, d *Delivery, body []byte) (status int, latency time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, DeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(HeaderEventID, d.ID)
	req.Header.Set(HeaderEvent, d.Event)
	req.Header.Set(HeaderSignature, Sign(secret, body, m.now()))
	start := time.Now()
	res, err := m.d.Client.Do(req)
	if err != nil {
		return 0, time.Since(start), err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	return res.StatusCode, time.Since(start), nil
}

// record writes an attempt (its answer, latency and error) and, unless still pending, the
// delivery's end: delivered or failed, only if no "Send again" took it over meanwhile. It is
// written even when the job's context has ended (a shutdown just after the receiver answered).
func (m *Module) record(ctx context.Context, d *Delivery, status int, latency time.Duration, why, outcome string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := stamp(m.now())
	ms := int(latency.Milliseconds())
	attempt := map[string]any{"attempts": gorm.Expr("attempts + 1"), "last_latency_ms": ms, "last_error": why, "last_attempt_at": now, "last_status": nil}
	if status > 0 {
		attempt["last_status"] = status
	}
	return m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Delivery{}).Where("id = ?", d.ID).Updates(attempt).Error; err != nil {
			return fmt.Errorf("record attempt of delivery %s: %w", d.ID, err)
		}
		if outcome == StatusPending {
			return nil
		}
		end := map[string]any{"status": outcome}
		if outcome == StatusDelivered {
			end["delivered_at"] = now
		}
		if err := tx.Model(&Delivery{}).Where("id = ? AND seq = ? AND status = ?", d.ID, d.Seq, StatusPending).Updates(end).Error; err != nil {
			return fmt.Errorf("mark delivery %s %s: %w", d.ID, outcome, err)
		}
		return nil
	})
}

// fail ends a pending delivery without an attempt (its window passed, its webhook is off, its
// run is gone).
func (m *Module) fail(ctx context.Context, d *Delivery, why string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := m.db.WithContext(ctx).Model(&Delivery{}).Where("id = ? AND seq = ? AND status = ?", d.ID, d.Seq, StatusPending).
		Updates(map[string]any{"status": StatusFailed, "last_error": why}).Error
	if err != nil {
		return fmt.Errorf("mark delivery %s failed: %w", d.ID, err)
	}
	return nil
}

// short is an attempt's error as the log keeps it: what went wrong, without the URL.
func short(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return "no answer within " + DeliveryTimeout.String()
	case errors.Is(err, ErrURLPrivate):
		return "refused: the address is loopback, private or reserved"
	}
	s := err.Error()
	if r := []rune(s); len(r) > maxError {
		s = string(r[:maxError-1]) + "…"
	}
	return s
}

// host is a URL's host, for errors (the path and query may hold the receiver's own secrets).
func host(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return "?"
}
