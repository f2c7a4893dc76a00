package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/static"
	"github.com/canvass/canvass/views"
	"github.com/canvass/canvass/views/layouts/registry"
	"github.com/gofiber/fiber/v3"
)

// Kit is the shared machinery handed to every module: rendering, translations, cookies,
// CSRF and the error handler. It is built once in app wiring.
type Kit struct {
	Env     string
	Log     *slog.Logger
	Locales *Locales
	Assets  *static.Assets
	secret  []byte
	cssURL  string
	// layoutCSS is each layout's stylesheet address (versioned like cssURL), by layout name.
	layoutCSS map[string]string
	// devAssets, under `make dev`, is the static folder on disk: each page names the islands
	// of the build Vite last wrote there (WatchAssets).
	devAssets fs.FS

	nav        []NavEntry
	clientIDs  []string
	pageHooks  []func(c fiber.Ctx, p *views.Page)
	langSwitch func(c fiber.Ctx, code string) error
	onMissing  func(panelID, lang, id string)
	tagLogged  sync.Map // panel id + tag id -> struct{}: a bad tag id is logged once per process
}

// NavEntry is a section of the home navigation that a module contributes.
type NavEntry struct {
	Href    string
	Icon    string // spec icon names: home, rewards, referrals, transactions, logout, settings, offers, ...
	LabelID string
	Order   int
	// Show, when set, says whether the signed-in member of the request sees the entry (the
	// referrals entry shows to members eligible to refer). It reads the request, never the
	// database: what it needs comes with the session (web.MemberJoin) or a cache.
	Show func(c fiber.Ctx) bool
}

// NewKit builds the kit. secret signs CSRF tokens and other signed values.
func NewKit(env string, secret string, log *slog.Logger, locales *Locales, assets *static.Assets) *Kit {
	k := &Kit{Env: env, Log: log, Locales: locales, Assets: assets, secret: []byte(secret), clientIDs: []string{"toast.close"}}
	k.cssURL = versioned("css/app.css")
	k.layoutCSS = map[string]string{}
	for _, l := range registry.All() {
		if s, ok := l.(registry.Stylesheeter); ok {
			k.layoutCSS[l.Name()] = versioned(s.Stylesheet())
		}
	}
	return k
}

// versioned is the address of a stylesheet in static/ with its content's hash, so a changed
// file is a new address and browsers may cache each one for good.
func versioned(name string) string {
	u := static.URLPrefix + name
	if css, err := fs.ReadFile(static.FS, name); err == nil {
		sum := sha256.Sum256(css)
		u += "?v=" + hex.EncodeToString(sum[:6])
	}
	return u
}

// WatchAssets makes pages name what a static folder on disk holds as it is now (`make dev`):
// the islands of the build Vite last wrote there, and the stylesheet unversioned, for the disk
// handler serves it uncached. Never in production, whose assets are the binary's own.
func (k *Kit) WatchAssets(dir fs.FS) {
	k.devAssets = dir
	k.cssURL = strings.Split(k.cssURL, "?")[0]
	for name, u := range k.layoutCSS {
		k.layoutCSS[name] = strings.Split(u, "?")[0]
	}
}

// Secret returns a key derived from the configured secret for one purpose.
func (k *Kit) Secret(purpose string) []byte {
	sum := sha256.Sum256(append([]byte(purpose+"\x00"), k.secret...))
	return sum[:]
}

// AddNav registers a navigation section.
func (k *Kit) AddNav(e NavEntry) {
	k.nav = append(k.nav, e)
	sort.SliceStable(k.nav, func(i, j int) bool { return k.nav[i].Order < k.nav[j].Order })
}

// ClientMessages adds message ids that scripts on every page need (islands add their own).
func (k *Kit) ClientMessages(ids ...string) { k.clientIDs = append(k.clientIDs, ids...) }

// OnPage registers a hook that adds to every page (the wallet fills the balance slot).
func (k *Kit) OnPage(fn func(c fiber.Ctx, p *views.Page)) { k.pageHooks = append(k.pageHooks, fn) }

// OnLanguageSwitch registers what happens when a member switches language with ?lang=.
func (k *Kit) OnLanguageSwitch(fn func(c fiber.Ctx, code string) error) { k.langSwitch = fn }

// OnMissingTranslation registers what happens when a request's language lacks a message it
// renders (tenancy counts it for translators). fn runs on the request path: keep it in memory.
func (k *Kit) OnMissingTranslation(fn func(panelID, lang, id string)) { k.onMissing = fn }

