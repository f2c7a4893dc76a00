package consolecampaigns

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// The campaigns part's JSON API (under console.APIPrefix, bearer tokens): the same reads and
// actions as the pages, each audited alike. A refused document is a 422 whose data lists
// every problem with its line.

// CampaignJSON is a campaign as the API lists it.
type CampaignJSON struct {
	ID             string            `json:"id"`
	Name           string            `json:"name"`
	Names          map[string]string `json:"names"`
	Type           string            `json:"type"`
	State          string            `json:"state"`
	Completes      int               `json:"completes"`
	QuotaLimit     int               `json:"quotaLimit"`
	QuotaCompletes int               `json:"quotaCompletes"`
	Reward         string            `json:"reward"`
	Currency       string            `json:"currency"`
	OpensAt        *time.Time        `json:"opensAt"`
	ClosesAt       *time.Time        `json:"closesAt"`
	PublishedAt    time.Time         `json:"publishedAt"`
}

func campaignJSON(r listed) CampaignJSON {
	return CampaignJSON{
		ID: r.ID, Name: r.name, Names: r.Names, Type: r.Type, State: r.State, Completes: r.completes, QuotaLimit: r.QuotaLimit,
		QuotaCompletes: r.QuotaCompletes, Reward: web.MoneyString(r.RewardMinor, r.CurrencyCode), Currency: r.CurrencyCode,
		OpensAt: r.OpensAt, ClosesAt: r.ClosesAt, PublishedAt: r.PublishedAt.UTC(),
	}
}

// maxQuery is the longest search text the list takes (the API's documented limit).
const maxQuery = 200

func (p *Part) apiList(c fiber.Ctx, a console.PanelAccess) error {
	// The page falls back to the whole list by name; a program is told what it got wrong.
	if s := c.Query("state"); s != "" && !slices.Contains(campaigns.States, s) {
		return web.Invalid("state", "console.campaigns.bad_query", nil)
	}
	if s := c.Query("sort"); s != "" && !slices.Contains(sorts, s) {
		return web.Invalid("sort", "console.campaigns.bad_query", nil)
	}
	if utf8.RuneCountInString(c.Query("q")) > maxQuery {
		return web.Invalid("q", "console.campaigns.bad_query", nil)
	}
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	rows, total, err := p.list(c, panel, queryOf(c))
	if err != nil {
		return err
	}
	out := make([]CampaignJSON, len(rows))
	for i, r := range rows {
		out[i] = campaignJSON(r)
	}
	return c.JSON(fiber.Map{"campaigns": out, "total": total})
}

// one is the campaign of the path as the API lists it.
func (p *Part) one(c fiber.Ctx, panel *web.Panel, id string) (CampaignJSON, error) {
	rows, _, err := p.list(c, panel, listQuery{sort: "name"})
	if err != nil {
		return CampaignJSON{}, err
	}
	for _, r := range rows {
		if r.ID == id {
			return campaignJSON(r), nil
		}
	}
	return CampaignJSON{}, web.NotFound()
}

// QuotaJSON is one quota with its limit and completes.
type QuotaJSON struct {
	ID         string                `json:"id"`
	Limit      int                   `json:"limit"`
	Completes  int                   `json:"completes"`
	Conditions []campaigns.Condition `json:"conditions"`
}

func (p *Part) quotasJSON(c fiber.Ctx, panel *web.Panel, id string) ([]QuotaJSON, error) {
	quotas, err := p.d.Catalogue.Quotas(c.Context(), panel, id)
	if err != nil {
		return nil, err
	}
	out := make([]QuotaJSON, len(quotas))
	for i, q := range quotas {
		conds := q.Conditions
		if conds == nil {
			conds = []campaigns.Condition{}
		}
		out[i] = QuotaJSON{ID: q.QuotaID, Limit: q.LimitCount, Completes: q.Completes, Conditions: conds}
	}
	return out, nil
}

func (p *Part) apiGet(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	id := c.Params("id")
	one, err := p.one(c, panel, id)
	if err != nil {
		return err
	}
	src, generated, err := p.d.Catalogue.SourceOf(c.Context(), panel, id)
	if err != nil {
		return err
	}
	quotas, err := p.quotasJSON(c, panel, id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"campaign": one, "format": formatOf(src.FileName), "source": src.Source, "generated": generated, "quotas": quotas})
}

// documentBody is a document sent to the API: its text and format (yaml or json).
type documentBody struct {
	Format string `json:"format"`
	Source string `json:"source"`
	ID     string `json:"id"` // validate: the campaign the document edits ("" for a new one)
}

func readDocument(c fiber.Ctx) (documentBody, string, error) {
	var body documentBody
	if err := readJSON(c, &body); err != nil {
		return body, "", err
	}
	switch body.Format {
	case "yaml", "json":
	case "":
		body.Format = "yaml"
	default:
		return body, "", web.Invalid("format", "console.campaigns.bad_format", nil)
	}
	if strings.TrimSpace(body.Source) == "" {
		return body, "", web.Invalid("source", "console.campaigns.no_source", nil)
	}
	return body, fileName(body.Format), nil
}

// invalidDocument is the API's 422 for a refused document: every problem with its line.
// apiError answers a refused document as a 422 with its problems, anything else as it is.
func apiError(err error) error {
	if probs := problemsOf(err); probs != nil {
		return invalidDocument(probs)
	}
	return err
}

func invalidDocument(probs *campaigns.Problems) *web.Error {
	e := &web.Error{Status: fiber.StatusUnprocessableEntity, ID: "console.campaigns.invalid_document",
		Data: map[string]any{"Count": len(probs.List)}, Body: map[string]any{"problems": problemsJSON(probs)}}
	return e
}

