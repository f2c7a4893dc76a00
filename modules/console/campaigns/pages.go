package consolecampaigns

import (
	"cmp"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	campaignviews "github.com/canvass/canvass/views/console/campaigns"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// when is a time as the console shows it (console.When).
var when = console.When

func money(minor int64, currency string) string {
	return web.MoneyString(minor, currency) + " " + currency
}

func (p *Part) email(c fiber.Ctx) string {
	if op := console.OperatorOf(c); op != nil {
		return op.Email
	}
	return ""
}

// nameOf is a campaign's name as the console shows it: in its default language, with that
// language for the page's lang attribute.
func nameOf(names campaigns.Text, defaultLang string) (string, string) {
	if names.Has(defaultLang) {
		return names[defaultLang], defaultLang
	}
	return names.In(defaultLang, ""), defaultLang
}

// Sorts of the list: each one's own direction (names A to Z, the most completes, the highest
// reward and the latest opening first).
var sorts = []string{"name", "completes", "reward", "opens"}

// listed is a campaign of the list, with its completes.
type listed struct {
	campaigns.ConsoleRow
	name, lang string
	completes  int
}

// listQuery is the list's filter and order, from the query string.
type listQuery struct {
	q, state, sort string
}

func queryOf(c fiber.Ctx) listQuery {
	q := listQuery{q: strings.TrimSpace(c.Query("q")), state: c.Query("state"), sort: c.Query("sort")}
	if !slices.Contains(campaigns.States, q.state) {
		q.state = ""
	}
	if !slices.Contains(sorts, q.sort) {
		q.sort = "name"
	}
	return q
}

// list is the panel's campaigns with their completes, filtered and sorted; total counts them all.
func (p *Part) list(c fiber.Ctx, panel *web.Panel, q listQuery) (rows []listed, total int, err error) {
	all, err := p.d.Catalogue.ConsoleList(c.Context(), panel)
	if err != nil {
		return nil, 0, err
	}
	completes, err := p.d.Participations.CompletesByCampaign(c.Context(), panel.ID)
	if err != nil {
		return nil, 0, err
	}
	needle := strings.ToLower(q.q)
	for _, r := range all {
		if q.state != "" && r.State != q.state {
			continue
		}
		if needle != "" && !strings.Contains(strings.ToLower(r.ID), needle) && !slices.ContainsFunc(slices.Collect(mapValues(r.Names)), func(n string) bool {
			return strings.Contains(strings.ToLower(n), needle)
		}) {
			continue
		}
		name, lang := nameOf(r.Names, r.DefaultLanguage)
		rows = append(rows, listed{ConsoleRow: r, name: name, lang: lang, completes: completes[r.ID]})
	}
	slices.SortStableFunc(rows, func(a, b listed) int {
		switch q.sort {
		case "completes":
			return cmp.Or(cmp.Compare(b.completes, a.completes), strings.Compare(a.name, b.name))
		case "reward":
			return cmp.Or(cmp.Compare(b.RewardMinor, a.RewardMinor), strings.Compare(a.name, b.name))
		case "opens":
			return cmp.Or(b.opens().Compare(a.opens()), strings.Compare(a.name, b.name))
		}
		return cmp.Or(strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), strings.Compare(a.ID, b.ID))
	})
	return rows, len(all), nil
}

// opens is when the campaign opened or opens: opens_at, else its first publication.
func (r listed) opens() time.Time {
	if r.OpensAt != nil {
		return *r.OpensAt
	}
	return r.PublishedAt
}

func mapValues(t campaigns.Text) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range t {
			if !yield(v) {
				return
			}
		}
	}
}

func (p *Part) stateLabel(c fiber.Ctx, state string) string {
	return p.m.T(c, "console.campaigns.state."+state, nil)
}

// notices are the messages a redirect after an action shows (?done=...).
var notices = []string{"created", "saved", "unchanged", "imported", "opened", "closed", "already_open", "already_closed", "duplicated", "quota"}

