package campaignviews

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the campaigns part's states for the development gallery: the list (empty,
// many, filtered to nothing, a refused import), the editor (new, existing, with problems, a
// generated text, and without its island), and a campaign's page in each state
// (modules/console/campaigns).
func Gallery() []views.GalleryState {
	state := func(name, path string, islands []string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Islands: islands, Page: galleryConsolePage, View: view}
	}
	const list = "/console/panels/demo/campaigns"
	// The editor's island (consolecampaigns.editor): its entry and the editor it loads.
	editor := []string{"console-editor", "campaign-editor"}
	return []views.GalleryState{
		state("list-empty", list, nil, func(ctx context.Context, f views.Fixture) templ.Component {
			return List(galleryList(ctx, f, 0, 0))
		}),
		state("list-many", list, nil, func(ctx context.Context, f views.Fixture) templ.Component {
			return List(galleryList(ctx, f, 22, 22))
		}),
		state("list-filtered-none", list, nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 0, 22)
			p.Query, p.State, p.Sort = "christmas shopping", "scheduled", "reward"
			return List(p)
		}),
		state("list-imported", list, nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 4, 4)
			p.Notice = views.T(ctx, "console.campaigns.done.imported")
			return List(p)
		}),
		state("list-import-refused", list, nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 3, 3)
			p.Error = views.Tf(ctx, "console.campaigns.import_refused", map[string]any{"File": "household-streaming-and-television-habits-2026-final-v3.yaml"})
			p.Problems = galleryProblems
			return List(p)
		}),
		state("list-bad-file", list, nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryList(ctx, f, 3, 3)
			p.Error = views.T(ctx, "console.campaigns.bad_file")
			return List(p)
		}),
		state("editor-new", list+"/new", editor, func(ctx context.Context, f views.Fixture) templ.Component {
			return Editor(galleryEditor(ctx, EditorProps{Format: "yaml", Document: gallerySkeleton}))
		}),
		state("editor-new-without-script", list+"/new", nil, func(ctx context.Context, f views.Fixture) templ.Component {
			return Editor(galleryEditor(ctx, EditorProps{Format: "yaml", Document: gallerySkeleton}))
		}),
		state("editor-saved", list+"/"+galleryCampaignID(1)+"/edit", editor, func(ctx context.Context, f views.Fixture) templ.Component {
			return Editor(galleryEditor(ctx, EditorProps{ID: galleryCampaignID(1), Name: galleryNames[1], Format: "yaml", Document: galleryDocument,
				Notice: views.T(ctx, "console.campaigns.done.saved"), Previews: galleryPreviews(f)}))
		}),
		state("editor-problems", list+"/"+galleryCampaignID(1)+"/edit", editor, func(ctx context.Context, f views.Fixture) templ.Component {
			return Editor(galleryEditor(ctx, EditorProps{ID: galleryCampaignID(1), Name: galleryNames[1], Format: "yaml", Document: galleryDocument,
				Problems: galleryProblems, Previews: galleryPreviews(f)}))
		}),
		state("editor-generated-json", list+"/"+galleryCampaignID(2)+"/edit", editor, func(ctx context.Context, f views.Fixture) templ.Component {
			return Editor(galleryEditor(ctx, EditorProps{ID: galleryCampaignID(2), Name: galleryNames[2], Format: "json", Document: galleryJSON, Generated: true,
				Notice: views.T(ctx, "console.campaigns.done.duplicated")}))
		}),
		state("campaign-open", list+"/"+galleryCampaignID(1), nil, func(ctx context.Context, f views.Fixture) templ.Component {
			return Campaign(galleryCampaign(ctx, f, "open"))
		}),
		state("campaign-scheduled", list+"/"+galleryCampaignID(3), nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryCampaign(ctx, f, "scheduled")
			p.Notice = views.T(ctx, "console.campaigns.done.created")
			return Campaign(p)
		}),
		state("campaign-closed", list+"/"+galleryCampaignID(4), nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryCampaign(ctx, f, "closed")
			p.Notice = views.T(ctx, "console.campaigns.done.closed")
			return Campaign(p)
		}),
		state("campaign-quota-full", list+"/"+galleryCampaignID(5), nil, func(ctx context.Context, f views.Fixture) templ.Component {
			return Campaign(galleryCampaign(ctx, f, "full"))
		}),
		state("campaign-quota-refused", list+"/"+galleryCampaignID(1), nil, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryCampaign(ctx, f, "open")
			p.QuotaError = views.T(ctx, "console.campaigns.bad_limit")
			return Campaign(p)
		}),
	}
}

// galleryConsolePage is the page as the console's handlers make it: the console's own name,
// no panel languages.
func galleryConsolePage(p *views.Page) {
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
}

const galleryEmail = "alexandra.konstantinopoulou@example-company.co.uk"

func galleryCampaignID(n int) string {
	return fmt.Sprintf("0192f3a4-9c2d-7e1f-a034-%012x", 0x5e6f7a8b9c00+n)
}

// galleryMoney is an amount as the console shows it: "12.50 USD".
func galleryMoney(f views.Fixture, minor int64) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%02d %s", sign, minor/100, minor%100, f.Currency)
}

