package surveys

import (
	"cmp"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/campaigns"
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

// GET campaigns/{id}/question/{qid}/iframe?token=&lang=: the spec's built question-iframe URL
// (opened in an iframe, not fetched). It leads to the embedded survey screen, which shows the
// member's current question, carrying the token (the page turns it into its partitioned
// session cookie) and the language.
func (m *Module) apiQuestionIframe(c fiber.Ctx) error {
	id, qid := c.Params("id"), c.Params("qid")
	t, err := m.take(c, id)
	if err != nil {
		return err
	}
	if !t.Campaign.HasQuestion(qid) {
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

// take asks the audience rule whether the request's member may take the campaign.
func (m *Module) take(c fiber.Ctx, id string) (*campaigns.Taking, error) {
	return m.audience.CanTake(c.Context(), web.PanelOf(c), respondent(c).Person(), id)
}
