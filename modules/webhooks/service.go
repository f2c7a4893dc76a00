package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/surveys"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SecretPrefix starts every webhook secret, so a leaked one is recognisable.
const SecretPrefix = "whsec_"

func secretBinding(webhookID string) string { return "webhooks:secret:" + webhookID }

// newSecret is a fresh signing secret: the prefix and 32 random bytes.
func newSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("webhooks: secret: %w", err)
	}
	return SecretPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// stamp is a time as the module stores it: UTC, to the microsecond (PostgreSQL's precision),
// so that a keyset cursor compares equal to the row it came from on every dialect.
func stamp(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// checkEvents is the events chosen, in Events' order, each once; ErrEvents for none or an
// unknown one.
func checkEvents(in []string) (string, error) {
	var out []string
	for _, e := range Events {
		if slices.Contains(in, e) {
			out = append(out, e)
		}
	}
	for _, e := range in {
		if !slices.Contains(Events, e) {
			return "", ErrEvents
		}
	}
	if len(out) == 0 {
		return "", ErrEvents
	}
	return strings.Join(out, " "), nil
}

// Input is a webhook as an operator gives it.
type Input struct {
	URL    string
	Events []string
	Active bool
}

// check is the input's URL and events checked; the URL's error comes first.
func (m *Module) check(ctx context.Context, in Input) (string, string, error) {
	u, err := CheckURL(ctx, strings.TrimSpace(in.URL), m.d.AllowPrivate, m.d.Resolver)
	if err != nil {
		return "", "", err
	}
	events, err := checkEvents(in.Events)
	if err != nil {
		return "", "", err
	}
	return u.String(), events, nil
}

// Create adds a webhook to a panel: its secret is returned once, and kept only sealed.
func (m *Module) Create(ctx context.Context, panelID string, in Input) (*Webhook, string, error) {
	url, events, err := m.check(ctx, in)
	if err != nil {
		return nil, "", err
	}
	secret, err := newSecret()
	if err != nil {
		return nil, "", err
	}
	now := stamp(m.now())
	w := &Webhook{ID: uuid.NewString(), PanelID: panelID, URL: url, Events: events, Active: in.Active, CreatedAt: now, UpdatedAt: now}
	if w.SecretSealed, err = m.d.Sealer.Seal([]byte(secret), secretBinding(w.ID)); err != nil {
		return nil, "", err
	}
	err = m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&Webhook{}).Where("panel_id = ?", panelID).Count(&n).Error; err != nil {
			return fmt.Errorf("count webhooks of panel %s: %w", panelID, err)
		}
		if n >= MaxPerPanel {
			return ErrTooMany
		}
		if err := tx.Create(w).Error; err != nil {
			return fmt.Errorf("create webhook: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return w, secret, nil
}

// Webhook is one of the panel's webhooks (ErrNotFound for another panel's or none).
func (m *Module) Webhook(ctx context.Context, panelID, id string) (*Webhook, error) {
	var w Webhook
	err := m.db.WithContext(ctx).Where("id = ? AND panel_id = ?", id, panelID).Take(&w).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load webhook %s: %w", id, err)
	}
	return &w, nil
}

// Listed is a webhook with its newest delivery (nil before any).
type Listed struct {
	Webhook
	Last *Delivery
}

// List is the panel's webhooks, oldest first, each with its newest delivery.
func (m *Module) List(ctx context.Context, panelID string) ([]Listed, error) {
	var hooks []Webhook
	if err := m.db.WithContext(ctx).Where("panel_id = ?", panelID).Order("created_at, id").Find(&hooks).Error; err != nil {
		return nil, fmt.Errorf("list webhooks of panel %s: %w", panelID, err)
	}
	out := make([]Listed, len(hooks))
	for i, w := range hooks {
		out[i].Webhook = w
		var last []Delivery
		if err := m.db.WithContext(ctx).Where("webhook_id = ?", w.ID).Order("created_at DESC, id DESC").Limit(1).Find(&last).Error; err != nil {
			return nil, fmt.Errorf("last delivery of webhook %s: %w", w.ID, err)
		}
		if len(last) > 0 {
			out[i].Last = &last[0]
		}
	}
	return out, nil
}

// Change is what an update did: the webhook before and after, and whether anything changed.
type Change struct {
	Before, After Webhook
	Changed       bool
}

// Update sets a webhook's URL, events and state (its secret stays). Doing again what is done
// changes nothing.
func (m *Module) Update(ctx context.Context, panelID, id string, in Input) (Change, error) {
	url, events, err := m.check(ctx, in)
	if err != nil {
		return Change{}, err
	}
	return m.change(ctx, panelID, id, func(w *Webhook) { w.URL, w.Events, w.Active = url, events, in.Active })
}

// SetActive turns a webhook on or off: an inactive one is sent nothing, and its pending
// deliveries end failed (an owner may send them again once it is on).
func (m *Module) SetActive(ctx context.Context, panelID, id string, active bool) (Change, error) {
	return m.change(ctx, panelID, id, func(w *Webhook) { w.Active = active })
}

func (m *Module) change(ctx context.Context, panelID, id string, set func(w *Webhook)) (Change, error) {
	var ch Change
	err := m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var w Webhook
		err := tx.Where("id = ? AND panel_id = ?", id, panelID).Take(&w).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("load webhook %s: %w", id, err)
		}
		ch.Before, ch.After = w, w
		set(&ch.After)
		if ch.After.URL == w.URL && ch.After.Events == w.Events && ch.After.Active == w.Active {
			return nil
		}
		ch.After.UpdatedAt, ch.Changed = stamp(m.now()), true
		res := tx.Model(&Webhook{}).Where("id = ?", id).Updates(map[string]any{
			"url": ch.After.URL, "events": ch.After.Events, "active": ch.After.Active, "updated_at": ch.After.UpdatedAt,
		})
		if res.Error != nil {
			return fmt.Errorf("update webhook %s: %w", id, res.Error)
		}
		return nil
	})
	return ch, err
}

