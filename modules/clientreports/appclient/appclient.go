// Package appclient reads the spec's request conventions (section 7): the headers the islands'
// request helper sends on every call, X-App-Name, X-App-Lang, X-Viewport-Width,
// X-Viewport-Height, X-DPR, and the native-app marker. Error reports and tracking events
// record them. It is a leaf package (it imports only the web kit) so any module may read them.
package appclient

import (
	"math"
	"regexp"
	"strconv"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The headers. The spec names the first five; it only says "a native-app marker when in a
// native wrapper", so Canvass names it X-Native-App, holding the wrapper's name ("ios",
// "android") or "1".
const (
	LangHeader           = "X-App-Lang"
	ViewportWidthHeader  = "X-Viewport-Width"
	ViewportHeightHeader = "X-Viewport-Height"
	DPRHeader            = "X-DPR"
	NativeAppHeader      = "X-Native-App"
)

// Client is what a request said of the app that sent it; zero values mean "not said".
type Client struct {
	Name           string  // X-App-Name: web, widget, or a native app's name
	Lang           string  // X-App-Lang: the page's language code
	ViewportWidth  int     // CSS pixels
	ViewportHeight int     // CSS pixels
	DPR            float64 // device pixel ratio, to two decimals
	Native         string  // X-Native-App: the native wrapper, "" in a browser
}

var (
	plainRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,40}$`)
	langRE  = regexp.MustCompile(`^[A-Za-z]{2,3}([_-][A-Za-z0-9]{1,8}){0,3}$`)
)

// Bounds past which a value is a client's mistake or a lie, recorded as not said.
const (
	maxViewport = 100_000
	maxDPR      = 20
)

// Read returns the conventions of a request. A malformed value counts as absent rather than
// refusing the request: these are hints about the client, and a report must not be lost to a
// bad hint.
func Read(c fiber.Ctx) Client {
	cl := Client{Name: web.AppName(c)}
	if v := c.Get(LangHeader); langRE.MatchString(v) {
		cl.Lang = v
	}
	cl.ViewportWidth = pixels(c.Get(ViewportWidthHeader))
	cl.ViewportHeight = pixels(c.Get(ViewportHeightHeader))
	if f, err := strconv.ParseFloat(c.Get(DPRHeader), 64); err == nil && f > 0 && f <= maxDPR {
		cl.DPR = math.Round(f*100) / 100
	}
	if v := c.Get(NativeAppHeader); plainRE.MatchString(v) {
		cl.Native = v
	}
	return cl
}

// pixels reads a whole, positive number of CSS pixels (browsers may send "412.5" on zoom,
// which is rounded), 0 when it is anything else.
func pixels(s string) int {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f <= 0 || f > maxViewport {
		return 0
	}
	return int(math.Round(f))
}
