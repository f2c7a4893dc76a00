package resultviews

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the results part's states for the development gallery: the summary (every
// kind of question, a filter in force with a cross-tab, a refused filter, a campaign nobody
// answered yet, long labels, responses too many to download at once), the responses table
// (first and middle page, nothing found), one respondent's answers, a text question's answers
// searched and paged, and an export job queued, running at 40 %, done and failed
// (modules/results).
func Gallery() []views.GalleryState {
	state := func(name, path string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Page: galleryConsolePage, View: view}
	}
	id := galleryCampaignID(1)
	summary := SummaryPath("demo", id)
	return []views.GalleryState{
		state("summary-every-kind", summary, func(ctx context.Context, f views.Fixture) templ.Component {
			return Summary(gallerySummary(ctx, f, galleryFilterOf{}, 1))
		}),
		state("summary-filtered-cross-tab", summary, func(ctx context.Context, f views.Fixture) templ.Component {
			p := gallerySummary(ctx, f, galleryFilterOf{outcome: "all", from: "2026-10-20", to: "2026-11-03", lang: "es", answer: "q_cups=two"}, 0.18)
			p.CrossForm = galleryCrossForm(ctx, "q_when", "q_cups")
			p.CrossTab = galleryCross()
			return Summary(p)
		}),
		state("summary-refused-filter", summary, func(ctx context.Context, f views.Fixture) templ.Component {
			p := gallerySummary(ctx, f, galleryFilterOf{from: "2026-11-31"}, 1)
			p.Filter.Error = views.T(ctx, "console.results.error.date")
			return Summary(p)
		}),
		state("summary-no-responses", SummaryPath("demo", galleryCampaignID(2)), func(ctx context.Context, f views.Fixture) templ.Component {
			p := gallerySummary(ctx, f, galleryFilterOf{}, 0)
			p.CampaignID, p.Name = galleryCampaignID(2), "Tea or coffee? Autumn 2026"
			return Summary(p)
		}),
		state("summary-long-labels", SummaryPath("demo", galleryCampaignID(3)), func(ctx context.Context, f views.Fixture) templ.Component {
			return Summary(galleryLongSummary(ctx, f))
		}),
		state("summary-prepare-exports", summary, func(ctx context.Context, f views.Fixture) templ.Component {
			return Summary(galleryPrepareSummary(ctx, f))
		}),
		state("export-queued", ExportJobPath("demo", id, galleryExportID(1)), func(ctx context.Context, f views.Fixture) templ.Component {
			return Export(galleryExport(ctx, f, ExportQueued))
		}),
		state("export-running", ExportJobPath("demo", id, galleryExportID(1)), func(ctx context.Context, f views.Fixture) templ.Component {
			return Export(galleryExport(ctx, f, ExportRunning))
		}),
		state("export-done", ExportJobPath("demo", id, galleryExportID(1)), func(ctx context.Context, f views.Fixture) templ.Component {
			return Export(galleryExport(ctx, f, ExportDone))
		}),
		state("export-failed", ExportJobPath("demo", id, galleryExportID(1)), func(ctx context.Context, f views.Fixture) templ.Component {
			return Export(galleryExport(ctx, f, ExportFailed))
		}),
		state("responses-first-page", ResponsesPath("demo", id), func(ctx context.Context, f views.Fixture) templ.Component {
			return Responses(galleryResponses(ctx, f, 1, 25, true))
		}),
		state("responses-middle-page", ResponsesPath("demo", id), func(ctx context.Context, f views.Fixture) templ.Component {
			return Responses(galleryResponses(ctx, f, 3, 25, true))
		}),
		state("responses-empty", ResponsesPath("demo", id), func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryResponses(ctx, f, 1, 0, false)
			p.Filter = galleryFilter(ctx, galleryFilterOf{lang: "zh", quota: "heavy-drinkers"})
			return Responses(p)
		}),
		state("response", ResponsePath("demo", id, galleryParticipationID(7)), func(ctx context.Context, f views.Fixture) templ.Component {
			return Response(galleryResponse(ctx, f))
		}),
		state("text-search-paged", TextPath("demo", id, "q_improve"), func(ctx context.Context, f views.Fixture) templ.Component {
			return Text(galleryText(ctx, f))
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

func galleryParticipationID(n int) string {
	return fmt.Sprintf("0192f3b7-4e1a-7c2d-8f30-%012x", 0x2a3b4c5d6e00+n)
}

func galleryHead(id, name, lang string) Head {
	return Head{Email: galleryEmail, PanelKey: "demo", CampaignID: id, Name: name, Lang: lang}
}

// galleryWhen is a time as the console shows it (UTC).
func galleryWhen(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// galleryPct is a share as the module writes it: "42 %".
func galleryPct(share float64) string { return strconv.Itoa(int(math.Round(share*100))) + " %" }

// galleryBars are counts as bars, their shares of "of" people.
func galleryBars(codes, labels []string, counts []int, of int) []Bar {
	out := make([]Bar, 0, len(labels))
	for i, l := range labels {
		share := 0.0
		if of > 0 {
			share = float64(counts[i]) / float64(of)
		}
		out = append(out, Bar{Code: codes[i], Label: l, Count: counts[i], Share: share, ShareText: galleryPct(share)})
	}
	return out
}

// scaled is n scaled by a filter that keeps a share k of the people.
func scaled(n int, k float64) int { return int(math.Round(float64(n) * k)) }

func scaledAll(ns []int, k float64) []int {
	out := make([]int, len(ns))
	for i, n := range ns {
		out[i] = scaled(n, k)
	}
	return out
}

func sum(ns []int) int {
	t := 0
	for _, n := range ns {
		t += n
	}
	return t
}

// galleryFilterOf is the filter a state is shown with ("" the defaults: completes, any).
type galleryFilterOf struct {
	outcome, from, to, lang, quota, answer string
}

// galleryQuestion is a question of the coffee survey, as the campaign defines it.
type galleryQuestion struct {
	id, control, kind, text string
	codes, options          []string
	counts                  []int
}

// galleryCoffee is the coffee habits survey's questions with the options they count.
var galleryCoffee = []galleryQuestion{
	{id: "q_cups", control: "radio", kind: KindChoice, text: "How many cups of coffee do you drink on a usual day?",
		codes: []string{"none", "one", "two", "three_four", "five_more"}, options: []string{"None", "One", "Two", "Three or four", "Five or more"},
		counts: []int{38, 112, 146, 89, 27}},
	{id: "q_when", control: "checkbox", kind: KindMulti, text: "When do you usually drink coffee? Choose all that apply.",
		codes: []string{"before_work", "mid_morning", "lunch", "afternoon", "evening"}, options: []string{"Before work or school", "Mid-morning", "With lunch", "Mid-afternoon", "In the evening"},
		counts: []int{298, 171, 64, 203, 58}},
	{id: "q_taste", control: "likert", kind: KindScale, text: "How much do you enjoy the taste of black coffee, without milk or sugar?",
		codes: []string{"1", "2", "3", "4", "5"}, options: []string{"1 – Strongly dislike", "2 – Dislike", "3 – Neither like nor dislike", "4 – Like", "5 – Strongly like"},
		counts: []int{41, 63, 88, 117, 103}},
	{id: "q_recommend", control: "nps", kind: KindNPS, text: "How likely are you to recommend your usual coffee shop to a friend or colleague?",
		codes: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}, options: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"},
		counts: []int{6, 3, 5, 8, 9, 22, 27, 41, 66, 58, 67}},
	{id: "q_drinks", control: "grid", kind: KindGrid, text: "How often do you drink each of these?"},
	{id: "q_rank", control: "ranking", kind: KindRanking, text: "Rank these from most to least important when you choose where to buy a coffee."},
	{id: "q_beans", control: "most_least", kind: KindMaxDiff, text: "Which of these matters most, and which least, when you buy coffee beans for home?"},
	{id: "q_improve", control: "textarea", kind: KindText, text: "What would make you visit a coffee shop more often?"},
	{id: "q_where", control: "location", kind: KindRecord, text: "Where do you usually buy your coffee?",
		codes: []string{"london", "manchester", "birmingham", "elsewhere", "not_shared"}, options: []string{"London", "Manchester", "Birmingham", "Elsewhere in the United Kingdom", "Location not shared"},
		counts: []int{88, 41, 33, 160, 90}},
	{id: "q_ad", control: "video", kind: KindRecord, text: "Please watch this 20-second advert for a new oat-milk latte."},
}

// galleryTexts are answers to "What would make you visit a coffee shop more often?".
var galleryTexts = []string{
	"Cheaper refills if I bring my own cup.",
	"More seats with a socket so I can work there for an hour or two. At the moment every table near a plug is taken by 9 am and I end up taking my coffee back to the office, which defeats the point.",
	"Opening before 7 on weekdays.",
	"Decaf that actually tastes like coffee!",
	"A loyalty card that works across the chain and not only in the shop where I got it — I have three half-full cards in my wallet right now.",
	"Oat milk without the 45p surcharge",
	"nothing really, I mostly make it at home",
	"Quieter music 🙂",
	"Better pastries. The croissants at the one near the station are stale by lunchtime.",
	"https://www.example.org/menu-suggestions/seasonal-drinks-2026-autumn-pumpkin-spice-alternatives",
	"Faster service at lunchtime: the queue at 12:30 is often 15 minutes long.",
	"If they roasted their own beans on site.",
}

func galleryOutcomeCodes() []string {
	return []string{"completed", "screened", "quota_full", "disqualified", "abandoned"}
}

// galleryFilter is the filter form as the module fills it for sel.
func galleryFilter(ctx context.Context, sel galleryFilterOf) Filter {
	f := Filter{From: sel.from, To: sel.to}
	outcome := sel.outcome
	if outcome == "" {
		outcome = "completed"
	}
	q := url.Values{}
	for _, o := range append(galleryOutcomeCodes(), "all") {
		f.Outcomes = append(f.Outcomes, Choice{Value: o, Label: views.T(ctx, "console.results.outcome."+o), Selected: o == outcome})
		if o == outcome && o != "completed" {
			q.Set("outcome", o)
			f.Active = append(f.Active, views.Tf(ctx, "console.results.filter.outcome", map[string]any{"Outcome": views.T(ctx, "console.results.outcome."+o)}))
		}
	}
	if sel.from != "" || sel.to != "" {
		if sel.from != "" {
			q.Set("from", sel.from)
		}
		if sel.to != "" {
			q.Set("to", sel.to)
		}
		from, to := sel.from, sel.to
		if from == "" {
			from = "…"
		}
		if to == "" {
			to = "…"
		}
		f.Active = append(f.Active, views.Tf(ctx, "console.results.filter.dates", map[string]any{"From": from, "To": to}))
	}
	f.Languages = []Choice{{Value: "", Label: views.T(ctx, "console.results.any_language"), Selected: sel.lang == ""}}
	for _, l := range []struct{ code, name string }{{"en", "English"}, {"es", "Español"}, {"ru", "Русский"}, {"zh", "中文"}} {
		f.Languages = append(f.Languages, Choice{Value: l.code, Label: l.name, Selected: l.code == sel.lang})
		if l.code == sel.lang {
			q.Set("lang", l.code)
			f.Active = append(f.Active, views.Tf(ctx, "console.results.filter.language", map[string]any{"Language": l.name}))
		}
	}
	f.Quotas = []Choice{{Value: "", Label: views.T(ctx, "console.results.any_quota"), Selected: sel.quota == ""}}
	for _, k := range []string{"heavy-drinkers", "light-drinkers", "students-in-scotland"} {
		f.Quotas = append(f.Quotas, Choice{Value: k, Label: k, Selected: k == sel.quota})
		if k == sel.quota {
			q.Set("quota", k)
			f.Active = append(f.Active, views.Tf(ctx, "console.results.filter.quota", map[string]any{"Quota": k}))
		}
	}
	f.Answers = []Choice{{Value: "", Label: views.T(ctx, "console.results.no_answer_filter"), Selected: sel.answer == ""}}
	for n, gq := range galleryCoffee {
		if gq.kind != KindChoice && gq.kind != KindMulti && gq.kind != KindScale {
			continue
		}
		for i, code := range gq.codes {
			v := gq.id + "=" + code
			label := views.Tf(ctx, "console.results.filter.answer", map[string]any{"N": n + 1, "Option": gq.options[i]})
			f.Answers = append(f.Answers, Choice{Value: v, Label: label, Selected: v == sel.answer})
			if v == sel.answer {
				q.Set("answer", v)
				f.Active = append(f.Active, label)
			}
		}
	}
	f.Query = q.Encode()
	return f
}

// gallerySummary is the coffee survey's summary with a filter that keeps a share k of the
// people (0: nobody answered yet).
func gallerySummary(ctx context.Context, f views.Fixture, sel galleryFilterOf, k float64) SummaryProps {
	p := SummaryProps{Head: galleryHead(galleryCampaignID(1), "Coffee habits 2026", "en"), Filter: galleryFilter(ctx, sel)}
	outcomes := scaledAll([]int{412, 96, 31, 18, 55}, k)
	var labels []string
	for _, o := range galleryOutcomeCodes() {
		labels = append(labels, views.T(ctx, "console.results.outcome."+o))
	}
	total := sum(outcomes)
	p.Overview = Overview{Responses: total, Outcomes: galleryBars(galleryOutcomeCodes(), labels, outcomes, total), CompletionRate: "—", MedianMinutes: "—"}
	if total > 0 {
		p.Overview.CompletionRate = galleryPct(float64(outcomes[0]) / float64(total))
		p.Overview.MedianMinutes = "11.5"
		start := f.Now.AddDate(0, 0, -20)
		for d := range 21 {
			day := start.AddDate(0, 0, d)
			n := scaled([]int{64, 51, 38, 29, 33, 22, 12, 9, 31, 27, 24, 0, 0, 18, 26, 41, 37, 30, 25, 41, 35}[d], k)
			p.Overview.PerDay = append(p.Overview.PerDay, Day{Date: day.Format("2006-01-02"), Label: day.Format("2 Jan 2006"), Count: n})
		}
	}
	p.CrossForm = galleryCrossForm(ctx, "", "")
	for n, gq := range galleryCoffee {
		p.Questions = append(p.Questions, galleryResult(ctx, f, p.Head, p.Filter, n+1, gq, k))
	}
	return p
}

// galleryResult is one question's result as the module computes it.
func galleryResult(ctx context.Context, f views.Fixture, h Head, filter Filter, n int, gq galleryQuestion, k float64) Question {
	q := Question{N: n, ID: gq.id, Text: gq.text, Lang: h.Lang, Control: gq.control, ControlLabel: views.T(ctx, "console.results.control."+gq.control), Kind: gq.kind}
	counts := scaledAll(gq.counts, k)
	switch gq.kind {
	case KindChoice, KindScale, KindRecord:
		q.Answered = sum(counts)
		if gq.id == "q_ad" {
			q.Answered = scaled(309, k)
			counts = []int{scaled(301, k)}
			q.Bars = galleryBars([]string{"watched"}, []string{views.T(ctx, "console.results.watched")}, counts, q.Answered)
			break
		}
		q.Bars = galleryBars(gq.codes, gq.options, counts, q.Answered)
		if gq.kind == KindScale && q.Answered > 0 {
			mean := 0.0
			for i, c := range counts {
				mean += float64((i+1)*c) / float64(q.Answered)
			}
			q.Stats = []Stat{{Label: views.T(ctx, "console.results.mean"), Value: strconv.FormatFloat(mean, 'f', 1, 64)}, {Label: views.T(ctx, "console.results.median"), Value: "4"}}
		}
	case KindMulti:
		q.Answered = scaled(374, k)
		q.Note = views.T(ctx, "console.results.multi_note")
		q.Bars = galleryBars(gq.codes, gq.options, counts, q.Answered)
	case KindNPS:
		q.Answered = sum(counts)
		q.Bars = galleryBars(gq.codes, gq.options, counts, q.Answered)
		det, pas, pro := sum(counts[:7]), sum(counts[7:9]), sum(counts[9:])
		groups := galleryBars([]string{"promoters", "passives", "detractors"},
			[]string{views.T(ctx, "console.results.nps.promoters"), views.T(ctx, "console.results.nps.passives"), views.T(ctx, "console.results.nps.detractors")},
			[]int{pro, pas, det}, q.Answered)
		score := "—"
		if q.Answered > 0 {
			score = fmt.Sprintf("%+d", int(math.Round(float64(pro-det)*100/float64(q.Answered))))
		}
		q.NPS = &NPS{Promoters: groups[0], Passives: groups[1], Detractors: groups[2], Score: score}
	case KindGrid:
		rows := []string{"Espresso", "Filter coffee", "Latte or cappuccino", "Instant coffee", "Cold brew"}
		cells := [][]int{{61, 84, 70, 167}, {143, 96, 38, 105}, {118, 152, 61, 51}, {72, 58, 49, 203}, {9, 27, 66, 280}}
		q.Grid = &Grid{Columns: []string{"Every day", "Every week", "Every month", "Less often or never"}}
		for i, r := range rows {
			row := GridRow{Label: r, N: scaled(sum(cells[i]), k)}
			for _, c := range cells[i] {
				c = scaled(c, k)
				share := 0.0
				if row.N > 0 {
					share = float64(c) / float64(row.N)
				}
				row.Cells = append(row.Cells, Cell{Count: c, Share: share, ShareText: galleryPct(share)})
			}
			q.Grid.Rows = append(q.Grid.Rows, row)
		}
		q.Answered = scaled(382, k)
	case KindRanking:
		q.Answered = scaled(371, k)
		for _, it := range []struct {
			label string
			avg   float64
			first int
		}{{"Taste of the coffee", 1.8, 162}, {"Price", 2.4, 97}, {"Close to home or work", 2.9, 61}, {"Friendly staff", 3.7, 30}, {"Ethically sourced beans", 4.2, 21}} {
			q.Items = append(q.Items, Item{Label: it.label, Value: it.avg, ValueText: strconv.FormatFloat(it.avg, 'f', 1, 64),
				Detail: views.Tf(ctx, "console.results.ranking_detail", map[string]any{"First": scaled(it.first, k)})})
		}
	case KindMaxDiff:
		q.Answered = scaled(366, k)
		for _, it := range []struct {
			label       string
			best, worst int
		}{{"Roast date", 131, 35}, {"Country or farm of origin", 92, 51}, {"Organic label", 61, 58}, {"Price per bag", 49, 71}, {"Packaging that can be recycled", 20, 67}, {"The brand", 13, 84}} {
			b, w := scaled(it.best, k), scaled(it.worst, k)
			q.Items = append(q.Items, Item{Label: it.label, Value: float64(b - w), ValueText: galleryDiff(b - w),
				Detail: views.Tf(ctx, "console.results.maxdiff_detail", map[string]any{"Best": b, "Worst": w})})
		}
	case KindText:
		q.Answered = scaled(287, k)
		q.Texts = &Texts{}
		for i, t := range galleryTexts[:min(5, q.Answered)] {
			q.Texts.Answers = append(q.Texts.Answers, TextAnswer{Text: t, When: galleryWhen(f.Now.Add(-time.Duration(i*97+14) * time.Minute))})
		}
	}
	return q
}

// galleryDiff is best - worst as the module writes it: "+96", "−22", "0".
func galleryDiff(n int) string {
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return "−" + strconv.Itoa(-n)
	}
	return "0"
}

// galleryCrossForm offers the questions with options as rows and the single-choice ones as
// columns.
func galleryCrossForm(ctx context.Context, row, col string) CrossForm {
	none := views.T(ctx, "console.results.no_question")
	cf := CrossForm{Rows: []Choice{{Value: "", Label: none, Selected: row == ""}}, Columns: []Choice{{Value: "", Label: none, Selected: col == ""}}}
	for n, gq := range galleryCoffee {
		label := strconv.Itoa(n+1) + ". " + gq.text
		switch gq.kind {
		case KindChoice, KindMulti, KindScale, KindRecord:
			cf.Rows = append(cf.Rows, Choice{Value: gq.id, Label: label, Selected: gq.id == row})
		}
		if gq.control == "radio" || gq.control == "likert" {
			cf.Columns = append(cf.Columns, Choice{Value: gq.id, Label: label, Selected: gq.id == col})
		}
	}
	return cf
}

// galleryCross is "When do you drink coffee?" by "How many cups?": counts and column shares.
func galleryCross() *CrossTab {
	cols := []string{"None", "One", "Two", "Three or four", "Five or more"}
	totals := []int{4, 19, 27, 16, 5}
	rows := []string{"Before work or school", "Mid-morning", "With lunch", "Mid-afternoon", "In the evening"}
	cells := [][]int{{1, 12, 21, 14, 5}, {0, 6, 11, 10, 4}, {0, 2, 4, 5, 2}, {1, 7, 13, 12, 5}, {2, 1, 3, 4, 3}}
	ct := &CrossTab{Row: "When do you usually drink coffee? Choose all that apply.", Column: "How many cups of coffee do you drink on a usual day?",
		Grid: Grid{Columns: cols, Totals: totals}}
	for i, r := range rows {
		row := GridRow{Label: r}
		for j, c := range cells[i] {
			row.N += c
			share := float64(c) / float64(totals[j])
			row.Cells = append(row.Cells, Cell{Count: c, Share: share, ShareText: galleryPct(share)})
		}
		ct.Grid.Rows = append(ct.Grid.Rows, row)
	}
	return ct
}

// galleryLongSummary is a campaign whose texts are long (Russian, a long name, long options,
// a wide grid) with a cross-tab of long labels: the page must wrap, never scroll sideways.
func galleryLongSummary(ctx context.Context, f views.Fixture) SummaryProps {
	p := gallerySummary(ctx, f, galleryFilterOf{quota: "students-in-scotland", answer: "q_when=before_work"}, 0.4)
	p.Head = galleryHead(galleryCampaignID(3), "Привычки, связанные с кофе, чаем и другими горячими напитками дома, на работе и в дороге — третья волна исследования (Россия, Казахстан и Беларусь)", "ru")
	long := []Question{}
	choice := galleryQuestion{id: "q_long_choice", control: "dropdown", kind: KindChoice,
		text:    "Какой из перечисленных ниже вариантов лучше всего описывает то, как вы обычно готовите кофе дома в будние дни, если учитывать только первую чашку после пробуждения?",
		codes:   []string{"machine", "pourover", "instant", "none"},
		options: []string{"В автоматической кофемашине с капучинатором, которая сама мелет зёрна", "Заливаю молотый кофе горячей водой в воронке или во френч-прессе", "Растворимый кофе из банки или из пакетика «три в одном»", "Не пью кофе дома"},
		counts:  []int{121, 87, 164, 48}}
	long = append(long, galleryResult(ctx, f, p.Head, p.Filter, 1, choice, 1))
	grid := Question{N: 2, ID: "q_long_grid", Lang: "ru", Control: "grid", ControlLabel: views.T(ctx, "console.results.control.grid"), Kind: KindGrid, Answered: 402,
		Text: "Насколько вы согласны или не согласны с каждым из следующих утверждений о кофейнях в вашем городе?",
		Grid: &Grid{Columns: []string{"Полностью согласен", "Скорее согласен", "Ни согласен, ни не согласен", "Скорее не согласен", "Полностью не согласен", "Затрудняюсь ответить"}}}
	for i, r := range []string{"Кофейни в моём районе слишком дорогие для ежедневного посещения", "Мне важно, чтобы в кофейне можно было поработать с ноутбуком", "Автоматизированныевендинговыекофейныеаппараты ничем не хуже"} {
		counts := [][]int{{98, 121, 64, 52, 31, 36}, {143, 102, 57, 41, 21, 8}, {12, 33, 97, 105, 88, 37}}[i]
		row := GridRow{Label: r, N: sum(counts)}
		for _, c := range counts {
			share := float64(c) / float64(row.N)
			row.Cells = append(row.Cells, Cell{Count: c, Share: share, ShareText: galleryPct(share)})
		}
		grid.Grid.Rows = append(grid.Grid.Rows, row)
	}
	long = append(long, grid)
	rank := Question{N: 3, ID: "q_long_rank", Lang: "ru", Control: "most_least", ControlLabel: views.T(ctx, "console.results.control.most_least"), Kind: KindMaxDiff, Answered: 388,
		Text: "Что для вас важнее всего и что менее всего важно при выборе кофейни для встречи с друзьями?"}
	for _, it := range []struct {
		label string
		v     int
	}{{"Удобное расположение недалеко от метро или остановки общественного транспорта", 144}, {"Вкусная выпечка и десерты собственного производства", 37}, {"Возможность заказать заранее через мобильное приложение", -58}, {"Тихая музыка", -123}} {
		rank.Items = append(rank.Items, Item{Label: it.label, Value: float64(it.v), ValueText: galleryDiff(it.v),
			Detail: views.Tf(ctx, "console.results.maxdiff_detail", map[string]any{"Best": 160 + it.v/2, "Worst": 160 - it.v/2})})
	}
	long = append(long, rank)
	texts := p.Questions[7]
	texts.N, texts.Lang = 4, "ru"
	texts.Text = "Что могло бы заставить вас чаще заходить в кофейни? Напишите всё, что приходит в голову: цены, ассортимент, обслуживание, атмосфера, расположение, часы работы."
	long = append(long, texts)
	p.Questions = long
	p.CrossForm = CrossForm{
		Rows:    []Choice{{Value: "", Label: views.T(ctx, "console.results.no_question")}, {Value: "q_long_choice", Label: "1. " + choice.text, Selected: true}},
		Columns: []Choice{{Value: "", Label: views.T(ctx, "console.results.no_question")}, {Value: "q_long_choice", Label: "1. " + choice.text, Selected: true}},
	}
	cross := &CrossTab{Row: choice.text, Column: choice.text, Grid: Grid{Columns: choice.options, Totals: choice.counts}}
	for i, o := range choice.options {
		row := GridRow{Label: o, N: choice.counts[i]}
		for j := range choice.options {
			c, share := 0, 0.0
			if i == j {
				c, share = choice.counts[i], 1
			}
			row.Cells = append(row.Cells, Cell{Count: c, Share: share, ShareText: galleryPct(share)})
		}
		cross.Grid.Rows = append(cross.Grid.Rows, row)
	}
	p.CrossTab = cross
	return p
}

// galleryRow is one participation of the responses table.
func galleryRow(ctx context.Context, f views.Fixture, n int) ResponseRow {
	codes := galleryOutcomeCodes()
	outcome := codes[[]int{0, 0, 1, 0, 4, 0, 2, 0, 3, 0, 0, 4}[n%12]]
	status := map[string]string{"abandoned": "started"}[outcome]
	if status == "" {
		status = outcome
	}
	started := f.Now.Add(-time.Duration(n*47+9) * time.Minute)
	finished := galleryWhen(started.Add(time.Duration(6+n%9) * time.Minute))
	if outcome == "abandoned" {
		finished = "—"
	}
	lang := []string{"English", "English", "Español", "中文", "Русский", views.T(ctx, "console.results.unknown_language")}[n%6]
	return ResponseRow{ID: galleryParticipationID(n), Member: fmt.Sprintf("M-%06X", (0x4F7C21+n*7919)%0xFFFFFF), Outcome: status,
		OutcomeLabel: views.T(ctx, "console.results.outcome."+outcome), Started: galleryWhen(started), Finished: finished, Language: lang}
}

// galleryResponses is page of the responses table with n rows; more: there is a next page.
func galleryResponses(ctx context.Context, f views.Fixture, page, n int, more bool) ResponsesProps {
	sel := galleryFilterOf{outcome: "all"}
	p := ResponsesProps{Head: galleryHead(galleryCampaignID(1), "Coffee habits 2026", "en"), Filter: galleryFilter(ctx, sel)}
	for i := range n {
		p.Rows = append(p.Rows, galleryRow(ctx, f, (page-1)*25+i+1))
	}
	base := WithQuery(ResponsesPath("demo", galleryCampaignID(1)), p.Filter.Query)
	if page > 1 {
		p.First = base
	}
	if more {
		p.Next = base + "&before=" + url.QueryEscape(galleryParticipationID(page*25))
	}
	return p
}

// galleryResponse is one respondent's answers to the coffee survey.
func galleryResponse(ctx context.Context, f views.Fixture) ResponseProps {
	p := ResponseProps{Head: galleryHead(galleryCampaignID(1), "Coffee habits 2026", "en"), Row: galleryRow(ctx, f, 7)}
	p.Back = WithQuery(ResponsesPath("demo", galleryCampaignID(1)), "outcome=all")
	answers := []string{
		"Two",
		"Before work or school; Mid-afternoon",
		"4 – Like",
		"9",
		"Espresso: Every week; Filter coffee: Every day; Latte or cappuccino: Every month; Instant coffee: Less often or never; Cold brew: Less often or never",
		"1. Taste of the coffee; 2. Close to home or work; 3. Price; 4. Friendly staff; 5. Ethically sourced beans",
		"Most: Roast date; least: The brand",
		galleryTexts[1],
		"51.5074, -0.1278",
		"—",
	}
	for i, gq := range galleryCoffee {
		p.Answers = append(p.Answers, AnswerRow{N: i + 1, Question: gq.text, Answer: answers[i]})
	}
	return p
}

// galleryText is the second page of the answers to "What would make you visit a coffee shop
// more often?" containing "the".
func galleryText(ctx context.Context, f views.Fixture) TextProps {
	h := galleryHead(galleryCampaignID(1), "Coffee habits 2026", "en")
	filter := galleryFilter(ctx, galleryFilterOf{lang: "en"})
	q := galleryResult(ctx, f, h, filter, 8, galleryCoffee[7], 1)
	path := TextPath("demo", galleryCampaignID(1), q.ID)
	q.Texts = &Texts{Search: "the", First: path + "?lang=en&q=the", Next: path + "?lang=en&page=3&q=the"}
	for i, t := range galleryTexts {
		q.Texts.Answers = append(q.Texts.Answers, TextAnswer{Text: t, When: galleryWhen(f.Now.Add(-time.Duration(i*211+3100) * time.Minute))})
	}
	return TextProps{Head: h, Filter: filter, Question: q, Back: WithQuery(SummaryPath("demo", galleryCampaignID(1)), filter.Query)}
}

func galleryExportID(n int) string {
	return fmt.Sprintf("0193a1c2-7d4e-7f10-9b2c-%012x", 0x7e8f9a0b1c00+n)
}

// galleryExportLimit is the gallery's limit on a direct download: the coffee survey's 612
// responses are above it, so its CSV and workbook are prepared as export jobs.
const galleryExportLimit = 500

// galleryPrepareSummary is the coffee survey's summary when its responses are too many to
// download at once: forms that prepare the CSV and the workbook, the notice of a download
// refused for its size, and the campaign's recent exports in each status.
func galleryPrepareSummary(ctx context.Context, f views.Fixture) SummaryProps {
	p := gallerySummary(ctx, f, galleryFilterOf{outcome: "all"}, 1)
	p.Exports = Exports{Prepare: true, Limit: galleryExportLimit, Responses: p.Overview.Responses,
		Notice: views.Tf(ctx, "console.results.exports.error.too_large", map[string]any{"Max": galleryExportLimit})}
	for i, st := range []string{ExportRunning, ExportDone, ExportFailed, ExportQueued} {
		format := views.T(ctx, "console.results.export.csv")
		if i%2 == 1 {
			format = views.T(ctx, "console.results.export.xlsx")
		}
		p.Exports.Recent = append(p.Exports.Recent, ExportRow{Path: ExportJobPath("demo", p.CampaignID, galleryExportID(i+1)), Status: st,
			StatusLabel: views.T(ctx, "console.results.exports.status."+st),
			Label:       views.Tf(ctx, "console.results.exports.recent_item", map[string]any{"Format": format, "Created": galleryWhen(f.Now.Add(-time.Duration(i*53+2) * time.Minute))})})
	}
	return p
}

// galleryExport is an export job of the coffee survey's responses (every outcome, in
// Spanish, since a date) in status: queued, running at 40 %, done, or failed.
func galleryExport(ctx context.Context, f views.Fixture, status string) ExportProps {
	filter := galleryFilter(ctx, galleryFilterOf{outcome: "all", from: "2026-10-20", lang: "es"})
	id, camp := galleryExportID(1), galleryCampaignID(1)
	created := f.Now.Add(-3 * time.Minute)
	p := ExportProps{Head: galleryHead(camp, "Coffee habits 2026", "en"), ID: id, Format: "csv", FormatLabel: views.T(ctx, "console.results.export.csv"),
		Filter: filter.Active, FilterQuery: filter.Query, Status: status, StatusLabel: views.T(ctx, "console.results.exports.status."+status),
		Total: 48211, Created: galleryWhen(created), Download: ExportDownloadPath("demo", camp, id), Self: ExportJobPath("demo", camp, id),
		Back: WithQuery(SummaryPath("demo", camp), filter.Query)}
	finished := func() {
		p.Finished, p.Expires = galleryWhen(created.Add(95*time.Second)), galleryWhen(created.Add(95*time.Second+24*time.Hour))
	}
	switch status {
	case ExportQueued:
		p.Progress = views.Tf(ctx, "console.results.exports.rows_queued", map[string]any{"Total": p.Total})
		p.Poll = ExportProgressPath("demo", camp, id)
	case ExportRunning:
		p.Done, p.Percent = 19284, "40 %"
		p.Progress = views.Tf(ctx, "console.results.exports.rows_running", map[string]any{"Done": p.Done, "Total": p.Total, "Percent": p.Percent})
		p.Poll = ExportProgressPath("demo", camp, id)
	case ExportDone:
		p.Done, p.Percent, p.Size = p.Total, "100 %", "38.6 MB"
		p.Progress = views.Tf(ctx, "console.results.exports.rows_done", map[string]any{"Done": p.Done})
		finished()
	case ExportFailed:
		p.Total = 0
		p.Progress = views.T(ctx, "console.results.exports.rows_failed")
		p.Error = views.T(ctx, "console.results.exports.error.failed")
		finished()
	}
	return p
}