// Tr returns the translator of the request's language.
func (k *Kit) Tr(c fiber.Ctx) func(string, map[string]any, any) string {
	return k.translator(PanelOf(c), LocaleOf(c))
}

// T translates one message id in the request's language.
func (k *Kit) T(c fiber.Ctx, id string, data map[string]any) string {
	return k.Translate(PanelOf(c), LocaleOf(c), id, data, nil)
}

// translator is Locales.Tr that also notes each message lang lacks for the panel.
func (k *Kit) translator(panel *Panel, lang string) func(string, map[string]any, any) string {
	if k.onMissing == nil || panel == nil {
		return k.Locales.Tr(lang)
	}
	return func(id string, data map[string]any, count any) string {
		return k.Translate(panel, lang, id, data, count)
	}
}

// Translate is Locales.Translate that notes a message lang lacks for the panel (OnMissingTranslation).
func (k *Kit) Translate(panel *Panel, lang, id string, data map[string]any, count any) string {
	if k.onMissing != nil && panel != nil && k.Locales.Lacks(lang, id) {
		k.onMissing(panel.ID, lang, id)
	}
	return k.Locales.Translate(lang, id, data, count)
}

type islandsKey struct{}

// UseIsland marks an island as present on the page so its chunk is preloaded.
func UseIsland(c fiber.Ctx, name string) {
	list, _ := c.Locals(islandsKey{}).([]string)
	c.Locals(islandsKey{}, append(list, name))
}

// UseHTMX puts htmx on the page (its own entry, islands/htmx.ts): pages that swap fragments
// call it; on every other page hx-* attributes stay inert and their forms work as plain HTML.
func UseHTMX(c fiber.Ctx) { UseIsland(c, "htmx") }

// Page builds what every template reads about the request.
func (k *Kit) Page(c fiber.Ctx) *views.Page {
	member := MemberOf(c)
	islands, _ := c.Locals(islandsKey{}).([]string)
	p := k.page(PanelOf(c), LocaleOf(c), member != nil, islands)
	p.Path = c.Path()
	p.CurrentURL = string(c.Request().URI().RequestURI())
	p.CSRFToken = CSRFToken(c)
	p.RequestID = c.RequestID()
	if member != nil {
		p.Member = &views.Member{Email: member.Email, Username: member.Username}
		for _, e := range k.nav {
			if e.Show != nil && !e.Show(c) {
				continue
			}
			active := c.Path() == e.Href || (e.Href != "/" && len(c.Path()) > len(e.Href) && c.Path()[:len(e.Href)+1] == e.Href+"/")
			p.Nav = append(p.Nav, views.NavItem{Href: e.Href, Icon: e.Icon, Label: p.Translate(e.LabelID, nil, nil), Active: active})
		}
	}
	if f := c.Cookies(flashCookie); f != "" {
		kind, id, _ := strings.Cut(f, "|")
		if flashable(kind, id) {
			p.Flash = append(p.Flash, views.Flash{Type: kind, Message: p.Translate(id, nil, nil)})
		}
		k.ClearCookie(c, flashCookie)
	}
	p.FieldErrors = k.sentBackFields(c, p.Translate)
	for _, f := range flashes(c) {
		p.Flash = append(p.Flash, views.Flash{Type: f[0], Message: f[1]})
	}
	for _, hook := range k.pageHooks {
		hook(c, p)
	}
	return p
}

// FixturePage is the page a member (or, with member nil, a visitor) of panel would get at path
// in lang, built from what it is given alone: no request, cookie, hook or database. The
// development gallery renders its fixtures in it. A member sees every navigation entry, as the
// demo member does: the fullest menu is the one a layout must fit.
func (k *Kit) FixturePage(panel *Panel, lang, path string, member *views.Member, islands []string) *views.Page {
	p := k.page(panel, lang, member != nil, islands)
	p.Path, p.CurrentURL = path, path
	p.CSRFToken = "gallery-fixture-token"
	if member != nil {
		p.Member = member
		for _, e := range k.nav {
			active := path == e.Href || strings.HasPrefix(path, e.Href+"/")
			p.Nav = append(p.Nav, views.NavItem{Href: e.Href, Icon: e.Icon, Label: p.Translate(e.LabelID, nil, nil), Active: active})
		}
	}
	return p
}