func (p *Part) notice(c fiber.Ctx) string {
	if d := c.Query("done"); slices.Contains(notices, d) {
		return p.m.T(c, "console.campaigns.done."+d, nil)
	}
	return ""
}

func (p *Part) listPage(c fiber.Ctx, a console.PanelAccess) error {
	return p.renderList(c, a, fiber.StatusOK, nil, "")
}

func (p *Part) renderList(c fiber.Ctx, a console.PanelAccess, status int, probs []campaignviews.Problem, errMsg string) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	q := queryOf(c)
	rows, total, err := p.list(c, panel, q)
	if err != nil {
		return err
	}
	props := campaignviews.ListProps{
		Email: p.email(c), PanelKey: a.Panel.Key, PanelName: a.Panel.Name, Total: total,
		Query: q.q, State: q.state, Sort: q.sort, Notice: p.notice(c), Problems: probs, Error: errMsg,
	}
	for _, s := range campaigns.States {
		props.States = append(props.States, campaignviews.Option{Value: s, Label: p.stateLabel(c, s)})
	}
	for _, s := range sorts {
		props.Sorts = append(props.Sorts, campaignviews.Option{Value: s, Label: p.m.T(c, "console.campaigns.sort."+s, nil)})
	}
	for _, r := range rows {
		fill := "—"
		if r.QuotaLimit > 0 {
			fill = strconv.Itoa(r.QuotaCompletes) + " / " + strconv.Itoa(r.QuotaLimit)
		}
		opens := r.opens()
		props.Rows = append(props.Rows, campaignviews.ListRow{
			ID: r.ID, Name: r.name, Lang: r.lang, State: r.State, StateLabel: p.stateLabel(c, r.State), Completes: r.completes,
			QuotaFill: fill, Reward: money(r.RewardMinor, r.CurrencyCode), Opens: when(&opens), Href: campaignPath(a, r.ID),
		})
	}
	return p.m.Render(c, status, campaignviews.List(props))
}

func listPath(a console.PanelAccess) string { return "/console/panels/" + a.Panel.Key + "/campaigns" }

func campaignPath(a console.PanelAccess, id string) string { return listPath(a) + "/" + id }

