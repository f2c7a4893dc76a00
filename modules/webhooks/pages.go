package webhooks

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/console"
	consoleviews "github.com/canvass/canvass/views/console"
	webhookviews "github.com/canvass/canvass/views/console/webhooks"
	"github.com/gofiber/fiber/v3"
)

// The console's webhooks part: a panel's owners (webhooks.manage) list, add, turn off and on and
// delete its webhooks, read each one's deliveries and send one again. Pages are forms that
// work without JavaScript; every change is audited. The same in the JSON API (api.go).

const (
	pageBase = "/console/panels/:panel/webhooks"
	apiBase  = "/panels/:panel/webhooks"
	// deliveriesPage is how many deliveries a page (and an API call) lists.
	deliveriesPage = 50
)

// Mount adds the part's pages and API (console.Part).
func (m *Module) Mount(cm *console.Module, r, api fiber.Router) {
	m.cm = cm
	act := console.ActionManageWebhooks
	cm.PanelPage(r, fiber.MethodGet, pageBase, act, m.listPage)
	cm.PanelPage(r, fiber.MethodPost, pageBase, act, m.createPage)
	cm.PanelPage(r, fiber.MethodGet, pageBase+"/:id", act, m.webhookPage)
	cm.PanelPage(r, fiber.MethodPost, pageBase+"/:id/enable", act, m.setActivePage(true))
	cm.PanelPage(r, fiber.MethodPost, pageBase+"/:id/disable", act, m.setActivePage(false))
	cm.PanelPage(r, fiber.MethodPost, pageBase+"/:id/delete", act, m.deletePage)
	cm.PanelPage(r, fiber.MethodPost, pageBase+"/:id/deliveries/:delivery/resend", act, m.resendPage)

	cm.PanelAPI(api, fiber.MethodGet, apiBase, act, m.apiList)
	cm.PanelAPI(api, fiber.MethodPost, apiBase, act, m.apiCreate)
	cm.PanelAPI(api, fiber.MethodGet, apiBase+"/:id", act, m.apiGet)
	cm.PanelAPI(api, fiber.MethodPut, apiBase+"/:id", act, m.apiUpdate)
	cm.PanelAPI(api, fiber.MethodDelete, apiBase+"/:id", act, m.apiDelete)
	cm.PanelAPI(api, fiber.MethodGet, apiBase+"/:id/deliveries", act, m.apiDeliveries)
	cm.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/deliveries/:delivery/resend", act, m.apiResend)
}

