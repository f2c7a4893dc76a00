package webhooks

import (
	"errors"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The webhooks' JSON API (under console.APIPrefix, bearer tokens with webhooks.manage;
// modules/apidocs/openapi/console-webhooks.yaml): times are RFC 3339 in UTC, null when none. A
// refused webhook is a 400 naming the field (url, events, active); a panel at its limit a 409.

// WebhookJSON is a webhook as the API shows it (never its secret).
type WebhookJSON struct {
	ID           string        `json:"id"`
	URL          string        `json:"url"`
	Events       []string      `json:"events"`
	Active       bool          `json:"active"`
	CreatedAt    time.Time     `json:"createdAt"`
	UpdatedAt    time.Time     `json:"updatedAt"`
	LastDelivery *DeliveryJSON `json:"lastDelivery"`
}

// DeliveryJSON is one delivery as the API shows it.
type DeliveryJSON struct {
	ID              string     `json:"id"`
	Event           string     `json:"event"`
	ParticipationID string     `json:"participationId"`
	CampaignID      string     `json:"campaignId"`
	Status          string     `json:"status"`
	Attempts        int        `json:"attempts"`
	LastStatus      *int       `json:"lastStatus"`
	LastLatencyMS   *int       `json:"lastLatencyMs"`
	LastError       *string    `json:"lastError"`
	LastAttemptAt   *time.Time `json:"lastAttemptAt"`
	RetryUntil      time.Time  `json:"retryUntil"`
	CreatedAt       time.Time  `json:"createdAt"`
	DeliveredAt     *time.Time `json:"deliveredAt"`
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func webhookJSON(w *Webhook, last *Delivery) WebhookJSON {
	out := WebhookJSON{ID: w.ID, URL: w.URL, Events: w.EventList(), Active: w.Active, CreatedAt: w.CreatedAt.UTC(), UpdatedAt: w.UpdatedAt.UTC()}
	if out.Events == nil {
		out.Events = []string{}
	}
	if last != nil {
		d := deliveryJSON(last)
		out.LastDelivery = &d
	}
	return out
}

func deliveryJSON(d *Delivery) DeliveryJSON {
	out := DeliveryJSON{
		ID: d.ID, Event: d.Event, ParticipationID: d.ParticipationID, CampaignID: d.CampaignID, Status: d.Status, Attempts: d.Attempts,
		LastStatus: d.LastStatus, LastLatencyMS: d.LastLatencyMS, LastAttemptAt: utc(d.LastAttemptAt), RetryUntil: d.RetryUntil.UTC(),
		CreatedAt: d.CreatedAt.UTC(), DeliveredAt: utc(d.DeliveredAt),
	}
	if d.LastError != "" {
		out.LastError = &d.LastError
	}
	return out
}

// apiRefusal is a refused input as the API's error: a 400 naming the field, or a 409 for a
// panel at its limit.
func apiRefusal(err error) error {
	field, id, data, ok := refusal(err)
	switch {
	case !ok:
		return notFound(err)
	case field == "":
		return web.Fail(fiber.StatusConflict, id, data).WithCode("too_many_webhooks")
	}
	return web.Invalid(field, id, data)
}

// input is a webhook as a call sends it: url and events are required, active too for PUT
// (which replaces all three); a new webhook is on unless active is false.
type input struct {
	URL    *string   `json:"url"`
	Events *[]string `json:"events"`
	Active *bool     `json:"active"`
}

func readInput(c fiber.Ctx, needActive bool) (Input, error) {
	var in input
	if err := web.DecodeJSON(c, &in); err != nil {
		return Input{}, err
	}
	var refused *web.Error
	add := func(field, id string) {
		if refused == nil {
			refused = web.Invalid(field, id, nil)
		} else {
			refused.Also(field, id, nil)
		}
	}
	if in.URL == nil {
		add("url", "console.webhooks.error.url_invalid")
	}
	if in.Events == nil {
		add("events", "console.webhooks.error.events")
	}
	if needActive && in.Active == nil {
		add("active", "console.webhooks.error.active")
	}
	if refused != nil {
		return Input{}, refused
	}
	out := Input{URL: *in.URL, Events: *in.Events, Active: true}
	if in.Active != nil {
		out.Active = *in.Active
	}
	return out, nil
}

// GET /console/api/panels/:panel/webhooks
func (m *Module) apiList(c fiber.Ctx, a console.PanelAccess) error {
	list, err := m.List(c.Context(), a.Panel.ID)
	if err != nil {
		return err
	}
	out := make([]WebhookJSON, len(list))
	for i, l := range list {
		out[i] = webhookJSON(&l.Webhook, l.Last)
	}
	return c.JSON(fiber.Map{"webhooks": out})
}

// POST /console/api/panels/:panel/webhooks: 201 with the webhook and its secret, given once.
func (m *Module) apiCreate(c fiber.Ctx, a console.PanelAccess) error {
	in, err := readInput(c, false)
	if err != nil {
		return err
	}
	w, secret, err := m.Create(c.Context(), a.Panel.ID, in)
	if err != nil {
		return apiRefusal(err)
	}
	if err := m.cm.Audit(c, a.Panel.ID, "webhook.create", w.ID, nil, auditOf(w)); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"webhook": webhookJSON(w, nil), "secret": secret})
}

