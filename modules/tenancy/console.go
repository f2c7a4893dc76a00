package tenancy

// What the operator console's panels part (issue 21, part 2) needs of tenancy: a panel read
// back as its tenant file, its settings and theme saved alone (validated exactly as
// `tenant apply` validates them, in one transaction, the cache dropped at once), new panels,
// the uploaded logo, favicon and loader icon, and the theme's contrast report.

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

var (
	// ErrPanelExists refuses a new panel whose key is taken.
	ErrPanelExists = errors.New("a panel with this key exists")
	// ErrInstanceExists refuses a new panel whose instance code another instance has.
	ErrInstanceExists = errors.New("an instance with this code exists")
)

// HostTakenError refuses a host another panel answers on.
type HostTakenError struct{ Host string }

func (e *HostTakenError) Error() string {
	return fmt.Sprintf("host %s already belongs to another panel", e.Host)
}

// Spec reads a panel back as the tenancy part of its tenant file (never cached: the console
// edits what is stored).
func (m *Module) Spec(ctx context.Context, key string) (PanelSpec, error) {
	return m.store.Spec(ctx, key)
}

// Spec reads a panel back as the tenancy part of its tenant file.
func (s *Store) Spec(ctx context.Context, key string) (PanelSpec, error) {
	l, err := s.panelByKey(ctx, key)
	if err != nil {
		return PanelSpec{}, err
	}
	return specOf(l), nil
}

func specOf(l *loaded) PanelSpec {
	var spec PanelSpec
	spec.Instance.Code, spec.Instance.Key, spec.Instance.Name = l.Instance.Code, l.Instance.Key, l.Instance.Name
	spec.ID, spec.Key, spec.Name, spec.CurrencyCode = l.Panel.ID, l.Panel.Key, l.Panel.Name, l.Panel.CurrencyCode
	for _, d := range l.Domains {
		spec.Hosts = append(spec.Hosts, d.Host)
	}
	// The default language first, as a tenant file writes them.
	langs := slices.Clone(l.Languages)
	slices.SortStableFunc(langs, func(a, b PanelLanguage) int {
		if a.IsDefault != b.IsDefault {
			if a.IsDefault {
				return -1
			}
			return 1
		}
		return a.Position - b.Position
	})
	for _, lang := range langs {
		spec.Languages = append(spec.Languages, lang.LanguageCode)
	}
	spec.AppSettings = l.Panel.AppSettings
	spec.AppTheme = l.Panel.AppTheme.Compact()
	spec.LoginPageURL, spec.LogoutPageURL = l.Panel.LoginPageURL, l.Panel.LogoutPageURL
	return spec
}

// Settings are a panel's domains, languages (the first is the default), app settings and
// login and logout pages: what the console's settings page edits.
type Settings struct {
	Hosts         []string    `json:"hosts"`
	Languages     []string    `json:"languages"`
	AppSettings   AppSettings `json:"app_settings"`
	LoginPageURL  string      `json:"login_page_url"`
	LogoutPageURL string      `json:"logout_page_url"`
}

// SettingsOf are a spec's settings.
func SettingsOf(spec PanelSpec) Settings {
	return Settings{
		Hosts: slices.Clone(spec.Hosts), Languages: slices.Clone(spec.Languages), AppSettings: spec.AppSettings,
		LoginPageURL: spec.LoginPageURL, LogoutPageURL: spec.LogoutPageURL,
	}
}

// With is the spec with these settings in place of its own.
func (s Settings) With(spec PanelSpec) PanelSpec {
	spec.Hosts, spec.Languages, spec.AppSettings = slices.Clone(s.Hosts), slices.Clone(s.Languages), s.AppSettings
	spec.LoginPageURL, spec.LogoutPageURL = s.LoginPageURL, s.LogoutPageURL
	return spec
}

// SaveSettings replaces a panel's settings, checked as `tenant apply` checks a whole file, in
// one transaction: hosts no longer listed stop answering, a host of another panel is refused
// (HostTakenError) and nothing is written. Unlike a tenant file, which only adds hosts, the
// console's list is the whole list.
func (m *Module) SaveSettings(ctx context.Context, key string, s Settings) (before Settings, err error) {
	before, err = m.store.SaveSettings(ctx, key, s, web.IsSupported)
	m.resolver.Forget()
	return before, err
}