// when is a time as the console shows it (UTC, like its audit log); "—" for none.
func when(t *time.Time) string {
	if t == nil || t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func (m *Module) head(c fiber.Ctx, a console.PanelAccess) webhookviews.Head {
	return webhookviews.Head{Shell: m.cm.Shell(c), PanelKey: a.Panel.Key, PanelName: a.Panel.Name}
}

// eventLabel is an event in words.
func (m *Module) eventLabel(c fiber.Ctx, event string) string {
	return m.cm.T(c, "console.webhooks.event."+event, nil)
}

// statusLabel is a delivery's status in words.
func (m *Module) statusLabel(c fiber.Ctx, status string) string {
	return m.cm.T(c, "console.webhooks.status."+status, nil)
}

func (m *Module) row(c fiber.Ctx, w *Webhook, last *Delivery) webhookviews.Row {
	r := webhookviews.Row{ID: w.ID, URL: w.URL, Active: w.Active, Created: when(&w.CreatedAt), State: m.cm.T(c, "console.webhooks.state.off", nil)}
	if w.Active {
		r.State = m.cm.T(c, "console.webhooks.state.on", nil)
	}
	for _, e := range w.EventList() {
		r.Events = append(r.Events, m.eventLabel(c, e))
	}
	if last != nil {
		r.Last, r.LastCode, r.LastWhen = m.statusLabel(c, last.Status), last.Status, when(&last.CreatedAt)
	}
	return r
}

// form is the add form: the URL and events it was sent with (every event for a new one).
func (m *Module) form(c fiber.Ctx, in *Input) webhookviews.Form {
	var f webhookviews.Form
	if in != nil {
		f.URL = in.URL
	}
	for _, e := range Events {
		checked := in == nil
		if in != nil {
			for _, x := range in.Events {
				checked = checked || x == e
			}
		}
		f.Events = append(f.Events, webhookviews.Choice{Value: e, Label: m.eventLabel(c, e), Checked: checked})
	}
	return f
}

func (m *Module) listProps(c fiber.Ctx, a console.PanelAccess) (webhookviews.ListProps, error) {
	props := webhookviews.ListProps{Head: m.head(c, a), Max: MaxPerPanel, Form: m.form(c, nil)}
	list, err := m.List(c.Context(), a.Panel.ID)
	if err != nil {
		return props, err
	}
	for _, l := range list {
		props.Rows = append(props.Rows, m.row(c, &l.Webhook, l.Last))
	}
	props.Full = len(list) >= MaxPerPanel
	return props, nil
}

// doneNotices are the notices a redirect after an action may name (?done=): ids, never text.
var doneNotices = map[string]string{
	"enabled": "console.webhooks.done.enabled", "disabled": "console.webhooks.done.disabled",
	"already_enabled": "console.webhooks.done.already_enabled", "already_disabled": "console.webhooks.done.already_disabled",
	"deleted": "console.webhooks.done.deleted", "resent": "console.webhooks.done.resent",
}

// GET /console/panels/:panel/webhooks
func (m *Module) listPage(c fiber.Ctx, a console.PanelAccess) error {
	props, err := m.listProps(c, a)
	if err != nil {
		return err
	}
	if id, ok := doneNotices[c.Query("done")]; ok {
		props.Notice = m.cm.T(c, id, nil)
	}
	return m.cm.Render(c, fiber.StatusOK, webhookviews.List(props))
}

// refusal is the message of a refused input, and the field it belongs to (url, events, or ""
// for the whole form).
func refusal(err error) (field, id string, data map[string]any, ok bool) {
	switch {
	case errors.Is(err, ErrURLInvalid):
		return "url", "console.webhooks.error.url_invalid", nil, true
	case errors.Is(err, ErrURLScheme):
		return "url", "console.webhooks.error.url_https", nil, true
	case errors.Is(err, ErrURLPrivate):
		return "url", "console.webhooks.error.url_private", nil, true
	case errors.Is(err, ErrURLResolve):
		return "url", "console.webhooks.error.url_resolve", nil, true
	case errors.Is(err, ErrEvents):
		return "events", "console.webhooks.error.events", nil, true
	case errors.Is(err, ErrTooMany):
		return "", "console.webhooks.error.too_many", map[string]any{"Max": MaxPerPanel}, true
	}
	return "", "", nil, false
}

// POST /console/panels/:panel/webhooks: the list with the new webhook and its secret, shown
// on this answer only; or the form again, refused (422).
func (m *Module) createPage(c fiber.Ctx, a console.PanelAccess) error {
	in := Input{URL: c.FormValue("url"), Active: true}
	for _, e := range c.Request().PostArgs().PeekMulti("events") {
		in.Events = append(in.Events, string(e))
	}
	w, secret, err := m.Create(c.Context(), a.Panel.ID, in)
	field, id, data, refused := refusal(err)
	if err != nil && !refused {
		return err
	}
	if err == nil {
		if err := m.cm.Audit(c, a.Panel.ID, "webhook.create", w.ID, nil, auditOf(w)); err != nil {
			return err
		}
	}
	props, perr := m.listProps(c, a)
	if perr != nil {
		return perr
	}
	if refused {
		props.Form = m.form(c, &in)
		props.Form.Error = m.cm.T(c, "console.webhooks.error.refused", nil)
		msg := m.cm.T(c, id, data)
		switch field {
		case "url":
			props.Form.URLError = msg
		case "events":
			props.Form.EventsError = msg
		default:
			props.Form.Error = msg
		}
		return m.cm.Render(c, fiber.StatusUnprocessableEntity, webhookviews.List(props))
	}
	props.NewSecret, props.NewURL, props.NewID = secret, w.URL, w.ID
	c.Set(fiber.HeaderCacheControl, "no-store") // the secret is on this answer only
	return m.cm.Render(c, fiber.StatusOK, webhookviews.List(props))
}

// auditOf is what the audit log keeps of a webhook: never its secret.
func auditOf(w *Webhook) map[string]any {
	return map[string]any{"url": w.URL, "events": w.EventList(), "active": w.Active}
}

// notFound maps the module's "no such webhook or delivery" to the console's 404.
func notFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return fiber.ErrNotFound
	}
	return err
}

