package offers

import (
	"errors"
	"net/url"

	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/offers"
	"github.com/gofiber/fiber/v3"
)

// pageRows is how many of the member's rows the page shows (the API pages through all).
const pageRows = 50

// GET /offers: the offers and games, and the member's own offers.
func (m *Module) page(c fiber.Ctx) error {
	return m.render(c, fiber.StatusOK, "", nil)
}

// render draws the page; failed is the row whose report form comes back with its error.
func (m *Module) render(c fiber.Ctx, status int, notice string, failed *view.RowView) error {
	mem := m.member(c)
	ctx := c.Context()
	if ok, err := m.svc.Enabled(ctx, mem.Panel.ID); err != nil {
		return err
	} else if !ok {
		return web.NotFound()
	}
	p := view.PageProps{Notice: notice}
	for _, kind := range []string{KindOffer, KindGame} {
		list, err := m.svc.List(ctx, mem, kind)
		if errors.Is(err, ErrUnavailable) {
			// The member still sees their own offers; the lists come back with the provider.
			m.svc.log.Warn("offers: lists unavailable", "panel", mem.Panel.Key, "err", err)
			p.Unavailable = true
			break
		}
		if err != nil {
			return err
		}
		cards := make([]view.Card, 0, len(list))
		for _, o := range list {
			cards = append(cards, m.card(c, o))
		}
		if kind == KindGame {
			p.Games = cards
		} else {
			p.Offers = cards
		}
	}
	rows, _, err := m.svc.Rows(ctx, mem.ParticipantID, 1, pageRows)
	if err != nil {
		return err
	}
	for _, r := range rows {
		rv := m.rowView(c, r)
		if failed != nil && failed.ID == r.ID {
			rv.Open, rv.Error, rv.Message = true, failed.Error, failed.Message
		}
		p.Rows = append(p.Rows, rv)
	}
	return m.kit.Render(c, status, view.Page(p))
}

// card words one offer for the page.
func (m *Module) card(c fiber.Ctx, o Offer) view.Card {
	panel, lang := web.PanelOf(c), web.LocaleOf(c)
	reward := o.Reward
	if minor, err := web.ParseMoney(o.Reward, panel.CurrencyCode); err == nil {
		reward = web.FormatMoney(minor, panel.CurrencyCode, lang)
	}
	card := view.Card{ID: o.ID, Kind: kindOf(o.Kind), Name: o.Name, Description: o.Description, Requirements: o.Requirements, Reward: reward,
		Href: PagePath + "/view/" + url.PathEscape(o.ID), StartHref: PagePath + "/start/" + url.PathEscape(o.ID)}
	if o.Minutes > 0 {
		card.Minutes = m.kit.T(c, "offers.minutes", map[string]any{"Minutes": o.Minutes})
	}
	return card
}

// rowView words one of the member's offers.
func (m *Module) rowView(c fiber.Ctx, r Row) view.RowView {
	lang := web.LocaleOf(c)
	rv := view.RowView{ID: r.ID, Name: r.Name, Status: r.Status, StatusLabel: m.kit.T(c, "offers.status_"+r.Status, nil),
		Reward: web.FormatMoney(r.RewardMinor, r.CurrencyCode, lang), CanReport: r.Status != StatusCredited}
	switch {
	case r.Status == StatusReversed && r.ReversedAt != nil:
		rv.Detail = m.kit.T(c, "offers.reversed_on", map[string]any{"Date": m.kit.Date(c, *r.ReversedAt, false)})
	case r.Status == StatusCredited && r.CreditedAt != nil:
		rv.Detail = m.kit.T(c, "offers.credited_on", map[string]any{"Date": m.kit.Date(c, *r.CreditedAt, false)})
	case r.StartedAt != nil:
		rv.Detail = m.kit.T(c, "offers.started_on", map[string]any{"Date": m.kit.Date(c, *r.StartedAt, false)})
	}
	return rv
}

// GET /offers/view/:id: one offer's page; the provider hears the member opened it.
func (m *Module) viewPage(c fiber.Ctx) error {
	o, err := m.svc.View(c.Context(), m.member(c), c.Params("id"))
	if err != nil {
		return webError(err)
	}
	return m.kit.Render(c, fiber.StatusOK, view.View(m.card(c, o)))
}

// GET /offers/start/:id: the provider hears the member starts the offer, the member's row is
// pending, and the member goes to the provider's link with their sub-id. A link, not a form:
// the panel's pages may post forms only to themselves (form-action 'self'), and a redirect
// after a post counts as the post's.
func (m *Module) startLink(c fiber.Ctx) error {
	_, started, err := m.svc.Start(c.Context(), m.member(c), c.Params("id"))
	if err != nil {
		return webError(err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Redirect().Status(fiber.StatusSeeOther).To(started.RedirectURL)
}

// POST /offers/rows/:id/report: the issue report form.
func (m *Module) reportSubmit(c fiber.Ctx) error {
	id, message := c.Params("id"), c.FormValue("message")
	_, err := m.svc.ReportIssue(c.Context(), m.member(c), id, message)
	switch {
	case errors.Is(err, ErrIssueEmpty), errors.Is(err, ErrIssueLong):
		msg := m.kit.T(c, "error.offer_issue_empty", nil)
		if errors.Is(err, ErrIssueLong) {
			msg = m.kit.T(c, "error.offer_issue_long", map[string]any{"Max": MaxIssueMessage})
		}
		return m.render(c, fiber.StatusUnprocessableEntity, "", &view.RowView{ID: id, Error: msg, Message: message})
	case err != nil:
		return webError(err)
	}
	m.kit.FlashNext(c, "success", "flash.offer_report_received")
	return c.Redirect().Status(fiber.StatusSeeOther).To(PagePath + "#row-" + url.PathEscape(id))
}