// skeleton is a new campaign's starting document: valid, in the panel's default language.
func skeleton(panel *web.Panel) string {
	lang := cmp.Or(panel.DefaultLanguage, "en")
	return "uuid: " + uuid.NewString() + `
type: survey
default_language: ` + lang + `
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
}

// editorIsland are the campaign-editor island's props: where it checks the document as the
// author types, and its texts.
func (p *Part) editorIsland(c fiber.Ctx, a console.PanelAccess, id string) map[string]any {
	return map[string]any{
		"validateURL": listPath(a) + "/validate",
		"id":          id,
		"texts": map[string]string{
			"label":    p.m.T(c, "console.campaigns.document", nil),
			"checking": p.m.T(c, "console.campaigns.checking", nil),
			"valid":    p.m.T(c, "console.campaigns.valid", nil),
			"invalid":  p.m.T(c, "console.campaigns.invalid", map[string]any{"Count": "{n}"}),
			"failed":   p.m.T(c, "console.campaigns.check_failed", nil),
			"line":     p.m.T(c, "console.campaigns.line", map[string]any{"Line": "{n}"}),
		},
	}
}

func (p *Part) editor(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, props campaignviews.EditorProps) campaignviews.EditorProps {
	props.Email, props.PanelKey, props.PanelName = p.email(c), a.Panel.Key, a.Panel.Name
	props.Island = p.editorIsland(c, a, props.ID)
	if props.Notice == "" {
		props.Notice = p.notice(c)
	}
	// The editor's island: its own entry, only on this page (member pages never load it).
	web.UseIsland(c, "console-editor")
	web.UseIsland(c, "campaign-editor")
	return props
}

func (p *Part) newPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	return p.m.Render(c, fiber.StatusOK, campaignviews.Editor(p.editor(c, a, panel, campaignviews.EditorProps{Format: "yaml", Document: skeleton(panel)})))
}

func viewProblems(probs *campaigns.Problems) []campaignviews.Problem {
	out := make([]campaignviews.Problem, len(probs.List))
	for i, pr := range probs.List {
		out[i] = campaignviews.Problem{Line: pr.Line, Path: pr.Path, Message: pr.Message}
	}
	return out
}

// documentForm reads the editor's form: the document and its format.
func documentForm(c fiber.Ctx) (format, name string, data []byte) {
	format = c.FormValue("format")
	if format != "json" {
		format = "yaml"
	}
	// Browsers send a textarea's line breaks as CRLF: keep the author's LF.
	doc := strings.ReplaceAll(c.FormValue("document"), "\r\n", "\n")
	return format, fileName(format), []byte(doc)
}

// saveForm saves the editor's document under rule; a refused one is the editor again with
// every problem (422), the text as sent.
func (p *Part) saveForm(c fiber.Ctx, a console.PanelAccess, id string, rule campaigns.DocumentRule, action string) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	format, name, data := documentForm(c)
	saved, err := p.d.Catalogue.SaveDocument(c.Context(), panel, name, data, rule)
	if probs := problemsOf(err); probs != nil {
		props := campaignviews.EditorProps{ID: id, Format: format, Document: string(data), Problems: viewProblems(probs)}
		if id != "" {
			if camp, err := p.d.Catalogue.Campaign(c.Context(), panel, id); err == nil {
				props.Name, _ = nameOf(camp.Names, camp.DefaultLanguage)
				props.Previews = p.previews(c, a, panel, camp)
			}
		}
		return p.m.Render(c, fiber.StatusUnprocessableEntity, campaignviews.Editor(p.editor(c, a, panel, props)))
	}
	if err != nil {
		return notFound(err)
	}
	if err := p.audit(c, a, action, saved); err != nil {
		return err
	}
	done := "saved"
	switch {
	case saved.Unchanged:
		done = "unchanged"
	case saved.Created:
		done = "created"
	}
	return p.m.Redirect(c, campaignPath(a, saved.ID)+"/edit?done="+done)
}

func (p *Part) create(c fiber.Ctx, a console.PanelAccess) error {
	return p.saveForm(c, a, "", campaigns.DocumentRule{New: true}, "campaign.create")
}

func (p *Part) update(c fiber.Ctx, a console.PanelAccess) error {
	id := c.Params("id")
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	if _, err := p.d.Catalogue.Campaign(c.Context(), panel, id); err != nil {
		return notFound(err)
	}
	return p.saveForm(c, a, id, campaigns.DocumentRule{ID: id}, "campaign.update")
}

func (p *Part) editPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	id := c.Params("id")
	camp, err := p.d.Catalogue.Campaign(c.Context(), panel, id)
	if err != nil {
		return notFound(err)
	}
	src, generated, err := p.d.Catalogue.SourceOf(c.Context(), panel, id)
	if err != nil {
		return notFound(err)
	}
	name, _ := nameOf(camp.Names, camp.DefaultLanguage)
	props := campaignviews.EditorProps{ID: id, Name: name, Format: formatOf(src.FileName), Document: src.Source, Generated: generated,
		Previews: p.previews(c, a, panel, camp)}
	return p.m.Render(c, fiber.StatusOK, campaignviews.Editor(p.editor(c, a, panel, props)))
}

// ProblemJSON is one problem as the validate calls answer it.
type ProblemJSON struct {
	Line    int    `json:"line"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Validation is a checked document: valid, or its problems in line order.
type Validation struct {
	Valid    bool          `json:"valid"`
	Problems []ProblemJSON `json:"problems"`
}

func problemsJSON(probs *campaigns.Problems) []ProblemJSON {
	out := make([]ProblemJSON, len(probs.List))
	for i, pr := range probs.List {
		out[i] = ProblemJSON{Line: pr.Line, Path: pr.Path, Message: pr.Message}
	}
	return out
}

// validate checks a document as its save would (an edit of id, or a new campaign).
func (p *Part) validate(c fiber.Ctx, panel *web.Panel, name string, data []byte, id string) (Validation, error) {
	rule := campaigns.DocumentRule{New: true}
	if id != "" {
		rule = campaigns.DocumentRule{ID: id}
	}
	_, err := p.d.Catalogue.CheckDocument(c.Context(), panel, name, data, rule)
	if probs := problemsOf(err); probs != nil {
		return Validation{Problems: problemsJSON(probs)}, nil
	}
	if err != nil {
		return Validation{}, err
	}
	return Validation{Valid: true, Problems: []ProblemJSON{}}, nil
}

// validatePage is the editor island's check as the author types: a page route (the
// operator's session and the form's CSRF token, form-encoded) answering JSON.
func (p *Part) validatePage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	_, name, data := documentForm(c)
	id := c.FormValue("id")
	if id != "" {
		if _, err := p.d.Catalogue.Campaign(c.Context(), panel, id); err != nil {
			return notFound(err)
		}
	}
	v, err := p.validate(c, panel, name, data, id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(v)
}

// maxFile bounds an uploaded campaign file (the console's body limit is 1 MiB).
const maxFile = 1 << 20

// importFile imports an uploaded .yaml, .yml or .json file: a new campaign, or an update of
// the panel's campaign of that uuid; the same file again changes nothing.
func (p *Part) importFile(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return p.renderList(c, a, fiber.StatusUnprocessableEntity, nil, p.m.T(c, "console.campaigns.no_file", nil))
	}
	ext := strings.ToLower(filepath.Ext(fh.Filename))
	if ext != ".yaml" && ext != ".yml" && ext != ".json" || fh.Size > maxFile {
		return p.renderList(c, a, fiber.StatusUnprocessableEntity, nil, p.m.T(c, "console.campaigns.bad_file", nil))
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFile))
	if err != nil {
		return err
	}
	saved, err := p.d.Catalogue.SaveDocument(c.Context(), panel, fileName(formatOf(fh.Filename)), data, campaigns.DocumentRule{})
	if probs := problemsOf(err); probs != nil {
		return p.renderList(c, a, fiber.StatusUnprocessableEntity, viewProblems(probs), p.m.T(c, "console.campaigns.import_refused", map[string]any{"File": filepath.Base(fh.Filename)}))
	}
	if err != nil {
		return err
	}
	if err := p.audit(c, a, "campaign.import", saved); err != nil {
		return err
	}
	done := "imported"
	if saved.Unchanged {
		done = "unchanged"
	}
	return p.m.Redirect(c, campaignPath(a, saved.ID)+"?done="+done)
}

