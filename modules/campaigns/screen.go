package campaigns

import (
	"cmp"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// screen is where the survey screen is shown: in the app (/survey), in another site's iframe
// (/embed/survey: no app chrome) or as the 250px-high widget (/embed/widget: the wide image
// button, Submit for a one-question invitation). The same handlers serve all three; their
// forms and redirects stay on the screen they came from.
type screen struct {
	prefix string
	embed  bool
	widget bool
}

var screens = []screen{{prefix: "/survey"}, {prefix: "/embed/survey", embed: true}, {prefix: "/embed/widget", embed: true, widget: true}}

func screenOf(c fiber.Ctx) screen {
	p := c.Path()
	for _, s := range screens[1:] {
		if strings.HasPrefix(p, s.prefix+"/") {
			return s
		}
	}
	return screens[0]
}

// url is the screen's address of a campaign, or of one of its actions (start, answer, ...).
func (s screen) url(campaignID string, action ...string) string {
	u := s.prefix + "/" + campaignID
	for _, a := range action {
		u += "/" + a
	}
	return u
}

// returnCookie keeps the spec's "previously stored redirect target" of the thank-you
// button: the address (and its own label) a survey link brought along as ?redirect= and
// ?redirectLabel=, until the button uses it.
const returnCookie = "survey-return"

// maxReturnLabel bounds a stored redirect's label (it becomes a button).
const maxReturnLabel = 60

// storeReturn keeps a safe ?redirect= (and its label) of the survey link for the thank-you
// button. An unsafe address is dropped, as every redirect target is.
func (m *Module) storeReturn(c fiber.Ctx) {
	target := web.SafeRedirect(c, c.Query("redirect"))
	if target == "" {
		return
	}
	label := strings.Join(strings.Fields(c.Query("redirectLabel")), " ")
	if r := []rune(label); len(r) > maxReturnLabel {
		label = string(r[:maxReturnLabel])
	}
	m.kit.SetCookie(c, &fiber.Cookie{Name: returnCookie, Value: url.Values{"to": {target}, "label": {label}}.Encode(), Path: "/", SessionOnly: true})
}

// storedReturn is the stored redirect target and label, checked again (the cookie is the
// browser's to change).
func storedReturn(c fiber.Ctx) (target, label string) {
	v, err := url.ParseQuery(c.Cookies(returnCookie))
	if err != nil {
		return "", ""
	}
	return web.SafeRedirect(c, v.Get("to")), v.Get("label")
}

// backLabel is the thank-you button's label: a stored redirect's own label, else the spec's
// 'Take me back to my feed'.
func (m *Module) backLabel(c fiber.Ctx, r *GoResult) string {
	if target, label := storedReturn(c); target != "" && label != "" && !r.Campaign.IsWelcome {
		return label
	}
	return m.kit.T(c, "error.default_button", nil)
}

// GET /survey/:campaignUuid/leave: the thank-you button 'Take me back to my feed', in the
// spec's order. After the welcome campaign, the first campaign of the member's feed; else the
// stored redirect target, which it clears; else the feed. (The onboarding flow's own box goes
// to the home root.)
func (m *Module) leave(c fiber.Ctx) error {
	panel, who := web.PanelOf(c), audience(c)
	d, err := m.Load(c.Context(), panel, who, c.Params("campaignUuid"))
	if err != nil {
		return err
	}
	if d.Campaign.IsWelcome {
		page, err := m.load(c.Context(), panel, who, FeedQuery{Page: "first", PageSize: DefaultPageSize})
		if err != nil {
			return err
		}
		for _, card := range page.Cards {
			if card.GUID != d.GUID && !IsTerminal(card.Status) {
				return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(card.GUID))
			}
		}
	}
	if target, _ := storedReturn(c); target != "" {
		m.kit.ClearCookie(c, returnCookie)
		return c.Redirect().Status(fiber.StatusSeeOther).To(target)
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
}

// GET campaigns/{id}/question/{qid}/iframe?token=&lang=: the spec's built question-iframe URL
// (opened in an iframe, not fetched). It leads to the embedded survey screen, which shows the
// member's current question, carrying the token (the page turns it into its partitioned
// session cookie) and the language.
func (m *Module) apiQuestionIframe(c fiber.Ctx) error {
	id, qid := c.Params("id"), c.Params("qid")
	d, err := m.Load(c.Context(), web.PanelOf(c), audience(c), id)
	if err != nil {
		return err
	}
	if questionIndex(&d.Campaign.Definition, qid) < 0 {
		return web.NotFound()
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(withTokenAndLang(c, screens[1].url(id)))
}

// withTokenAndLang adds the request's token and lang parameters to a page address.
func withTokenAndLang(c fiber.Ctx, target string) string {
	q := url.Values{}
	if t := cmp.Or(c.Query("token"), c.Query("pp-token")); t != "" {
		q.Set("token", t)
	}
	if l := c.Query("lang"); l != "" {
		q.Set("lang", l)
	}
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	return target
}