// GET /console/panels/:panel/webhooks/:id?after=CURSOR
func (m *Module) webhookPage(c fiber.Ctx, a console.PanelAccess) error {
	w, err := m.Webhook(c.Context(), a.Panel.ID, c.Params("id"))
	if err != nil {
		return notFound(err)
	}
	after, err := ParseCursor(c.Query("after"))
	if err != nil {
		return fiber.ErrNotFound
	}
	rows, more, err := m.Deliveries(c.Context(), a.Panel.ID, w.ID, after, deliveriesPage)
	if err != nil {
		return err
	}
	var last *Delivery
	if len(rows) > 0 && after == nil {
		last = &rows[0]
	}
	path := webhookviews.WebhookPath(a.Panel.Key, w.ID)
	props := webhookviews.WebhookProps{Head: m.head(c, a), Webhook: m.row(c, w, last)}
	props.Facts = []consoleviews.Pair{
		{Label: m.cm.T(c, "console.webhooks.col.url", nil), Value: w.URL},
		{Label: m.cm.T(c, "console.webhooks.col.events", nil), Value: strings.Join(props.Webhook.Events, ", ")},
		{Label: m.cm.T(c, "console.webhooks.col.state", nil), Value: props.Webhook.State},
		{Label: m.cm.T(c, "console.webhooks.col.created", nil), Value: props.Webhook.Created},
	}
	if id, ok := doneNotices[c.Query("done")]; ok {
		props.Notice = m.cm.T(c, id, nil)
	}
	for _, d := range rows {
		props.Deliveries = append(props.Deliveries, m.deliveryRow(c, a, &d))
	}
	if after != nil {
		props.First = path
	}
	if more {
		last := rows[len(rows)-1]
		props.Next = path + "?" + url.Values{"after": {Cursor{At: last.CreatedAt, ID: last.ID}.String()}}.Encode()
	}
	return m.cm.Render(c, fiber.StatusOK, webhookviews.Webhook(props))
}

func (m *Module) deliveryRow(c fiber.Ctx, a console.PanelAccess, d *Delivery) webhookviews.DeliveryRow {
	r := webhookviews.DeliveryRow{
		ID: d.ID, Event: m.eventLabel(c, d.Event), Participation: d.ParticipationID, Status: m.statusLabel(c, d.Status),
		StatusCode: d.Status, Attempts: d.Attempts, HTTP: "—", Latency: "—", When: when(&d.CreatedAt),
		LastAttempt: when(d.LastAttemptAt), Error: d.LastError,
		Resend: webhookviews.WebhookPath(a.Panel.Key, d.WebhookID) + "/deliveries/" + d.ID + "/resend",
	}
	if d.LastStatus != nil {
		r.HTTP = strconv.Itoa(*d.LastStatus)
	}
	if d.LastLatencyMS != nil {
		r.Latency = m.cm.T(c, "console.webhooks.ms", map[string]any{"Count": *d.LastLatencyMS})
	}
	return r
}

// POST …/webhooks/:id/enable and …/disable: back to the webhook's page with what happened.
func (m *Module) setActivePage(active bool) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		ch, err := m.setActive(c, a, c.Params("id"), active)
		if err != nil {
			return notFound(err)
		}
		done := map[bool]string{true: "enabled", false: "disabled"}[active]
		if !ch.Changed {
			done = "already_" + done
		}
		return m.cm.Redirect(c, webhookviews.WebhookPath(a.Panel.Key, ch.After.ID)+"?done="+done)
	}
}

// setActive turns a webhook on or off and audits the change.
func (m *Module) setActive(c fiber.Ctx, a console.PanelAccess, id string, active bool) (Change, error) {
	ch, err := m.SetActive(c.Context(), a.Panel.ID, id, active)
	if err != nil || !ch.Changed {
		return ch, err
	}
	action := map[bool]string{true: "webhook.enable", false: "webhook.disable"}[active]
	return ch, m.cm.Audit(c, a.Panel.ID, action, id, auditOf(&ch.Before), auditOf(&ch.After))
}

// del deletes a webhook and audits it.
func (m *Module) del(c fiber.Ctx, a console.PanelAccess, id string) error {
	w, err := m.Delete(c.Context(), a.Panel.ID, id)
	if err != nil {
		return err
	}
	return m.cm.Audit(c, a.Panel.ID, "webhook.delete", w.ID, auditOf(w), nil)
}

// POST …/webhooks/:id/delete: back to the list.
func (m *Module) deletePage(c fiber.Ctx, a console.PanelAccess) error {
	if err := m.del(c, a, c.Params("id")); err != nil {
		return notFound(err)
	}
	return m.cm.Redirect(c, webhookviews.ListPath(a.Panel.Key)+"?done=deleted")
}

// resend sends a delivery again and audits it.
func (m *Module) resend(c fiber.Ctx, a console.PanelAccess) (*Delivery, error) {
	before, after, err := m.Resend(c.Context(), a.Panel.ID, c.Params("id"), c.Params("delivery"))
	if err != nil {
		return nil, err
	}
	err = m.cm.Audit(c, a.Panel.ID, "webhook.resend", after.ID,
		map[string]any{"webhook": before.WebhookID, "status": before.Status, "attempts": before.Attempts},
		map[string]any{"webhook": after.WebhookID, "status": after.Status, "event": after.Event, "participation": after.ParticipationID})
	return after, err
}

// POST …/webhooks/:id/deliveries/:delivery/resend: back to the webhook's page.
func (m *Module) resendPage(c fiber.Ctx, a console.PanelAccess) error {
	d, err := m.resend(c, a)
	if err != nil {
		return notFound(err)
	}
	return m.cm.Redirect(c, webhookviews.WebhookPath(a.Panel.Key, d.WebhookID)+"?done=resent")
}
