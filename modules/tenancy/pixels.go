package tenancy

import (
	"encoding/json"
	"net/url"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	"github.com/gofiber/fiber/v3"
)

// appLoadEvent is the event name of the app's load (events.AppLoad).
const appLoadEvent = "APP_LOAD"

// pagePixels puts the panel's load-time images on the page a visit enters the app by
// (web.EntersApp): the tracking image that records the app's load (spec section 7: GET
// {instance}/api/v1/{code}/events/record with eventName, the pp-panel key and eventData holding
// the referrer; the base layout renders it) and, for a signed-in member, the panel's
// app_settings.tracking_pixel (the member layout renders it). The session token is not put in
// the image's address: the image is the app's own, so the browser sends the session cookie
// with it, and a token written into the page would outlive the HttpOnly cookie that keeps it.
func pagePixels(c fiber.Ctx, p *views.Page) {
	panel := web.PanelOf(c)
	if panel == nil || panel.InstanceCode == "" || !web.EntersApp(c) {
		return
	}
	data, _ := json.Marshal(map[string]string{"referrer": web.AppLoadReferrer(c)})
	v := url.Values{"eventName": {appLoadEvent}, "eventData": {string(data)}, "pp-panel": {panel.Key}}
	p.AppLoadURL = "/api/v1/" + url.PathEscape(panel.InstanceCode) + "/events/record?" + v.Encode()
	if web.MemberOf(c) == nil {
		return
	}
	if src, origin := web.TrackingPixelURL(panel.TrackingPixel); src != "" {
		p.TrackingPixel = src
		if origin != "" {
			web.AllowSources(c, web.CSPSources{Img: []string{origin}})
		}
	}
}
