package webhookviews

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
	consoleviews "github.com/canvass/canvass/views/console"
)

// Gallery lists the webhooks part's states for the development gallery: the list (none yet,
// several, the secret shown once, a refused URL, the panel at its limit) and a webhook's page
// (its deliveries in every status, a second page, none yet, turned off) (modules/webhooks).
func Gallery() []views.GalleryState {
	state := func(name, path string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Page: galleryConsolePage, View: view}
	}
	list := ListPath("demo")
	one := WebhookPath("demo", galleryID(1))
	return []views.GalleryState{
		state("list-empty", list, func(ctx context.Context, f views.Fixture) templ.Component {
			return List(galleryList(ctx, f, 0))
		}),
		state("list", list, func(ctx context.Context, f views.Fixture) templ.Component {
			return List(galleryList(ctx, f, 3))
		}),
		state("list-secret-once", list, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 1)
			p.NewID, p.NewURL = galleryID(1), galleryURLs[0]
			p.NewSecret = "whsec_Qm9vdHN0cmFwcGVkLXNlY3JldC1mb3ItdGhlLWdhbGxlcnktb25seQ"
			return List(p)
		}),
		state("list-refused", list, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 1)
			p.Form.URL = "http://10.0.0.12:8080/hooks"
			p.Form.Error = views.T(ctx, "console.webhooks.error.refused")
			p.Form.URLError = views.T(ctx, "console.webhooks.error.url_https")
			for i := range p.Form.Events {
				p.Form.Events[i].Checked = false
			}
			p.Form.EventsError = views.T(ctx, "console.webhooks.error.events")
			return List(p)
		}),
		state("list-full", list, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 10)
			p.Full = true
			return List(p)
		}),
		state("webhook", one, func(ctx context.Context, f views.Fixture) templ.Component {
			return Webhook(galleryWebhook(ctx, f, true, 7, false))
		}),
		state("webhook-second-page", one, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryWebhook(ctx, f, true, 4, true)
			p.First = one
			return Webhook(p)
		}),
		state("webhook-off-no-deliveries", one, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryWebhook(ctx, f, false, 0, false)
			p.Notice = views.T(ctx, "console.webhooks.done.disabled")
			return Webhook(p)
		}),
		state("webhook-resent", one, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryWebhook(ctx, f, true, 2, false)
			p.Notice = views.T(ctx, "console.webhooks.done.resent")
			return Webhook(p)
		}),
	}
}

// galleryConsolePage is the page as the console's handlers make it: the console's own name,
// no panel languages.
func galleryConsolePage(p *views.Page) {
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
}

const galleryOperator = "alexandra.konstantinopoulou@example-company.co.uk"

func galleryID(n int) string { return fmt.Sprintf("0192f3a4-7b1c-7d2e-8f30-%012x", 0x4a5b6c7d8e00+n) }

func galleryWhen(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// galleryURLs are receivers' addresses: short, long, with a port and a query.
var galleryURLs = []string{
	"https://hooks.example.com/canvass",
	"https://integrations.research-partners.example.org/api/v2/inbound/survey-platform/canvass-demo-panel/participations?source=canvass&tenant=demo",
	"https://crm.example.net:8443/webhooks/canvass",
}

var galleryEvents = []string{"participation.completed", "participation.screened", "participation.quota_full"}

func galleryHead() Head {
	return Head{Shell: consoleviews.Shell{Email: galleryOperator}, PanelKey: "demo", PanelName: "Canvass Demo"}
}

func galleryRow(ctx context.Context, f views.Fixture, i int, active bool) Row {
	r := Row{ID: galleryID(i + 1), URL: galleryURLs[i%len(galleryURLs)], Active: active, Created: galleryWhen(f.Now.AddDate(0, 0, -30+i))}
	if i >= len(galleryURLs) {
		r.URL += "?copy=" + strconv.Itoa(i)
	}
	r.State = views.T(ctx, "console.webhooks.state.off")
	if active {
		r.State = views.T(ctx, "console.webhooks.state.on")
	}
	for j, e := range galleryEvents {
		if i%2 == 0 || j == 0 {
			r.Events = append(r.Events, views.T(ctx, "console.webhooks.event."+e))
		}
	}
	switch i % 3 {
	case 0:
		r.Last, r.LastCode = views.T(ctx, "console.webhooks.status.delivered"), "delivered"
	case 1:
		r.Last, r.LastCode = views.T(ctx, "console.webhooks.status.failed"), "failed"
	}
	if r.Last != "" {
		r.LastWhen = galleryWhen(f.Now.Add(-time.Duration(i*7+3) * time.Minute))
	}
	return r
}

func galleryList(ctx context.Context, f views.Fixture, n int) ListProps {
	p := ListProps{Head: galleryHead(), Max: 10}
	for i := range n {
		p.Rows = append(p.Rows, galleryRow(ctx, f, i, i != 1))
	}
	for _, e := range galleryEvents {
		p.Form.Events = append(p.Form.Events, Choice{Value: e, Label: views.T(ctx, "console.webhooks.event."+e), Checked: true})
	}
	return p
}

func galleryWebhook(ctx context.Context, f views.Fixture, active bool, n int, older bool) WebhookProps {
	p := WebhookProps{Head: galleryHead(), Webhook: galleryRow(ctx, f, 1, active)}
	p.Facts = []consoleviews.Pair{
		{Label: views.T(ctx, "console.webhooks.col.url"), Value: p.Webhook.URL},
		{Label: views.T(ctx, "console.webhooks.col.events"), Value: p.Webhook.Events[0]},
		{Label: views.T(ctx, "console.webhooks.col.state"), Value: p.Webhook.State},
		{Label: views.T(ctx, "console.webhooks.col.created"), Value: p.Webhook.Created},
	}
	statuses := []struct {
		status, http, latency, err string
		attempts                   int
	}{
		{"delivered", "200", "84", "", 1},
		{"pending", "503", "1204", "HTTP 503", 3},
		{"failed", "—", "—", "no answer within 10s", 31},
		{"delivered", "204", "37", "", 2},
		{"pending", "—", "—", "", 0},
		{"failed", "—", "9", "dial tcp 203.0.113.9:443: connect: connection refused", 29},
		{"delivered", "202", "2310", "", 1},
	}
	start := 0
	if older {
		start = 50
	}
	for i := range n {
		s := statuses[i%len(statuses)]
		at := f.Now.Add(-time.Duration(start+i*41+2) * time.Minute)
		d := DeliveryRow{
			ID: galleryID(100 + start + i), Event: views.T(ctx, "console.webhooks.event."+galleryEvents[i%3]),
			Participation: galleryID(500 + start + i), Status: views.T(ctx, "console.webhooks.status."+s.status), StatusCode: s.status,
			Attempts: s.attempts, HTTP: s.http, Latency: s.latency, When: galleryWhen(at), LastAttempt: "—", Error: s.err,
		}
		if s.latency != "—" {
			d.Latency = views.Tf(ctx, "console.webhooks.ms", map[string]any{"Count": s.latency})
		}
		if s.attempts > 0 {
			d.LastAttempt = galleryWhen(at.Add(time.Duration(s.attempts) * time.Minute))
		}
		d.Resend = WebhookPath("demo", p.Webhook.ID) + "/deliveries/" + d.ID + "/resend"
		p.Deliveries = append(p.Deliveries, d)
	}
	if n > 0 && !older {
		p.Next = WebhookPath("demo", p.Webhook.ID) + "?after=MjAyNi0xMS0yOVQxMDowMDowMFogMDE5MmYzYTQ"
	}
	return p
}
