package web

import (
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"golang.org/x/text/language"
)

// LangCookie remembers the language a visitor chose with ?lang=.
const LangCookie = "lang"

// Locale applies the spec's language rules: a lang query parameter switches the language, is
// remembered in a cookie and removed by a redirect; detection order is the lng query, the
// cookie, then Accept-Language; a member's languageCode overrides; a language the panel does
// not offer falls back to the panel default, then English, then the first.
func (k *Kit) Locale() fiber.Handler {
	return func(c fiber.Ctx) error {
		panel := PanelOf(c)
		if code := normalizeLang(c.Query("lang")); code != "" && (c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead) {
			if panel != nil && panel.Offers(code) {
				k.SetCookie(c, &fiber.Cookie{Name: LangCookie, Value: code, Expires: time.Now().AddDate(1, 0, 0)})
				if m := MemberOf(c); m != nil && k.langSwitch != nil {
					if err := k.langSwitch(c, code); err != nil {
						return err
					}
					m.LanguageCode = code
				}
			}
			if !IsAPI(c) {
				return c.Redirect().Status(fiber.StatusSeeOther).To(WithoutQuery(c, "lang"))
			}
		}
		setLocale(c, ResolveLanguage(panel, detect(c, panel), memberLang(c)))
		return c.Next()
	}
}

func memberLang(c fiber.Ctx) string {
	if m := MemberOf(c); m != nil {
		return m.LanguageCode
	}
	return ""
}

func detect(c fiber.Ctx, panel *Panel) string {
	if IsAPI(c) {
		if l := normalizeLang(c.Get("X-App-Lang")); l != "" {
			return l
		}
	}
	if l := normalizeLang(c.Query("lng")); l != "" {
		return l
	}
	if l := normalizeLang(c.Cookies(LangCookie)); l != "" {
		return l
	}
	accept := c.Get(fiber.HeaderAcceptLanguage)
	if accept == "" {
		return ""
	}
	tags, _, err := language.ParseAcceptLanguage(accept)
	if err != nil {
		return ""
	}
	for _, t := range tags {
		base, _ := t.Base()
		code := base.String()
		if panel == nil || panel.Offers(code) {
			return code
		}
	}
	return ""
}

// ResolveLanguage picks the language to use: the member's languageCode overrides the detected
// one; either must be offered by the panel, else its default, else English, else the first.
func ResolveLanguage(panel *Panel, detected, member string) string {
	if panel == nil || len(panel.Languages) == 0 {
		for _, cand := range []string{member, detected} {
			if IsSupported(cand) {
				return cand
			}
		}
		return "en"
	}
	for _, cand := range []string{member, detected} {
		if cand != "" && panel.Offers(cand) {
			return cand
		}
	}
	if panel.DefaultLanguage != "" && panel.Offers(panel.DefaultLanguage) {
		return panel.DefaultLanguage
	}
	if panel.Offers("en") {
		return "en"
	}
	return panel.Languages[0].Code
}

// IsSupported tells whether Canvass ships translations for a language code.
func IsSupported(code string) bool {
	for _, l := range Supported {
		if l.Code == code {
			return true
		}
	}
	return false
}

// normalizeLang reduces "es-MX" or "ES" to "es"; anything that is not a language tag is "".
func normalizeLang(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 35 {
		return ""
	}
	t, err := language.Parse(v)
	if err != nil {
		return ""
	}
	base, _ := t.Base()
	return base.String()
}

// IsAPI tells whether the request is for a JSON API rather than a page.
func IsAPI(c fiber.Ctx) bool {
	p := c.Path()
	return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/ah/api/") || strings.HasPrefix(p, "/panel/") || strings.HasPrefix(p, "/console/api/")
}

// WithoutQuery is the current path and query with the named parameters removed.
func WithoutQuery(c fiber.Ctx, names ...string) string {
	q, _ := url.ParseQuery(string(c.Request().URI().QueryString()))
	for _, n := range names {
		q.Del(n)
	}
	// Leading slashes collapse to one, so "//evil.example/x" can never become a protocol-relative redirect.
	target := "/" + strings.TrimLeft(c.Path(), "/\\")
	if enc := q.Encode(); enc != "" {
		target += "?" + enc
	}
	return target
}