// previews are the campaign's signed preview links, one per language of the campaign the
// panel offers, on the panel's own host; none for an operator who may not preview.
func (p *Part) previews(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, camp *campaigns.Campaign) []campaignviews.PreviewLink {
	if !a.Can(console.ActionPreview) {
		return nil
	}
	var out []campaignviews.PreviewLink
	for _, l := range p.previewLinks(c, panel, camp) {
		out = append(out, campaignviews.PreviewLink{Lang: l.Lang, Label: l.Language, Href: l.URL})
	}
	return out
}

// PreviewJSON is one signed preview link.
type PreviewJSON struct {
	Lang      string    `json:"lang"`
	Language  string    `json:"language"`
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

func (p *Part) previewLinks(c fiber.Ctx, panel *web.Panel, camp *campaigns.Campaign) []PreviewJSON {
	if len(panel.Hosts) == 0 {
		return nil
	}
	langs := map[string]bool{camp.DefaultLanguage: true}
	for l := range camp.Names {
		langs[cmp.Or(l, camp.DefaultLanguage)] = true
	}
	// The panel's host (a name before an address), on the console's scheme and port (one
	// server answers both).
	host := panel.Hosts[0]
	for _, h := range panel.Hosts {
		if net.ParseIP(h) == nil {
			host = h
			break
		}
	}
	origin := c.Scheme() + "://" + host
	if _, port, ok := strings.Cut(c.Host(), ":"); ok && port != "" {
		origin += ":" + port
	}
	expires := p.d.Now().Add(p.d.PreviewFor).Truncate(time.Second)
	var out []PreviewJSON
	for _, l := range panel.Languages {
		if langs[l.Code] {
			out = append(out, PreviewJSON{Lang: l.Code, Language: l.Name, URL: origin + p.d.Previews.PreviewLink(panel, camp.ID, l.Code, expires, ""), ExpiresAt: expires.UTC()})
		}
	}
	return out
}

// funnelRows are the funnel's steps with their share of the started.
func (p *Part) funnelRows(c fiber.Ctx, f surveys.Funnel) []campaignviews.FunnelRow {
	steps := []struct {
		id string
		n  int
	}{
		{"started", f.Started}, {"completed", f.Completed}, {"screened", f.Screened}, {"disqualified", f.Disqualified},
		{"quota_full", f.QuotaFull}, {"in_progress", f.InProgress}, {"other", f.Other},
	}
	out := make([]campaignviews.FunnelRow, len(steps))
	for i, s := range steps {
		share := "—"
		if f.Started > 0 {
			share = strconv.FormatFloat(float64(s.n)*100/float64(f.Started), 'f', 0, 64) + " %"
		}
		out[i] = campaignviews.FunnelRow{Label: p.m.T(c, "console.campaigns.step."+s.id, nil), Count: s.n, Share: share}
	}
	return out
}

func conditionsText(conds []campaigns.Condition) string {
	if len(conds) == 0 {
		return "—"
	}
	b, err := json.Marshal(conds)
	if err != nil {
		return "—"
	}
	return string(b)
}

func (p *Part) campaignPage(c fiber.Ctx, a console.PanelAccess) error {
	return p.renderCampaign(c, a, fiber.StatusOK, "")
}

func (p *Part) renderCampaign(c fiber.Ctx, a console.PanelAccess, status int, quotaErr string) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	id := c.Params("id")
	camp, err := p.d.Catalogue.Campaign(c.Context(), panel, id)
	if err != nil {
		return notFound(err)
	}
	funnel, err := p.d.Participations.CampaignFunnel(c.Context(), panel.ID, id)
	if err != nil {
		return err
	}
	quotas, err := p.d.Catalogue.Quotas(c.Context(), panel, id)
	if err != nil {
		return notFound(err)
	}
	state := p.d.Catalogue.State(camp)
	name, lang := nameOf(camp.Names, camp.DefaultLanguage)
	props := campaignviews.CampaignProps{
		Email: p.email(c), PanelKey: a.Panel.Key, PanelName: a.Panel.Name, ID: id, Name: name, Lang: lang,
		State: state, StateLabel: p.stateLabel(c, state), Type: camp.Type, Reward: money(camp.RewardMinor, camp.CurrencyCode),
		Opens: when(camp.OpensAt), Closes: when(camp.ClosesAt), Funnel: p.funnelRows(c, funnel), Median: "—",
		QuotaError: quotaErr, Previews: p.previews(c, a, panel, camp), Notice: p.notice(c), DuplicateKey: uuid.NewString(),
		CanOpen: state == campaigns.StateClosed || state == campaigns.StateScheduled, CanClose: state != campaigns.StateClosed,
	}
	if funnel.MedianMinutes != nil {
		props.Median = p.m.T(c, "console.campaigns.minutes", map[string]any{"Minutes": strconv.FormatFloat(*funnel.MedianMinutes, 'f', -1, 64)})
	}
	for _, q := range quotas {
		props.Quotas = append(props.Quotas, campaignviews.QuotaRow{ID: q.QuotaID, Limit: q.LimitCount, Completes: q.Completes, When: conditionsText(q.Conditions)})
	}
	return p.m.Render(c, status, campaignviews.Campaign(props))
}