// SaveSettings: see Module.SaveSettings.
func (s *Store) SaveSettings(ctx context.Context, key string, in Settings, supported func(string) bool) (Settings, error) {
	var before Settings
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		l, err := (&Store{db: tx}).panelByKey(ctx, key)
		if err != nil {
			return err
		}
		spec := specOf(l)
		before = SettingsOf(spec)
		next := in.With(spec)
		if next.AppSettings.WebAppName == "" {
			next.AppSettings.WebAppName = spec.Name
		}
		if err := next.Validate(supported); err != nil {
			return err
		}
		now := time.Now().UTC()
		panel := l.Panel
		panel.AppSettings, panel.LoginPageURL, panel.LogoutPageURL, panel.UpdatedAt = next.AppSettings, next.LoginPageURL, next.LogoutPageURL, now
		if err := tx.Save(&panel).Error; err != nil {
			return fmt.Errorf("save settings of %s: %w", key, err)
		}
		if err := replaceLanguages(tx, l.Panel.ID, next.Languages); err != nil {
			return fmt.Errorf("replace languages of %s: %w", key, err)
		}
		return replaceHosts(tx, l.Panel.ID, next.Hosts, now)
	})
	return before, err
}

func replaceLanguages(tx *gorm.DB, panelID string, langs []string) error {
	if err := tx.Where("panel_id = ?", panelID).Delete(&PanelLanguage{}).Error; err != nil {
		return err
	}
	for i, code := range langs {
		if err := tx.Create(&PanelLanguage{PanelID: panelID, LanguageCode: code, IsDefault: i == 0, Position: i}).Error; err != nil {
			return err
		}
	}
	return nil
}

// replaceHosts makes the panel's hosts exactly these (each normalised, once), in this order.
func replaceHosts(tx *gorm.DB, panelID string, hosts []string, now time.Time) error {
	var want []string
	for _, h := range hosts {
		if n := NormalizeHost(h); n != "" && !slices.Contains(want, n) {
			want = append(want, n)
		}
	}
	var taken []Domain
	if err := tx.Where("host IN ? AND panel_id <> ?", want, panelID).Find(&taken).Error; err != nil {
		return fmt.Errorf("check hosts: %w", err)
	}
	if len(taken) > 0 {
		return &HostTakenError{Host: taken[0].Host}
	}
	if err := tx.Where("panel_id = ? AND host NOT IN ?", panelID, want).Delete(&Domain{}).Error; err != nil {
		return fmt.Errorf("remove hosts: %w", err)
	}
	var have []string
	if err := tx.Model(&Domain{}).Where("panel_id = ?", panelID).Pluck("host", &have).Error; err != nil {
		return fmt.Errorf("load hosts: %w", err)
	}
	for i, h := range want {
		if !slices.Contains(have, h) {
			if err := tx.Create(&Domain{Host: h, PanelID: panelID, WebAppLogin: true, Position: i, CreatedAt: now}).Error; err != nil {
				return fmt.Errorf("add host %s: %w", h, err)
			}
		} else if err := tx.Model(&Domain{}).Where("host = ?", h).Update("position", i).Error; err != nil {
			return fmt.Errorf("order host %s: %w", h, err)
		}
	}
	return nil
}

// SaveTheme replaces a panel's theme (checked as `tenant apply` checks app_theme; empty
// values dropped) and drops the cached panel, so its members see it at once. It returns the
// theme it replaced.
func (m *Module) SaveTheme(ctx context.Context, key string, theme AppTheme) (AppTheme, error) {
	before, err := m.store.SaveTheme(ctx, key, theme)
	m.resolver.Forget()
	return before, err
}

// ThemeError lists what is wrong with a theme.
type ThemeError struct{ Problems []string }

func (e *ThemeError) Error() string { return "app_theme: " + strings.Join(e.Problems, "; ") }