// galleryWhen is a time as the console shows it (UTC).
func galleryWhen(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// galleryNames are campaign names of the lengths operators give them.
var galleryNames = []string{
	"Quick poll",
	"Streaming, television and the evenings of households with more than one screen — wave 3 (United Kingdom and Ireland)",
	"Tea or coffee? (copy)",
	"Christmas shopping 2026",
	"Your commute",
	"Summer travel draw",
	"Grocery prices and the weekly shop",
	"Welcome survey",
}

var galleryStates = []string{"open", "open", "closed", "scheduled", "full", "open", "closed", "open"}

func galleryStateOptions(ctx context.Context) []Option {
	var out []Option
	for _, s := range []string{"open", "scheduled", "closed", "full"} {
		out = append(out, Option{Value: s, Label: views.T(ctx, "console.campaigns.state."+s)})
	}
	return out
}

// galleryList is the list with n campaigns shown of total, as consolecampaigns.renderList fills it.
func galleryList(ctx context.Context, f views.Fixture, n, total int) ListProps {
	p := ListProps{Email: galleryEmail, PanelKey: "demo", PanelName: "Canvass Demo", Total: total, Sort: "name", States: galleryStateOptions(ctx)}
	for _, s := range []string{"name", "completes", "reward", "opens"} {
		p.Sorts = append(p.Sorts, Option{Value: s, Label: views.T(ctx, "console.campaigns.sort."+s)})
	}
	for i := range n {
		name := galleryNames[i%len(galleryNames)]
		if i >= len(galleryNames) {
			name += " " + strconv.Itoa(i/len(galleryNames)+1)
		}
		state := galleryStates[i%len(galleryStates)]
		fill := "—"
		if i%3 != 2 {
			limit := 100 + 150*(i%4)
			done := (i * 37) % limit
			if state == "full" {
				done = limit
			}
			fill = strconv.Itoa(done) + " / " + strconv.Itoa(limit)
		}
		lang := "en"
		if i%7 == 5 {
			name, lang = "Привычки покупок в интернете и доставка на дом", "ru"
		}
		p.Rows = append(p.Rows, ListRow{
			ID: galleryCampaignID(i + 1), Name: name, Lang: lang, State: state, StateLabel: views.T(ctx, "console.campaigns.state."+state),
			Completes: (i * 173) % 4200, QuotaFill: fill, Reward: galleryMoney(f, int64(25+i*85)),
			Opens: galleryWhen(f.Now.AddDate(0, 0, 14-i*9)), Href: "/console/panels/demo/campaigns/" + galleryCampaignID(i+1),
		})
	}
	return p
}

// galleryProblems are a refused document's problems, with and without a line and a path.
var galleryProblems = []Problem{
	{Line: 3, Path: "default_language", Message: "\"fr\" is not one of the panel's languages (en, es, ru, zh)"},
	{Line: 12, Path: "questions[0].answers[1].id", Message: "the answer id \"yes\" is used twice in this question"},
	{Line: 27, Path: "questions[2].routing[0].when.answer_to.q_household_screens_and_devices", Message: "routing names a question that does not exist before this one"},
	{Line: 41, Path: "quotas[1].limit", Message: "a quota's limit is a whole number of at least 1"},
	{Path: "reward", Message: "the reward is above the panel's highest reward for a 10-minute survey"},
	{Message: "a campaign needs at least one question"},
}

const gallerySkeleton = `uuid: 0192f3a4-9c2d-7e1f-a034-5e6f7a8b9cff
type: survey
default_language: en
name: "New campaign"
reward: "1.00"
estimated_minutes: 5
questions:
  - id: q1
    control_type: radio
    text: "Pick one"
    answers:
      - {id: "yes", text: "Yes"}
      - {id: "no", text: "No"}
`

const galleryDocument = `uuid: 0192f3a4-9c2d-7e1f-a034-5e6f7a8b9c01
type: survey
default_language: en
name:
  en: "Streaming, television and the evenings of households with more than one screen — wave 3 (United Kingdom and Ireland)"
  es: "Streaming, televisión y las noches de los hogares con más de una pantalla — ola 3"
reward: "1.25"
estimated_minutes: 12
opens_at: 2026-11-01T08:00:00Z
closes_at: 2026-12-15T23:59:00Z
quotas:
  - id: under-35
    limit: 400
    when: [{question: q_age, answers: ["18-24", "25-34"]}]
  - id: over-35
    limit: 600
questions:
  - id: q_age
    control_type: radio
    text: "How old are you?"
    answers:
      - {id: "18-24", text: "18 to 24"}
      - {id: "25-34", text: "25 to 34"}
      - {id: "35+", text: "35 or older"}
  - id: q_screens
    control_type: checkbox
    text: "On which screens does your household watch streamed programmes in the evening, between 6 pm and midnight, on a usual weekday?"
    answers:
      - {id: tv, text: "A television"}
      - {id: laptop, text: "A laptop or a computer"}
      - {id: tablet, text: "A tablet"}
      - {id: phone, text: "A phone"}
`

const galleryJSON = `{
  "uuid": "0192f3a4-9c2d-7e1f-a034-5e6f7a8b9c02",
  "type": "survey",
  "default_language": "en",
  "name": {"en": "Tea or coffee? (copy)"},
  "reward": "0.50",
  "estimated_minutes": 2,
  "questions": [
    {"id": "q1", "control_type": "radio", "text": "Tea or coffee?", "answers": [{"id": "tea", "text": "Tea"}, {"id": "coffee", "text": "Coffee"}]}
  ]
}
`

// galleryPreviews are the signed preview links of a campaign in the panel's languages.
func galleryPreviews(f views.Fixture) []PreviewLink {
	exp := strconv.FormatInt(f.Now.Add(72*time.Hour).Unix(), 10)
	var out []PreviewLink
	for _, l := range []struct{ code, name string }{{"en", "English"}, {"es", "Español"}, {"ru", "Русский"}, {"zh", "中文"}} {
		out = append(out, PreviewLink{Lang: l.code, Label: l.name,
			Href: "https://demo.canvass.test/survey/" + galleryCampaignID(1) + "/preview/" + l.code + "/" + exp + "/9f2c4e1a7b3d5f6e8a0c2b4d6f8e1a3c"})
	}
	return out
}

func galleryEditor(ctx context.Context, p EditorProps) EditorProps {
	p.Email, p.PanelKey, p.PanelName = galleryEmail, "demo", "Canvass Demo"
	p.Island = map[string]any{
		"validateURL": "/console/panels/demo/campaigns/validate",
		"id":          p.ID,
		"texts": map[string]string{
			"label":    views.T(ctx, "console.campaigns.document"),
			"checking": views.T(ctx, "console.campaigns.checking"),
			"valid":    views.T(ctx, "console.campaigns.valid"),
			"invalid":  views.Tf(ctx, "console.campaigns.invalid", map[string]any{"Count": "{n}"}),
			"failed":   views.T(ctx, "console.campaigns.check_failed"),
			"line":     views.Tf(ctx, "console.campaigns.line", map[string]any{"Line": "{n}"}),
		},
	}
	return p
}

// galleryCampaign is a campaign's page in a state, as consolecampaigns.renderCampaign fills it.
func galleryCampaign(ctx context.Context, f views.Fixture, state string) CampaignProps {
	p := CampaignProps{
		Email: galleryEmail, PanelKey: "demo", PanelName: "Canvass Demo", ID: galleryCampaignID(1), Name: galleryNames[1], Lang: "en",
		State: state, StateLabel: views.T(ctx, "console.campaigns.state."+state), Type: "survey", Reward: galleryMoney(f, 125),
		Opens: galleryWhen(f.Now.AddDate(0, 0, -2)), Closes: galleryWhen(f.Now.AddDate(0, 1, 12)), Median: "—",
		Previews: galleryPreviews(f), DuplicateKey: "0192f3a4-dddd-7e1f-a034-5e6f7a8b9c99",
		CanOpen: state == "closed" || state == "scheduled", CanClose: state != "closed",
	}
	funnel := [7]int{1834, 1203, 312, 41, 97, 168, 13}
	quotas := []QuotaRow{
		{ID: "under-35", Limit: 400, Completes: 388, When: `[{"question":"q_age","answers":["18-24","25-34"]}]`},
		{ID: "over-35", Limit: 600, Completes: 815, When: "—"},
		{ID: "households-with-three-or-more-screens-in-scotland", Limit: 150, Completes: 150,
			When: `[{"question":"q_screens","answers":["tv","laptop","tablet","phone"],"min":3},{"question":"q_region","answers":["scotland"]}]`},
	}
	switch state {
	case "scheduled":
		p.ID, p.Name = galleryCampaignID(3), galleryNames[3]
		p.Opens = galleryWhen(f.Now.AddDate(0, 0, 20))
		funnel, quotas = [7]int{}, quotas[:2]
		for i := range quotas {
			quotas[i].Completes = 0
		}
	case "closed":
		p.ID, p.Name, p.Reward = galleryCampaignID(4), galleryNames[2], galleryMoney(f, 50)
		p.Opens, p.Closes = "—", "—"
		funnel, quotas = [7]int{}, nil
	case "full":
		p.ID, p.Name = galleryCampaignID(5), galleryNames[4]
		quotas[0].Completes, quotas[1].Completes = 400, 600
	}
	for i, step := range []string{"started", "completed", "screened", "disqualified", "quota_full", "in_progress", "other"} {
		share := "—"
		if funnel[0] > 0 {
			share = strconv.FormatFloat(float64(funnel[i])*100/float64(funnel[0]), 'f', 0, 64) + " %"
		}
		p.Funnel = append(p.Funnel, FunnelRow{Label: views.T(ctx, "console.campaigns.step."+step), Count: funnel[i], Share: share})
	}
	if funnel[1] > 0 {
		p.Median = views.Tf(ctx, "console.campaigns.minutes", map[string]any{"Minutes": "11.5"})
	}
	p.Quotas = quotas
	return p
}