func (p *Part) openPage(open bool) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		panel, err := p.panel(c, a)
		if err != nil {
			return err
		}
		id := c.Params("id")
		saved, err := p.d.Catalogue.SetOpen(c.Context(), panel, id, open)
		if err != nil {
			return notFound(err)
		}
		action, done := "campaign.open", "opened"
		if !open {
			action, done = "campaign.close", "closed"
		}
		if err := p.audit(c, a, action, saved); err != nil {
			return err
		}
		if saved.Unchanged {
			done = "already_closed"
			if open {
				done = "already_open"
			}
		}
		return p.m.Redirect(c, campaignPath(a, id)+"?done="+done)
	}
}

func (p *Part) duplicate(c fiber.Ctx, a console.PanelAccess, key string) (*campaigns.Saved, error) {
	panel, err := p.panel(c, a)
	if err != nil {
		return nil, err
	}
	id := c.Params("id")
	saved, err := p.d.Catalogue.Duplicate(c.Context(), panel, id, key)
	if err != nil {
		return nil, err
	}
	if !saved.Unchanged {
		if err := p.m.Audit(c, a.Panel.ID, "campaign.duplicate", saved.ID, map[string]any{"from": id}, auditSide(saved.After)); err != nil {
			return nil, err
		}
	}
	return saved, nil
}

