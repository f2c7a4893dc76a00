package surveys

import (
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	"github.com/gofiber/fiber/v3"
)

// ContinueLabel is the analytics label of a move from one survey to another (spec section 2).
const ContinueLabel = "Continue to my campaign"

// continueEvent is the name of that analytics event.
const continueEvent = "continue_to_my_campaign"

// continueToCampaign reports, through the panel's tag analytics, a member who arrives at a
// survey from another survey (spec section 2: navigating to /survey/{id} when the previous path
// was itself under /survey/ and is not that survey's records the previous path, minus its
// leading slash, with the label 'Continue to my campaign'). The welcome campaign's thank-you
// button leads so to the first campaign of the feed. The previous path is the Referer of the
// page request, when it is a page of this origin (a form's redirect keeps the page it was
// sent from); a panel without a tag reports nothing.
func continueToCampaign(c fiber.Ctx, p *views.Page) {
	if p.Tag == nil || c.Method() != fiber.MethodGet || web.IsHTMX(c) || web.IsAPI(c) {
		return
	}
	here, ok := surveyOf(c.Path())
	if !ok {
		return
	}
	ref, base := c.Get(fiber.HeaderReferer), c.BaseURL()
	if !strings.HasPrefix(ref, base+"/") {
		return
	}
	prev, err := url.Parse(ref)
	if err != nil {
		return
	}
	from, ok := surveyOf(prev.Path)
	if !ok || from == here || len(prev.Path) > 300 {
		return
	}
	p.Tag.Events = append(p.Tag.Events, views.TagEvent{Name: continueEvent, Params: map[string]string{
		"event_label": ContinueLabel, "previous_path": strings.TrimPrefix(prev.Path, "/"),
	}})
}

// surveyOf is the campaign of a survey screen's path (/survey/{id}/...), ok false for another
// path or a preview.
func surveyOf(path string) (id string, ok bool) {
	rest, ok := strings.CutPrefix(path, "/survey/")
	if !ok {
		return "", false
	}
	id, sub, _ := strings.Cut(rest, "/")
	if id == "" || strings.HasPrefix(sub, "preview/") {
		return "", false
	}
	return id, true
}
