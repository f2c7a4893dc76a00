// Package consolecampaigns is the operator console's campaigns part (issue 21, part 3): editors
// and owners list a panel's campaigns, author them in the YAML/JSON format (a textarea form,
// enhanced by the campaign-editor island with the schema's completions and inline problems),
// import them from files, open, close and duplicate them, edit their quotas' limits, read each
// campaign's funnel, and preview it in each of its languages through signed links. Everything
// goes through the campaigns and surveys modules' small interfaces below; the panel in the
// path bounds all of it, so another panel's campaign is a 404.
package consolecampaigns

import (
	"context"
	"errors"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Catalogue is what the part reads and does through the campaigns module.
type Catalogue interface {
	ConsoleList(ctx context.Context, panel *web.Panel) ([]campaigns.ConsoleRow, error)
	Campaign(ctx context.Context, panel *web.Panel, id string) (*campaigns.Campaign, error)
	State(c *campaigns.Campaign) string
	Quotas(ctx context.Context, panel *web.Panel, id string) ([]campaigns.CampaignQuota, error)
	SourceOf(ctx context.Context, panel *web.Panel, id string) (campaigns.CampaignSource, bool, error)
	CheckDocument(ctx context.Context, panel *web.Panel, name string, data []byte, rule campaigns.DocumentRule) (*campaigns.Definition, error)
	SaveDocument(ctx context.Context, panel *web.Panel, name string, data []byte, rule campaigns.DocumentRule) (*campaigns.Saved, error)
	SetOpen(ctx context.Context, panel *web.Panel, id string, open bool) (*campaigns.Saved, error)
	Duplicate(ctx context.Context, panel *web.Panel, id, key string) (*campaigns.Saved, error)
	SetQuotaLimit(ctx context.Context, panel *web.Panel, id, quotaID string, limit int) (*campaigns.Saved, error)
}

// Participations are the campaigns' runs (surveys): completes and funnels.
type Participations interface {
	CompletesByCampaign(ctx context.Context, panelID string) (map[string]int, error)
	CampaignFunnel(ctx context.Context, panelID, campaignID string) (surveys.Funnel, error)
}

// Previews signs preview links (surveys), served on the panel's own host.
type Previews interface {
	PreviewLink(panel *web.Panel, campaignID, lang string, expires time.Time, question string) string
}

// Deps are the modules the part acts through, and the panels.
type Deps struct {
	Catalogue      Catalogue
	Participations Participations
	Previews       Previews
	// Panel resolves a panel by key (its currency, languages and hosts).
	Panel func(ctx context.Context, key string) (*web.Panel, error)
	// PreviewFor is how long a preview link works.
	PreviewFor time.Duration
	Now        func() time.Time
}

// Part is the campaigns part.
type Part struct {
	d Deps
	m *console.Module
}

func New(d Deps) *Part {
	if d.PreviewFor == 0 {
		d.PreviewFor = 72 * time.Hour
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Part{d: d}
}

const (
	base    = "/console/panels/:panel/campaigns"
	apiBase = "/panels/:panel/campaigns"
)

// Mount registers the part's pages and API calls. "new", "validate" and "import" come before
// ":id" so they are never read as a campaign id.
func (p *Part) Mount(m *console.Module, r, api fiber.Router) {
	p.m = m
	edit := console.ActionEditCampaigns
	m.PanelPage(r, fiber.MethodGet, base, edit, p.listPage)
	m.PanelPage(r, fiber.MethodGet, base+"/new", edit, p.newPage)
	m.PanelPage(r, fiber.MethodPost, base+"/new", edit, p.create)
	m.PanelPage(r, fiber.MethodPost, base+"/validate", edit, p.validatePage)
	m.PanelPage(r, fiber.MethodPost, base+"/import", edit, p.importFile)
	m.PanelPage(r, fiber.MethodGet, base+"/:id", edit, p.campaignPage)
	m.PanelPage(r, fiber.MethodGet, base+"/:id/edit", edit, p.editPage)
	m.PanelPage(r, fiber.MethodPost, base+"/:id/edit", edit, p.update)
	m.PanelPage(r, fiber.MethodPost, base+"/:id/open", edit, p.openPage(true))
	m.PanelPage(r, fiber.MethodPost, base+"/:id/close", edit, p.openPage(false))
	m.PanelPage(r, fiber.MethodPost, base+"/:id/duplicate", edit, p.duplicatePage)
	m.PanelPage(r, fiber.MethodPost, base+"/:id/quotas", edit, p.quotaPage)

	m.PanelAPI(api, fiber.MethodGet, apiBase, edit, p.apiList)
	m.PanelAPI(api, fiber.MethodPost, apiBase, edit, p.apiCreate)
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/validate", edit, p.apiValidate)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/:id", edit, p.apiGet)
	m.PanelAPI(api, fiber.MethodPut, apiBase+"/:id", edit, p.apiUpdate)
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/open", edit, p.apiOpen(true))
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/close", edit, p.apiOpen(false))
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/duplicate", edit, p.apiDuplicate)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/:id/quotas", edit, p.apiQuotas)
	m.PanelAPI(api, fiber.MethodPut, apiBase+"/:id/quotas/:quota", edit, p.apiSetQuota)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/:id/funnel", edit, p.apiFunnel)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/:id/previews", console.ActionPreview, p.apiPreviews)
}

func (p *Part) panel(c fiber.Ctx, a console.PanelAccess) (*web.Panel, error) {
	return p.d.Panel(c.Context(), a.Panel.Key)
}

// notFound makes a module's "no such campaign" the console's 404 (pages render their own
// error page, which knows fiber's errors).
func notFound(err error) error {
	if errors.Is(err, web.ErrNotFound) {
		return fiber.ErrNotFound
	}
	return err
}

// problemsOf are the problems of a refused document, nil for another error.
func problemsOf(err error) *campaigns.Problems {
	var probs *campaigns.Problems
	if errors.As(err, &probs) {
		return probs
	}
	return nil
}

// fileName is the name a document of a format is kept under.
func fileName(format string) string {
	if format == "json" {
		return "campaign.json"
	}
	return "campaign.yaml"
}

func formatOf(name string) string {
	if campaigns.IsYAML(name) {
		return "yaml"
	}
	return "json"
}

// auditSaved is the audit entry's side of a definition: what an operator reads in the log
// (never the whole document).
func auditSide(def *campaigns.Definition) map[string]any {
	if def == nil {
		return nil
	}
	out := map[string]any{"name": def.Name.In(def.DefaultLanguage, "en"), "reward": def.Reward, "questions": len(def.Questions)}
	if def.OpensAt != nil {
		out["opens_at"] = def.OpensAt.UTC().Format(time.RFC3339)
	}
	if def.ClosesAt != nil {
		out["closes_at"] = def.ClosesAt.UTC().Format(time.RFC3339)
	}
	if len(def.Quotas) > 0 {
		limits := map[string]int{}
		for _, q := range def.Quotas {
			limits[q.ID] = q.Limit
		}
		out["quotas"] = limits
	}
	return out
}

// audit records a save that wrote something (an unchanged one wrote nothing).
func (p *Part) audit(c fiber.Ctx, a console.PanelAccess, action string, s *campaigns.Saved) error {
	if s.Unchanged {
		return nil
	}
	return p.m.Audit(c, a.Panel.ID, action, s.ID, auditSide(s.Before), auditSide(s.After))
}