// panelInTx reads a panel by key inside a write's transaction.
func panelInTx(tx *gorm.DB, key string) (*Panel, error) {
	var p Panel
	if err := tx.Where("key = ?", key).Take(&p).Error; errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrUnknownPanel
	} else if err != nil {
		return nil, fmt.Errorf("load panel %s: %w", key, err)
	}
	return &p, nil
}

// SaveTheme: see Module.SaveTheme.
func (s *Store) SaveTheme(ctx context.Context, key string, theme AppTheme) (AppTheme, error) {
	if probs := theme.Problems(); len(probs) > 0 {
		return nil, &ThemeError{Problems: probs}
	}
	var before AppTheme
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		p, err := panelInTx(tx, key)
		if err != nil {
			return err
		}
		before = p.AppTheme.Compact()
		p.AppTheme, p.UpdatedAt = theme.Compact(), time.Now().UTC()
		return tx.Save(p).Error
	})
	return before, err
}

// Create adds a new panel from a spec (validated as `tenant apply` validates one), refusing a
// key that exists (ErrPanelExists) where apply would update it, and an instance code that
// exists (ErrInstanceExists): a new panel gets an instance of its own.
func (m *Module) Create(ctx context.Context, spec PanelSpec) (string, error) {
	if err := spec.Validate(web.IsSupported); err != nil {
		return "", err
	}
	id, err := m.store.Create(ctx, spec)
	m.resolver.Forget()
	return id, err
}

// Create: see Module.Create.
func (s *Store) Create(ctx context.Context, spec PanelSpec) (string, error) {
	var n int64
	db := s.db.WithContext(ctx)
	if err := db.Model(&Panel{}).Where("key = ?", spec.Key).Count(&n).Error; err != nil {
		return "", fmt.Errorf("check panel %s: %w", spec.Key, err)
	} else if n > 0 {
		return "", ErrPanelExists
	}
	if err := db.Model(&Instance{}).Where("code = ?", spec.Instance.Code).Count(&n).Error; err != nil {
		return "", fmt.Errorf("check instance %s: %w", spec.Instance.Code, err)
	} else if n > 0 {
		return "", ErrInstanceExists
	}
	var hosts []string
	for _, h := range spec.Hosts {
		hosts = append(hosts, NormalizeHost(h))
	}
	var taken []Domain
	if err := db.Where("host IN ?", hosts).Find(&taken).Error; err != nil {
		return "", fmt.Errorf("check hosts: %w", err)
	}
	if len(taken) > 0 {
		return "", &HostTakenError{Host: taken[0].Host}
	}
	spec.ID = cmp.Or(spec.ID, uuid.NewString())
	return s.Apply(ctx, spec)
}

// Asset kinds an owner uploads, each the theme field it sets.
const (
	AssetLogo    = "logo"
	AssetFavicon = "favicon"
	AssetLoader  = "loader"
	// MaxAssetBytes bounds an upload: a logo is not a photograph.
	MaxAssetBytes = 512 << 10
)

// AssetFields are the theme field each kind of asset sets.
var AssetFields = map[string]string{AssetLogo: "logo_url", AssetFavicon: "logo_favicon_url", AssetLoader: "logo_loader_icon_url"}

// assetTypes are the image types an asset may be, by the extension of its name.
var assetTypes = map[string]string{
	"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
	"image/svg+xml": "svg", "image/x-icon": "ico", "image/vnd.microsoft.icon": "ico",
}

// AssetPath is where the panel's domains serve its uploaded assets.
const AssetPath = "/panel-assets/"

// PanelAsset is an uploaded logo, favicon or loader icon (migration 00025).
type PanelAsset struct {
	PanelID     string `gorm:"primaryKey"`
	Name        string `gorm:"primaryKey"`
	Kind        string
	ContentType string
	SizeBytes   int64
	Data        string // base64
	CreatedAt   time.Time
}

// ErrAssetType and ErrAssetSize refuse an upload.
var (
	ErrAssetType = errors.New("not a PNG, JPEG, GIF, WebP, SVG or ICO image")
	ErrAssetSize = fmt.Errorf("larger than %d KB", MaxAssetBytes>>10)
)