// page is the part of a page that follows from the panel, the language, whether a member is
// signed in and the islands on it.
func (k *Kit) page(panel *Panel, lang string, member bool, islands []string) *views.Page {
	p := &views.Page{
		AppName:    "the app",
		Lang:       lang,
		Translate:  k.translator(panel, lang),
		FaviconURL: "/static/img/favicon.svg",
		FontFamily: "'Open Sans', sans-serif",
		Styles:     []string{k.cssURL},
	}
	if k.Env != "production" {
		p.EnvSuffix = " - " + k.Env
	}
	if panel != nil {
		// The spec's order: app_settings.web_app_name, the profile's platformName, "the app".
		switch {
		case panel.WebAppName != "":
			p.AppName = panel.WebAppName
		case member && panel.Name != "":
			p.AppName = panel.Name
		}
		p.ThemeCSS = panel.ThemeCSS
		p.FontURL = panel.FontURL
		if panel.FontFamily != "" {
			p.FontFamily = panel.FontFamily
		}
		p.LogoURL = panel.LogoURL
		p.Layout = registry.Named(panel.Layout)
		if css := k.layoutCSS[p.Layout.Name()]; css != "" {
			p.Styles = append(p.Styles, css)
		}
		if panel.FaviconURL != "" {
			p.FaviconURL = panel.FaviconURL
		}
		p.Tag = k.tag(panel)
		for _, l := range panel.Languages {
			p.Languages = append(p.Languages, views.Language{Code: l.Code, Name: l.Name, IsDefault: l.IsDefault})
		}
	}
	assets := k.Assets
	if k.devAssets != nil {
		if a, err := static.Load(k.devAssets); err == nil {
			assets = a
		} else {
			k.Log.Warn("reading the islands' manifest on disk", "err", err)
		}
	}
	if assets != nil {
		tags := assets.Head(islands...)
		p.Scripts, p.Preloads = tags.Scripts, tags.Preloads
		p.Styles = append(p.Styles, tags.Styles...)
		if len(p.Scripts) > 0 {
			p.ClientMessages = map[string]string{}
			for _, id := range k.clientIDs {
				p.ClientMessages[id] = p.Translate(id, nil, nil)
			}
		}
	}
	return p
}

// Render writes a templ component as the HTML response. A component that fails while
// rendering becomes the "Unexpected Application Error!" page, never half a page.
func (k *Kit) Render(c fiber.Ctx, status int, comp templ.Component) error {
	return k.RenderPage(c, k.Page(c), status, comp)
}

// RenderPage renders with a page the caller adjusted (title, embedded chrome).
func (k *Kit) RenderPage(c fiber.Ctx, page *views.Page, status int, comp templ.Component) error {
	if page.Tag != nil {
		if page.Embedded || IsEmbed(c) {
			page.Tag = nil // other sites frame these: their analytics are the embedder's own
		} else {
			allowTag(c, page.Tag) // the CSP lets this page's tag hosts in, and only this page's
		}
	}
	ctx := templ.WithNonce(views.WithPage(c.Context(), page), Nonce(c))
	// Straight into the response's own (pooled) body buffer: a page's bytes are written once,
	// not grown in a buffer of ours and copied (`make profile TARGET=feed`).
	c.Response().ResetBody()
	err := comp.Render(ctx, c.Response().BodyWriter())
	// Under `make dev` templ rewrites a template's _templ.txt as it is saved; a page rendered in
	// that instant reads it half-written ("templ: failed to find line N"). A moment later the
	// file is whole, or the server restarts with the template's new code.
	for try := 0; err != nil && k.devAssets != nil && strings.HasPrefix(err.Error(), "templ: failed to") && try < 10; try++ {
		time.Sleep(100 * time.Millisecond)
		c.Response().ResetBody()
		err = comp.Render(ctx, c.Response().BodyWriter())
	}
	if err != nil {
		c.Response().ResetBody()
		return &Error{Status: fiber.StatusInternalServerError, Err: err, unexpected: true}
	}
	c.Status(status)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return nil
}

// The spec's tag id rules (section 5): google_analytics_id must start with G-, UA-, AW- or DC-
// (else an error is logged and it is ignored); google_tag_mngr_id is recognised by GTM- or one of
// those (else a warning). The rest of the id is letters, digits and dashes, as Google issues
// them, so it is safe in a URL and a script's data.
var (
	gtagIDRE      = regexp.MustCompile(`^(G|UA|AW|DC)-[A-Za-z0-9-]{1,40}$`)
	containerIDRE = regexp.MustCompile(`^GTM-[A-Za-z0-9]{1,40}$`)
)

