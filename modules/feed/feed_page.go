package feed

import (
	"encoding/json"
	"errors"
	"net/url"
	"strconv"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/feed"
	"github.com/gofiber/fiber/v3"
)

// endOfFeedReached is the spec's tracking event at the end of the feed.
const endOfFeedReached = "END_OF_FEED_REACHED"

// maxFeedPages bounds ?page= of the page without JavaScript, which lists every page so far.
const maxFeedPages = 20

// Page serves GET /feed: the first page (or, without JavaScript, pages 1..N), and with
// htmx the next cards after those already shown (their guids sent as skip=...).
func (m *Module) Page(c fiber.Ctx) error {
	panel, who := web.PanelOf(c), member(c)
	page, err := web.QueryInt(c, "page", 1)
	if err != nil || page < 1 || page > maxFeedPages {
		return web.Invalid("page", "error.page", nil)
	}
	q := FeedQuery{Page: "first", Filter: c.Query("filter")}
	if err := q.Check(); err != nil {
		return err
	}
	htmxMore := web.IsHTMX(c) && page > 1
	if htmxMore {
		q.Page, q.Skip = "next", skipValues(c)
		if err := q.Check(); err != nil {
			return err
		}
	} else {
		// Without JavaScript the link to page N shows pages 1..N at once.
		q.PageSize *= page
	}
	result, err := m.load(c.Context(), panel, who, q)
	if err != nil {
		return err
	}
	shown := len(result.Cards)
	if htmxMore {
		shown += len(q.Skip)
	}
	more := view.MoreProps{
		EndOfFeed: result.EndOfFeed, Filter: result.Filter, OutOfBand: htmxMore,
		NextHref: feedHref(result.Filter, page+1),
	}
	if result.EndOfFeed && !result.WelcomeFirst {
		more.EventURL = endOfFeedURL(panel, result.Filter, shown)
		more.Empty = shown == 0
	}
	cards := m.cardProps(c, result.Cards, feedHref(result.Filter, page))
	if htmxMore {
		return m.kit.Render(c, fiber.StatusOK, view.MoreCards(cards, more))
	}
	web.UseHTMX(c) // more cards, hide and report swap in place
	props := view.FeedProps{Filter: result.Filter, Cards: cards, WelcomeFirst: result.WelcomeFirst, More: more}
	if m.blades != nil {
		// The cards are extras: the feed is shown without them rather than not at all.
		if props.Blades, err = m.blades(c); err != nil {
			m.log.Error("feed: blades", "request_id", c.RequestID(), "err", err)
			props.Blades = nil
		}
	}
	for _, f := range Filters {
		props.Tabs = append(props.Tabs, view.Tab{Key: f, Label: m.kit.T(c, "feed.filter_"+f, nil), Href: feedHref(f, 1), Active: f == result.Filter})
	}
	return m.kit.Render(c, fiber.StatusOK, view.Feed(props))
}

// skipValues reads the guids already on the page (skip=...&skip=...).
func skipValues(c fiber.Ctx) []string {
	var out []string
	for _, v := range c.Request().URI().QueryArgs().PeekMulti("skip") {
		out = append(out, string(v))
	}
	return out
}

func feedHref(filter string, page int) string {
	v := url.Values{}
	if filter != FilterAll {
		v.Set("filter", filter)
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return "/feed"
	}
	return "/feed?" + v.Encode()
}

// endOfFeedURL is the tracking image that records END_OF_FEED_REACHED with the spec's
// eventData (filter, emptyFeed, campaignsLength).
func endOfFeedURL(panel *web.Panel, filter string, shown int) string {
	data, _ := json.Marshal(map[string]any{"filter": filter, "emptyFeed": shown == 0, "campaignsLength": shown})
	v := url.Values{"eventName": {endOfFeedReached}, "eventData": {string(data)}, "pp-panel": {panel.Key}}
	return "/api/v1/" + url.PathEscape(panel.InstanceCode) + "/events/record?" + v.Encode()
}

func (m *Module) cardProps(c fiber.Ctx, list []Card, returnTo string) []view.CardProps {
	lang := web.LocaleOf(c)
	reasons := make([]view.Reason, 0, len(ReasonCodes))
	for _, code := range ReasonCodes {
		reasons = append(reasons, view.Reason{Code: code, Label: m.kit.T(c, "feed.reason_"+code, nil)})
	}
	out := make([]view.CardProps, 0, len(list))
	for _, k := range list {
		out = append(out, view.CardProps{
			GUID: k.GUID, Name: k.Name, Description: k.Description, Lang: k.Language,
			Reward: web.FormatMoney(k.RewardMinor, k.CurrencyCode, lang), Minutes: k.EstimatedMinutes,
			Href: "/survey/" + k.GUID, IsNew: k.IsNew, IsCompetition: k.IsCompetition, IsWelcome: k.IsWelcome,
			InProgress: k.Status == campaigns.StatusStarted, ReturnTo: returnTo, Reasons: reasons,
		})
	}
	return out
}

// POST /feed/:id/hide: with htmx the card is removed in place; without, back to the feed.
func (m *Module) hideSubmit(c fiber.Ctx) error {
	if err := m.Hide(c.Context(), web.PanelOf(c), member(c), c.Params("id")); err != nil {
		return err
	}
	return m.cardGone(c, "flash.campaign_hidden")
}

// POST /feed/:id/report {reasonCode, reasonText}
func (m *Module) reportSubmit(c fiber.Ctx) error {
	_, _, err := m.Report(c.Context(), web.PanelOf(c), member(c), c.Params("id"), c.FormValue("reasonCode"), c.FormValue("reasonText"))
	if we := (*web.Error)(nil); errors.As(err, &we) && we.Status == fiber.StatusBadRequest {
		// The form's own checks make this rare: say what is wrong and keep the card.
		msg := we.ToAPI(m.kit.Tr(c)).Message
		if web.IsHTMX(c) {
			c.Set("HX-Reswap", "none")
			return toast(c, msg, "error")
		}
		m.kit.FlashNext(c, "error", "flash.report_invalid")
		return c.Redirect().Status(fiber.StatusSeeOther).To(returnTo(c))
	}
	if err != nil {
		return err
	}
	return m.cardGone(c, "flash.campaign_reported")
}

// cardGone answers a card action: an empty swap and a toast with htmx, a redirect back to
// the feed with the same message without JavaScript.
func (m *Module) cardGone(c fiber.Ctx, flashID string) error {
	if web.IsHTMX(c) {
		return toast(c, m.kit.T(c, flashID, nil), "success")
	}
	m.kit.FlashNext(c, "success", flashID)
	return c.Redirect().Status(fiber.StatusSeeOther).To(returnTo(c))
}

func returnTo(c fiber.Ctx) string {
	if to := web.LocalPath(c, c.FormValue("return")); to != "" {
		return to
	}
	return "/feed"
}

// toast answers an htmx request with an empty body and a toast (HX-Trigger, see islands/lib/toast.ts).
func toast(c fiber.Ctx, message, kind string) error {
	trigger, _ := json.Marshal(map[string]any{"toast": map[string]string{"message": message, "type": kind}})
	c.Set("HX-Trigger", string(trigger))
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusOK).SendString("")
}