// Delete removes a webhook and its deliveries' log; jobs still queued for them find nothing
// and end.
func (m *Module) Delete(ctx context.Context, panelID, id string) (*Webhook, error) {
	var w Webhook
	err := m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("id = ? AND panel_id = ?", id, panelID).Take(&w).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("load webhook %s: %w", id, err)
		}
		if err := tx.Where("webhook_id = ?", id).Delete(&Delivery{}).Error; err != nil {
			return fmt.Errorf("delete deliveries of webhook %s: %w", id, err)
		}
		if err := tx.Where("id = ?", id).Delete(&Webhook{}).Error; err != nil {
			return fmt.Errorf("delete webhook %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &w, nil
}

// Cursor is a keyset position in a webhook's deliveries (newest first).
type Cursor struct {
	At time.Time
	ID string
}

// String is the cursor's text form.
func (c Cursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(c.At.UTC().Format(time.RFC3339Nano) + " " + c.ID))
}

// ErrCursor is a page position the deliveries did not give.
var ErrCursor = errors.New("webhooks: not a page of these deliveries")

// ParseCursor reads a cursor; "" is none (the first page).
func ParseCursor(s string) (*Cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, ErrCursor
	}
	at, id, ok := strings.Cut(string(b), " ")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || id == "" {
		return nil, ErrCursor
	}
	return &Cursor{At: t, ID: id}, nil
}

// Deliveries is a page of a webhook's deliveries, newest first, after the cursor (nil: the
// first page); more tells whether older ones follow.
func (m *Module) Deliveries(ctx context.Context, panelID, webhookID string, after *Cursor, limit int) (rows []Delivery, more bool, err error) {
	q := m.db.WithContext(ctx).Where("webhook_id = ? AND panel_id = ?", webhookID, panelID)
	if after != nil {
		at := stamp(after.At)
		q = q.Where("(created_at < ? OR (created_at = ? AND id < ?))", at, at, after.ID)
	}
	if err := q.Order("created_at DESC, id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, false, fmt.Errorf("list deliveries of webhook %s: %w", webhookID, err)
	}
	if len(rows) > limit {
		rows, more = rows[:limit], true
	}
	return rows, more, nil
}