// SniffImage is the image type of a file, read from its bytes (never from what the browser
// claimed), "" when it is none of the types an asset may be.
func SniffImage(data []byte) string {
	switch {
	case len(data) >= 8 && string(data[:8]) == "\x89PNG\r\n\x1a\n":
		return "image/png"
	case len(data) >= 3 && string(data[:3]) == "\xff\xd8\xff":
		return "image/jpeg"
	case len(data) >= 6 && (string(data[:6]) == "GIF87a" || string(data[:6]) == "GIF89a"):
		return "image/gif"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case len(data) >= 4 && string(data[:4]) == "\x00\x00\x01\x00":
		return "image/x-icon"
	}
	head := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(string(data[:min(len(data), 1024)]), "\ufeff")))
	if strings.HasPrefix(head, "<svg") || (strings.HasPrefix(head, "<?xml") && strings.Contains(head, "<svg")) {
		return "image/svg+xml"
	}
	return ""
}

// SaveAsset stores an uploaded image of a kind for the panel and points the theme's field at
// it, in one transaction; it returns the theme before and the asset's address.
func (m *Module) SaveAsset(ctx context.Context, key, kind string, data []byte) (before AppTheme, url string, err error) {
	before, url, err = m.store.SaveAsset(ctx, key, kind, data)
	m.resolver.Forget()
	return before, url, err
}

// SaveAsset: see Module.SaveAsset.
func (s *Store) SaveAsset(ctx context.Context, key, kind string, data []byte) (AppTheme, string, error) {
	field, ok := AssetFields[kind]
	if !ok {
		return nil, "", fmt.Errorf("asset kind %q: %w", kind, ErrAssetType)
	}
	if len(data) == 0 || len(data) > MaxAssetBytes {
		return nil, "", ErrAssetSize
	}
	ct := SniffImage(data)
	if ct == "" {
		return nil, "", ErrAssetType
	}
	sum := sha256.Sum256(data)
	name := kind + "-" + hex.EncodeToString(sum[:8]) + "." + assetTypes[ct]
	url := AssetPath + name
	var before AppTheme
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		p, err := panelInTx(tx, key)
		if err != nil {
			return err
		}
		before = p.AppTheme.Compact()
		var n int64
		if err := tx.Model(&PanelAsset{}).Where("panel_id = ? AND name = ?", p.ID, name).Count(&n).Error; err != nil {
			return fmt.Errorf("check asset %s: %w", name, err)
		}
		if n == 0 {
			a := PanelAsset{PanelID: p.ID, Name: name, Kind: kind, ContentType: ct, SizeBytes: int64(len(data)),
				Data: base64.StdEncoding.EncodeToString(data), CreatedAt: time.Now().UTC()}
			if err := tx.Create(&a).Error; err != nil {
				return fmt.Errorf("store asset %s: %w", name, err)
			}
		}
		theme := before.Compact()
		theme[field] = url
		p.AppTheme, p.UpdatedAt = theme, time.Now().UTC()
		return tx.Save(p).Error
	})
	return before, url, err
}

// Asset reads an uploaded asset of a panel by its name.
func (s *Store) Asset(ctx context.Context, panelID, name string) (*PanelAsset, error) {
	var a PanelAsset
	err := s.db.WithContext(ctx).Where("panel_id = ? AND name = ?", panelID, name).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, web.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load asset %s: %w", name, err)
	}
	return &a, nil
}

// asset serves GET /panel-assets/:name on the panel's own domains. The name is the content's
// hash, so it may be cached for good.
func (m *Module) asset(c fiber.Ctx) error {
	p := web.PanelOf(c)
	if p == nil {
		return web.NotFound()
	}
	a, err := m.store.Asset(c.Context(), p.ID, c.Params("name"))
	if err != nil {
		return err
	}
	data, err := base64.StdEncoding.DecodeString(a.Data)
	if err != nil {
		return fmt.Errorf("decode asset %s: %w", a.Name, err)
	}
	c.Set(fiber.HeaderContentType, a.ContentType)
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if a.ContentType == "image/svg+xml" {
		// An SVG is a document that could carry script: opened alone it is a download, and an
		// <img> or icon link never runs script.
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+a.Name+`"`)
	}
	return c.Send(data)
}