// tag is the panel's tag analytics for its pages, nil when it has none that is valid.
func (k *Kit) tag(p *Panel) *views.Tag {
	if p.AnalyticsID == "" && p.TagManagerID == "" {
		return nil
	}
	var t views.Tag
	if id := p.AnalyticsID; id != "" {
		if gtagIDRE.MatchString(id) {
			t.GtagIDs = append(t.GtagIDs, id)
		} else {
			k.logTagOnce(p, id, slog.LevelError, "google_analytics_id must start with G-, UA-, AW- or DC-: ignored")
		}
	}
	if id := p.TagManagerID; id != "" {
		switch {
		case containerIDRE.MatchString(id):
			t.ContainerID = id
		case gtagIDRE.MatchString(id):
			if !slices.Contains(t.GtagIDs, id) {
				t.GtagIDs = append(t.GtagIDs, id)
			}
		default:
			k.logTagOnce(p, id, slog.LevelWarn, "google_tag_mngr_id is not a recognised tag (GTM-, G-, UA-, AW-, DC-): ignored")
		}
	}
	if len(t.GtagIDs) == 0 && t.ContainerID == "" {
		return nil
	}
	return &t
}

func (k *Kit) logTagOnce(p *Panel, id string, level slog.Level, msg string) {
	if _, seen := k.tagLogged.LoadOrStore(p.ID+"\x00"+id, struct{}{}); !seen {
		k.Log.Log(context.Background(), level, msg, "panel", p.Key, "tag", id)
	}
}

// Date formats an instant in the request's language, "Apr 30, 2027" (with the time when
// withTime: "Apr 30, 2027 at 12:00 UTC"). It is in UTC: members' time zones are unknown.
func (k *Kit) Date(c fiber.Ctx, at time.Time, withTime bool) string {
	return k.DateIn(PanelOf(c), LocaleOf(c), at, withTime)
}

// DateIn is Date for a panel and language without a request (mail, the gallery).
func (k *Kit) DateIn(panel *Panel, lang string, at time.Time, withTime bool) string {
	at = at.UTC()
	t := func(id string, data map[string]any) string { return k.Translate(panel, lang, id, data, nil) }
	data := map[string]any{"Day": at.Day(), "Month": t(fmt.Sprintf("month_short.%d", int(at.Month())), nil), "Year": at.Year(), "Time": at.Format("15:04")}
	if withTime {
		return t("common.datetime", data)
	}
	return t("common.date", data)
}

const flashCookie = "flash"

// flashable tells whether a flash cookie names a message the app may show: the cookie comes
// back from the browser, so only catalogue ids are taken (never text), "flash.*" of any kind
// and, for a refusal redirected back to its form, an "error.*" id.
func flashable(kind, id string) bool {
	switch kind {
	case "success", "info":
		return strings.HasPrefix(id, "flash.")
	case "error":
		return strings.HasPrefix(id, "flash.") || strings.HasPrefix(id, "error.")
	}
	return false
}

// FlashNext shows a toast on the next page this browser renders (after a redirect).
// id is a message id: "flash.*", or "error.*" with kind "error".
func (k *Kit) FlashNext(c fiber.Ctx, kind, id string) {
	k.SetCookie(c, &fiber.Cookie{Name: flashCookie, Value: kind + "|" + id, MaxAge: 60})
}

// IsHTMX tells whether the request is an htmx partial swap.
func IsHTMX(c fiber.Ctx) bool { return c.Get("HX-Request") == "true" }

// PanelOrigin is where a panel answers, for links that leave the request (mails, texts, a
// move to another panel): the panel's first domain, never the request's Host (a client can
// send any Host, and "LOCALHOST." or ":8443" would end up in a member's mailbox). The scheme
// is the request's, as the connection or a trusted proxy says; in production a panel answers
// on its scheme's own port, elsewhere on the port this process was reached on (the demo's
// :3000, a test's loopback port). CANVASS_BASE_URL, where the caller has it, comes first.
func (k *Kit) PanelOrigin(c fiber.Ctx, p *Panel) string {
	host := ""
	if len(p.Hosts) > 0 {
		host = p.Hosts[0]
	}
	scheme := c.Scheme()
	if k.Env != "production" {
		if addr, ok := c.RequestCtx().LocalAddr().(*net.TCPAddr); ok && addr.Port != 0 &&
			!(scheme == "http" && addr.Port == 80) && !(scheme == "https" && addr.Port == 443) {
			host = net.JoinHostPort(host, strconv.Itoa(addr.Port))
		}
	}
	return scheme + "://" + host
}