func (p *Part) apiValidate(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	body, name, err := readDocument(c)
	if err != nil {
		return err
	}
	if body.ID != "" {
		if _, err := p.d.Catalogue.Campaign(c.Context(), panel, body.ID); err != nil {
			return err
		}
	}
	v, err := p.validate(c, panel, name, []byte(body.Source), body.ID)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// apiSave saves a document under rule and answers the campaign (201 when created).
func (p *Part) apiSave(c fiber.Ctx, a console.PanelAccess, rule campaigns.DocumentRule, action string) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	body, name, err := readDocument(c)
	if err != nil {
		return err
	}
	saved, err := p.d.Catalogue.SaveDocument(c.Context(), panel, name, []byte(body.Source), rule)
	if err != nil {
		return apiError(err)
	}
	if err := p.audit(c, a, action, saved); err != nil {
		return err
	}
	return p.answerSaved(c, panel, saved)
}

func (p *Part) answerSaved(c fiber.Ctx, panel *web.Panel, saved *campaigns.Saved) error {
	one, err := p.one(c, panel, saved.ID)
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if saved.Created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(fiber.Map{"campaign": one, "created": saved.Created, "changed": !saved.Unchanged})
}

func (p *Part) apiCreate(c fiber.Ctx, a console.PanelAccess) error {
	return p.apiSave(c, a, campaigns.DocumentRule{New: true}, "campaign.create")
}

func (p *Part) apiUpdate(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	id := c.Params("id")
	if _, err := p.d.Catalogue.Campaign(c.Context(), panel, id); err != nil {
		return err
	}
	return p.apiSave(c, a, campaigns.DocumentRule{ID: id}, "campaign.update")
}

func (p *Part) apiOpen(open bool) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		panel, err := p.panel(c, a)
		if err != nil {
			return err
		}
		saved, err := p.d.Catalogue.SetOpen(c.Context(), panel, c.Params("id"), open)
		if err != nil {
			return apiError(err)
		}
		action := "campaign.open"
		if !open {
			action = "campaign.close"
		}
		if err := p.audit(c, a, action, saved); err != nil {
			return err
		}
		return p.answerSaved(c, panel, saved)
	}
}

// apiDuplicate copies the campaign; the Idempotency-Key header (or the body's key) makes a
// retried call answer the same copy.
func (p *Part) apiDuplicate(c fiber.Ctx, a console.PanelAccess) error {
	key := c.Get("Idempotency-Key")
	if key == "" && len(c.Body()) > 0 {
		var body struct {
			Key string `json:"key"`
		}
		if err := readJSON(c, &body); err != nil {
			return err
		}
		key = body.Key
	}
	if len(key) > 255 {
		return web.Invalid("key", "console.campaigns.bad_key", nil)
	}
	if key == "" {
		key = uuid.NewString()
	}
	saved, err := p.duplicate(c, a, key)
	if err != nil {
		return apiError(err)
	}
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	if !saved.Unchanged {
		saved.Created = true
	}
	return p.answerSaved(c, panel, saved)
}

func (p *Part) apiQuotas(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	quotas, err := p.quotasJSON(c, panel, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"quotas": quotas})
}

func (p *Part) apiSetQuota(c fiber.Ctx, a console.PanelAccess) error {
	var body struct {
		Limit *int `json:"limit"`
	}
	if err := readJSON(c, &body); err != nil {
		return err
	}
	if body.Limit == nil || *body.Limit < 1 || *body.Limit > 1_000_000_000 {
		return web.Invalid("limit", "console.campaigns.bad_limit", nil)
	}
	quotaID := c.Params("quota")
	saved, err := p.setQuota(c, a, quotaID, *body.Limit)
	if err != nil {
		return apiError(err)
	}
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	quotas, err := p.quotasJSON(c, panel, saved.ID)
	if err != nil {
		return err
	}
	for _, q := range quotas {
		if q.ID == quotaID {
			return c.JSON(fiber.Map{"quota": q, "changed": !saved.Unchanged})
		}
	}
	return web.NotFound()
}

// FunnelJSON is a campaign's funnel.
type FunnelJSON struct {
	Started       int      `json:"started"`
	InProgress    int      `json:"inProgress"`
	Completed     int      `json:"completed"`
	Screened      int      `json:"screened"`
	Disqualified  int      `json:"disqualified"`
	QuotaFull     int      `json:"quotaFull"`
	Other         int      `json:"other"`
	MedianMinutes *float64 `json:"medianMinutes"`
}

func (p *Part) apiFunnel(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	id := c.Params("id")
	if _, err := p.d.Catalogue.Campaign(c.Context(), panel, id); err != nil {
		return err
	}
	f, err := p.d.Participations.CampaignFunnel(c.Context(), panel.ID, id)
	if err != nil {
		return err
	}
	return c.JSON(FunnelJSON{Started: f.Started, InProgress: f.InProgress, Completed: f.Completed, Screened: f.Screened,
		Disqualified: f.Disqualified, QuotaFull: f.QuotaFull, Other: f.Other, MedianMinutes: f.MedianMinutes})
}

func (p *Part) apiPreviews(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	camp, err := p.d.Catalogue.Campaign(c.Context(), panel, c.Params("id"))
	if err != nil {
		return err
	}
	links := p.previewLinks(c, panel, camp)
	if links == nil {
		links = []PreviewJSON{}
	}
	return c.JSON(fiber.Map{"previews": links})
}
