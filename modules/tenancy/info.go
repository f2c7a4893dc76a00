package tenancy

import (
	"encoding/json"
	"errors"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// DomainInfo is the spec's domain info.
type DomainInfo struct {
	Panels        []DomainPanel `json:"panels"`
	LoginPageURL  string        `json:"login_page_url"`
	LogoutPageURL string        `json:"logout_page_url"`
	WebAppLogin   bool          `json:"web_app_login"`
}

type DomainPanel struct {
	UUID      string           `json:"uuid"`
	Key       string           `json:"key"`
	Languages []DomainLanguage `json:"languages"`
}

type DomainLanguage struct {
	LanguageCode string `json:"language_code"`
	IsDefault    bool   `json:"is_default"`
}

// PanelInfo is the spec's panel info (served inside instance info).
type PanelInfo struct {
	GUID          string            `json:"guid"`
	Key           string            `json:"key"`
	Name          string            `json:"name"`
	CurrencyCode  string            `json:"currency_code"`
	AppSettings   PublicAppSettings `json:"app_settings"`
	LoginPageURL  string            `json:"login_page_url"`
	LogoutPageURL string            `json:"logout_page_url"`
	AppTheme      AppTheme          `json:"app_theme"`
}

// PublicAppSettings are the app_settings panel info answers: exactly the spec's fields
// (section 3). The operator's other settings (embed origins, direct onboarding, widget_after,
// change_instance_to, the sign-up limit) steer the server and are not the client's to read.
type PublicAppSettings struct {
	WebAppName              string `json:"web_app_name"`
	GoogleAnalyticsID       string `json:"google_analytics_id"`
	GoogleTagMngrID         string `json:"google_tag_mngr_id"`
	TrackingPixel           string `json:"tracking_pixel"`
	TermsRequired           bool   `json:"terms_required"`
	EmailValidationReminder bool   `json:"email_validation_reminder"`
	Theme                   string `json:"theme"`
}

// InstanceInfo is the spec's instance info: its key and panels keyed by panel key.
type InstanceInfo struct {
	Key    string               `json:"key"`
	Code   string               `json:"code"`
	Panels map[string]PanelInfo `json:"panels"`
}

// GET /ah/api/v1/domain-info?domain=HOST (the request's own host when domain is absent).
func (m *Module) domainInfo(c fiber.Ctx) error {
	host := NormalizeHost(c.Query("domain", c.Host()))
	if host == "" {
		return web.Invalid("domain", "error.invalid_domain", nil)
	}
	_, l, err := m.resolver.ByHost(c.Context(), host)
	if errors.Is(err, ErrUnknownDomain) {
		return unrecognized(host)
	}
	if err != nil {
		return err
	}
	info := DomainInfo{LoginPageURL: l.Panel.LoginPageURL, LogoutPageURL: l.Panel.LogoutPageURL, WebAppLogin: true}
	for _, d := range l.Domains {
		if d.Host == host {
			info.WebAppLogin = d.WebAppLogin
		}
	}
	dp := DomainPanel{UUID: l.Panel.ID, Key: l.Panel.Key, Languages: []DomainLanguage{}}
	for _, lang := range l.Languages {
		dp.Languages = append(dp.Languages, DomainLanguage{LanguageCode: lang.LanguageCode, IsDefault: lang.IsDefault})
	}
	info.Panels = []DomainPanel{dp}
	return c.JSON(info)
}

// GET /ah/api/v1/instance-info?panelKey=KEY: the instance of a panel with that panel's info.
// Only a panel served on this host may be asked for, so one tenant cannot read another's settings.
func (m *Module) instanceInfo(c fiber.Ctx) error {
	key := c.Query("panelKey")
	current := web.PanelOf(c)
	if key == "" && current != nil {
		key = current.Key
	}
	if key == "" {
		return web.Invalid("panelKey", "error.required", nil)
	}
	if current == nil || current.Key != key {
		return web.NotFound()
	}
	_, l, err := m.resolver.ByKey(c.Context(), key)
	if errors.Is(err, ErrUnknownPanel) {
		return web.NotFound()
	}
	if err != nil {
		return err
	}
	return c.JSON(InstanceInfo{Key: l.Instance.Key, Code: l.Instance.Code, Panels: map[string]PanelInfo{l.Panel.Key: panelInfo(l)}})
}

func panelInfo(l *loaded) PanelInfo {
	return PanelInfo{
		GUID: l.Panel.ID, Key: l.Panel.Key, Name: l.Panel.Name, CurrencyCode: l.Panel.CurrencyCode,
		AppSettings: publicAppSettings(l.Panel.AppSettings), LoginPageURL: l.Panel.LoginPageURL, LogoutPageURL: l.Panel.LogoutPageURL,
		AppTheme: l.Panel.AppTheme.Compact(),
	}
}

func publicAppSettings(a AppSettings) PublicAppSettings {
	return PublicAppSettings{
		WebAppName: a.WebAppName, GoogleAnalyticsID: a.GoogleAnalyticsID, GoogleTagMngrID: a.GoogleTagMngrID,
		TrackingPixel: a.TrackingPixel, TermsRequired: a.TermsRequired, EmailValidationReminder: a.EmailValidationReminder,
		Theme: a.Theme,
	}
}

func (m *Module) apiInfo(c fiber.Ctx) error {
	return c.JSON(fiber.Map{"name": "canvass", "apiVersions": []string{"v1", "v2", "v3"}, "environment": m.kit.Env})
}

// GET /api/v1/translations/languages/supported?domain=HOST: the languages that domain's panel offers.
func (m *Module) supportedLanguages(c fiber.Ctx) error {
	host := NormalizeHost(c.Query("domain", c.Host()))
	_, l, err := m.resolver.ByHost(c.Context(), host)
	if errors.Is(err, ErrUnknownDomain) {
		return unrecognized(host)
	}
	if err != nil {
		return err
	}
	out := []web.SupportedLanguage{}
	for _, lang := range l.Languages {
		for _, s := range web.Supported {
			if s.Code == lang.LanguageCode {
				out = append(out, s)
			}
		}
	}
	return c.JSON(out)
}

// GET /api/v1/translations/load/{ns}/{lng}: every message of a language the panel offers,
// as a flat object (one namespace, "translation", holds them all).
func (m *Module) loadTranslations(c fiber.Ctx) error {
	panel, lng := web.PanelOf(c), c.Params("lng")
	if c.Params("ns") != "translation" || !panel.Offers(lng) {
		return web.NotFound()
	}
	c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	return c.JSON(m.kit.Locales.All(lng))
}

// Limits of a missing-translations report: i18next's saveMissing sends the keys one page
// missed, a few at a time; anything larger is not a report.
const (
	maxMissingKeys      = 50
	maxFallbackRunes    = 1000
	missingReportsPerIP = 30 // a minute
)

// missingKeyRE is a message id as locales/ writes them (nav.main, survey.control.nps_low).
var missingKeyRE = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,126}[A-Za-z0-9_])?$`)

// POST /api/v1/translations/add/{ns}/{lng}: a client reports the keys it could not find, as
// i18next's saveMissing sends them ({"key": "fallback value", ...}). Each is counted per panel,
// language and key for translators (canvass translations missing|export); keys the language
// has are not missing and are ignored. The catalogue itself only changes through locales/.
func (m *Module) addTranslation(c fiber.Ctx) error {
	panel, lng := web.PanelOf(c), c.Params("lng")
	if c.Params("ns") != "translation" || panel == nil || !panel.Offers(lng) {
		return web.NotFound()
	}
	if len(c.Body()) > 8<<10 {
		return web.Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	if n, err := m.limiter.Hit(c.Context(), "translations:ip:"+c.IP(), time.Minute); err != nil {
		return err
	} else if n > missingReportsPerIP {
		return web.Fail(fiber.StatusTooManyRequests, "error.rate_limited", nil)
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(c.Body(), &in); err != nil || in == nil {
		return web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	if len(in) == 0 || len(in) > maxMissingKeys {
		return web.Invalid("body", "error.translations_keys", map[string]any{"Max": maxMissingKeys})
	}
	now := time.Now()
	sightings := make([]MissingSighting, 0, len(in))
	for key, raw := range in {
		if !missingKeyRE.MatchString(key) {
			return web.Invalid(key, "error.translations_key", nil)
		}
		var fallback string
		if err := json.Unmarshal(raw, &fallback); err != nil {
			return web.Invalid(key, "error.translations_value", map[string]any{"Max": maxFallbackRunes})
		}
		if utf8.RuneCountInString(fallback) > maxFallbackRunes {
			return web.Invalid(key, "error.translations_value", map[string]any{"Max": maxFallbackRunes})
		}
		if !m.kit.Locales.Lacks(lng, key) {
			continue
		}
		sightings = append(sightings, MissingSighting{PanelID: panel.ID, Lang: lng, Key: key, Fallback: fallback, Source: SourceClient, Count: 1, First: now, Last: now})
	}
	if err := m.store.RecordMissing(c.Context(), sightings); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