// ContrastPair is one text colour on one background of a theme, as configured (or the
// spec's default where the panel sets none), with its WCAG 2.x contrast ratio.
type ContrastPair struct {
	Text       string  `json:"text"`       // the theme field of the text colour
	Background string  `json:"background"` // the theme field of the background ("" : the page)
	TextValue  string  `json:"text_value"`
	BackValue  string  `json:"background_value"`
	Ratio      float64 `json:"ratio"` // rounded down to 2 decimals, so 4.499 never reads 4.50
	Target     float64 `json:"target"`
	Pass       bool    `json:"pass"`
	// Default: neither colour is set by the panel (both are the spec's defaults).
	Default bool `json:"default"`
	// Used is what pages draw this text in instead, when the contrast rule had to move it
	// (docs/tenants.md, Accessible colours); "" when the configured colour is used as is.
	Used string `json:"used,omitempty"`
	// Unreadable: a colour the contrast rule cannot read (no ratio).
	Unreadable bool `json:"unreadable,omitempty"`
}

// contrastPairs are the text/background pairs of the spec's app_theme: the member pages' text,
// headers, buttons and links, then the welcome box's and the content box's colours when set.
var contrastPairs = []struct{ text, back, variant string }{
	{"text_font_color", "", "--color-text-ink"},
	{"link_font_color", "", "--color-link-ink"},
	{"color_primary", "", "--color-primary-ink"},
	{"color_cta", "", "--color-cta-ink"},
	{"header_font_color", "color_primary", "--color-header-contrast"},
	{"font_color_cta", "color_cta", "--color-cta-contrast"},
	{"font_color_secondary", "color_secondary", ""},
	{"wb_header_text_color", "wb_background_color", ""},
	{"wb_regular_text_color", "wb_background_color", ""},
	{"wb_button_text_color", "wb_button_color", ""},
	{"cb_header_text_color", "cb_background_color", ""},
	{"cb_regular_text_color", "cb_background_color", ""},
	{"cb_button_text_color", "cb_button_color", ""},
}

// ContrastReport lists every text/background pair of the theme with its ratio against WCAG
// 2.2 AA for text (4.5:1). The welcome and content boxes' pairs are listed when the panel sets
// either colour of them.
func (t AppTheme) ContrastReport() []ContrastPair {
	t = t.Compact()
	adjusted := map[string]string{}
	for _, a := range t.Adjustments() {
		adjusted[a.Variant] = a.To
	}
	value := func(field string) (string, bool) {
		if field == "" {
			return "#ffffff", true
		}
		if v, ok := t[field]; ok {
			return v, false
		}
		return defaultOf(field), true
	}
	var out []ContrastPair
	for _, p := range contrastPairs {
		tv, tdef := value(p.text)
		bv, bdef := value(p.back)
		if strings.HasPrefix(p.text, "wb_") || strings.HasPrefix(p.text, "cb_") {
			if tdef && bdef {
				continue
			}
		}
		pair := ContrastPair{Text: p.text, Background: p.back, TextValue: tv, BackValue: bv, Target: textRatio, Default: tdef && bdef}
		fg, ok1 := ParseColour(tv)
		bg, ok2 := ParseColour(bv)
		if tv == "" || bv == "" || !ok1 || !ok2 {
			pair.Unreadable = true
			out = append(out, pair)
			continue
		}
		back := bg.Over(surfaceCard)
		pair.Ratio = math.Floor(Contrast(fg.Over(back), back)*100) / 100
		pair.Pass = pair.Ratio >= textRatio
		if p.variant != "" {
			pair.Used = adjusted[p.variant]
		}
		out = append(out, pair)
	}
	return out
}

// Asset is an uploaded asset of a panel and its bytes (the console shows it from its own host).
func (m *Module) Asset(ctx context.Context, panelID, name string) (*PanelAsset, []byte, error) {
	a, err := m.store.Asset(ctx, panelID, name)
	if err != nil {
		return nil, nil, err
	}
	data, err := base64.StdEncoding.DecodeString(a.Data)
	if err != nil {
		return nil, nil, fmt.Errorf("decode asset %s: %w", a.Name, err)
	}
	return a, data, nil
}