// Delivery is one of a webhook's deliveries (ErrNotFound for another's or none).
func (m *Module) Delivery(ctx context.Context, panelID, webhookID, id string) (*Delivery, error) {
	var d Delivery
	err := m.db.WithContext(ctx).Where("id = ? AND webhook_id = ? AND panel_id = ?", id, webhookID, panelID).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load delivery %s: %w", id, err)
	}
	return &d, nil
}

// taskPayload is a delivery job's payload: the delivery and the seq it was queued for.
type taskPayload struct {
	Delivery string `json:"delivery"`
	Seq      int    `json:"seq"`
}

func (m *Module) queue(tx *gorm.DB, d *Delivery) error {
	payload, err := json.Marshal(taskPayload{Delivery: d.ID, Seq: d.Seq})
	if err != nil {
		return err
	}
	return m.d.Tasks.QueueTask(tx, TaskDeliver, payload)
}

// Resend sends a delivery again, now, whatever became of it: pending (its scheduled retry is
// superseded), delivered (the receiver gets the same event id again) or failed. It is retried
// for another RetryWindow from now. It returns the delivery before and after.
func (m *Module) Resend(ctx context.Context, panelID, webhookID, id string) (before, after *Delivery, err error) {
	err = m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var d Delivery
		err := tx.Where("id = ? AND webhook_id = ? AND panel_id = ?", id, webhookID, panelID).Take(&d).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("load delivery %s: %w", id, err)
		}
		b := d
		before = &b
		d.Seq++
		d.Status, d.DeliveredAt, d.RetryUntil = StatusPending, nil, stamp(m.now().Add(RetryWindow))
		res := tx.Model(&Delivery{}).Where("id = ? AND seq = ?", id, b.Seq).Updates(map[string]any{
			"seq": d.Seq, "status": d.Status, "delivered_at": nil, "retry_until": d.RetryUntil,
		})
		if res.Error != nil {
			return fmt.Errorf("send delivery %s again: %w", id, res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("send delivery %s again: changed meanwhile", id)
		}
		after = &d
		return m.queue(tx, &d)
	})
	return before, after, err
}

// OnFinished is the survey engine's finish hook (surveys.FinishHook): in the transaction that
// ends a run, a delivery row and its job for each active webhook of the run's panel that wants
// the event, committed with the outcome or not at all. A panel without webhooks costs one
// indexed query.
func (m *Module) OnFinished(tx *gorm.DB, f surveys.Finished) error {
	event := eventOf(f.Status)
	if event == "" || f.Panel == nil {
		return nil
	}
	tx = tx.Session(&gorm.Session{NewDB: true})
	var hooks []Webhook
	if err := tx.Select("id", "events").Where("panel_id = ? AND active = ?", f.Panel.ID, true).Find(&hooks).Error; err != nil {
		return fmt.Errorf("webhooks of panel %s: %w", f.Panel.ID, err)
	}
	if len(hooks) == 0 {
		return nil
	}
	now := stamp(m.now())
	for _, w := range hooks {
		if !w.Wants(event) {
			continue
		}
		d := &Delivery{
			ID: uuid.NewString(), WebhookID: w.ID, PanelID: f.Panel.ID, Event: event, ParticipationID: f.ParticipationID,
			CampaignID: f.CampaignID, Status: StatusPending, Seq: 1, RetryUntil: now.Add(RetryWindow), CreatedAt: now,
		}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(d)
		if res.Error != nil {
			return fmt.Errorf("record delivery of %s to webhook %s: %w", event, w.ID, res.Error)
		}
		if res.RowsAffected == 0 {
			continue // this run's event is queued for this webhook already
		}
		if err := m.queue(tx, d); err != nil {
			return err
		}
	}
	return nil
}