// webhook is the path's webhook with its newest delivery; another panel's is a 404.
func (m *Module) webhook(c fiber.Ctx, a console.PanelAccess) (*Webhook, *Delivery, error) {
	w, err := m.Webhook(c.Context(), a.Panel.ID, c.Params("id"))
	if err != nil {
		return nil, nil, notFound(err)
	}
	rows, _, err := m.Deliveries(c.Context(), a.Panel.ID, w.ID, nil, 1)
	if err != nil || len(rows) == 0 {
		return w, nil, err
	}
	return w, &rows[0], nil
}

// GET /console/api/panels/:panel/webhooks/:id
func (m *Module) apiGet(c fiber.Ctx, a console.PanelAccess) error {
	w, last, err := m.webhook(c, a)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"webhook": webhookJSON(w, last)})
}

// PUT /console/api/panels/:panel/webhooks/:id: its URL, events and state (the secret stays).
func (m *Module) apiUpdate(c fiber.Ctx, a console.PanelAccess) error {
	if _, err := m.Webhook(c.Context(), a.Panel.ID, c.Params("id")); err != nil {
		return notFound(err)
	}
	in, err := readInput(c, true)
	if err != nil {
		return err
	}
	ch, err := m.Update(c.Context(), a.Panel.ID, c.Params("id"), in)
	if err != nil {
		return apiRefusal(err)
	}
	if ch.Changed {
		if err := m.cm.Audit(c, a.Panel.ID, "webhook.update", ch.After.ID, auditOf(&ch.Before), auditOf(&ch.After)); err != nil {
			return err
		}
	}
	w, last, err := m.webhook(c, a)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"webhook": webhookJSON(w, last), "changed": ch.Changed})
}

// DELETE /console/api/panels/:panel/webhooks/:id: 204.
func (m *Module) apiDelete(c fiber.Ctx, a console.PanelAccess) error {
	if err := m.del(c, a, c.Params("id")); err != nil {
		return notFound(err)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// GET /console/api/panels/:panel/webhooks/:id/deliveries?after=CURSOR
func (m *Module) apiDeliveries(c fiber.Ctx, a console.PanelAccess) error {
	w, err := m.Webhook(c.Context(), a.Panel.ID, c.Params("id"))
	if err != nil {
		return notFound(err)
	}
	after, err := ParseCursor(c.Query("after"))
	if err != nil {
		return web.Invalid("after", "console.webhooks.error.cursor", nil)
	}
	rows, more, err := m.Deliveries(c.Context(), a.Panel.ID, w.ID, after, deliveriesPage)
	if err != nil {
		return err
	}
	out := make([]DeliveryJSON, len(rows))
	for i := range rows {
		out[i] = deliveryJSON(&rows[i])
	}
	var next *string
	if more {
		s := Cursor{At: rows[len(rows)-1].CreatedAt, ID: rows[len(rows)-1].ID}.String()
		next = &s
	}
	return c.JSON(fiber.Map{"deliveries": out, "next": next})
}

// POST /console/api/panels/:panel/webhooks/:id/deliveries/:delivery/resend: 202, queued.
func (m *Module) apiResend(c fiber.Ctx, a console.PanelAccess) error {
	d, err := m.resend(c, a)
	if errors.Is(err, ErrNotFound) {
		return fiber.ErrNotFound
	}
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"delivery": deliveryJSON(d)})
}