// duplicatePage copies the campaign once per form (its key): a double click makes one copy.
func (p *Part) duplicatePage(c fiber.Ctx, a console.PanelAccess) error {
	key := c.FormValue("key")
	if key == "" || len(key) > 100 {
		key = uuid.NewString()
	}
	saved, err := p.duplicate(c, a, key)
	if err != nil {
		return notFound(err)
	}
	return p.m.Redirect(c, campaignPath(a, saved.ID)+"/edit?done=duplicated")
}

// setQuota changes a quota's limit and audits it; problems come back as *campaigns.Problems.
func (p *Part) setQuota(c fiber.Ctx, a console.PanelAccess, quotaID string, limit int) (*campaigns.Saved, error) {
	panel, err := p.panel(c, a)
	if err != nil {
		return nil, err
	}
	id := c.Params("id")
	saved, err := p.d.Catalogue.SetQuotaLimit(c.Context(), panel, id, quotaID, limit)
	if err != nil {
		return nil, err
	}
	if !saved.Unchanged {
		before, after := quotaLimit(saved.Before, quotaID), quotaLimit(saved.After, quotaID)
		if err := p.m.Audit(c, a.Panel.ID, "campaign.quota", id+"/"+quotaID, map[string]any{"limit": before}, map[string]any{"limit": after}); err != nil {
			return nil, err
		}
	}
	return saved, nil
}

func quotaLimit(def *campaigns.Definition, quotaID string) int {
	if def == nil {
		return 0
	}
	for _, q := range def.Quotas {
		if q.ID == quotaID {
			return q.Limit
		}
	}
	return 0
}

func (p *Part) quotaPage(c fiber.Ctx, a console.PanelAccess) error {
	limit, err := strconv.Atoi(strings.TrimSpace(c.FormValue("limit")))
	if err != nil || limit < 1 || limit > 1_000_000_000 {
		return p.renderCampaign(c, a, fiber.StatusUnprocessableEntity, p.m.T(c, "console.campaigns.bad_limit", nil))
	}
	_, err = p.setQuota(c, a, c.FormValue("quota"), limit)
	if probs := problemsOf(err); probs != nil {
		return p.renderCampaign(c, a, fiber.StatusUnprocessableEntity, probs.Error())
	}
	if err != nil {
		return notFound(err)
	}
	return p.m.Redirect(c, campaignPath(a, c.Params("id"))+"?done=quota#quotas")
}

func readJSON(c fiber.Ctx, v any) error {
	if len(c.Body()) == 0 {
		return web.Invalid("body", "console.campaigns.bad_body", nil)
	}
	if err := json.Unmarshal(c.Body(), v); err != nil {
		return web.Invalid("body", "console.campaigns.bad_body", nil)
	}
	return web.ExactKeys(c.Body(), v)
}
