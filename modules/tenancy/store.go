package tenancy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views/layouts/registry"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrUnknownDomain means no panel answers for a host.
var ErrUnknownDomain = errors.New("unrecognized domain")

// ErrUnknownPanel means no panel has the key or uuid asked for.
var ErrUnknownPanel = errors.New("unknown panel")

// Store owns every query of the tenancy tables.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// loaded is a panel with everything the request path needs about it.
type loaded struct {
	Panel     Panel
	Instance  Instance
	Languages []PanelLanguage
	Domains   []Domain
}

func (s *Store) panelByHost(ctx context.Context, host string) (*loaded, error) {
	var d Domain
	err := s.db.WithContext(ctx).Where("host = ?", host).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrUnknownDomain
	}
	if err != nil {
		return nil, fmt.Errorf("load domain %s: %w", host, err)
	}
	return s.load(ctx, "id = ?", d.PanelID)
}

func (s *Store) panelByKey(ctx context.Context, key string) (*loaded, error) {
	return s.load(ctx, "key = ?", key)
}

func (s *Store) load(ctx context.Context, where string, arg string) (*loaded, error) {
	var l loaded
	db := s.db.WithContext(ctx)
	err := db.Where(where, arg).Take(&l.Panel).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrUnknownPanel
	}
	if err != nil {
		return nil, fmt.Errorf("load panel %s: %w", arg, err)
	}
	if err := db.Where("id = ?", l.Panel.InstanceID).Take(&l.Instance).Error; err != nil {
		return nil, fmt.Errorf("load instance of panel %s: %w", l.Panel.Key, err)
	}
	if err := db.Where("panel_id = ?", l.Panel.ID).Order("position, language_code").Find(&l.Languages).Error; err != nil {
		return nil, fmt.Errorf("load languages of panel %s: %w", l.Panel.Key, err)
	}
	if err := db.Where("panel_id = ?", l.Panel.ID).Order("position, host").Find(&l.Domains).Error; err != nil {
		return nil, fmt.Errorf("load domains of panel %s: %w", l.Panel.Key, err)
	}
	return &l, nil
}

// PanelSpec describes a tenant as `canvass tenant apply` and the demo data write it.
type PanelSpec struct {
	Instance struct {
		Code string `yaml:"code"`
		Key  string `yaml:"key"`
		Name string `yaml:"name"`
	} `yaml:"instance"`
	ID            string      `yaml:"uuid"`
	Key           string      `yaml:"key"`
	Name          string      `yaml:"name"`
	CurrencyCode  string      `yaml:"currency_code"`
	Hosts         []string    `yaml:"hosts"`
	Languages     []string    `yaml:"languages"` // the first is the default
	AppSettings   AppSettings `yaml:"app_settings"`
	AppTheme      AppTheme    `yaml:"app_theme"`
	LoginPageURL  string      `yaml:"login_page_url"`
	LogoutPageURL string      `yaml:"logout_page_url"`
}

// MaxTermsText bounds a panel's terms in one language: long terms are a link's (terms_url).
const MaxTermsText = 50000

// reservedCodes cannot be instance codes: they are path segments of other API families.
var reservedCodes = map[string]bool{"onboarding": true, "translations": true, "public": true}

// Validate lists every problem of a spec at once.
func (p *PanelSpec) Validate(supported func(string) bool) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !keyRE.MatchString(p.Key) {
		bad("key: %q must be 2-40 lower-case letters, digits or dashes", p.Key)
	}
	if !keyRE.MatchString(p.Instance.Code) {
		bad("instance.code: %q must be 2-40 lower-case letters, digits or dashes", p.Instance.Code)
	} else if reservedCodes[p.Instance.Code] {
		bad("instance.code: %q is reserved", p.Instance.Code)
	}
	if strings.TrimSpace(p.Name) == "" || len(p.Name) > 120 {
		bad("name: required, at most 120 characters")
	}
	if !currencyRE.MatchString(p.CurrencyCode) {
		bad("currency_code: %q is not an ISO 4217 code", p.CurrencyCode)
	}
	if p.ID != "" {
		if _, err := uuid.Parse(p.ID); err != nil {
			bad("uuid: %q is not a UUID", p.ID)
		}
	}
	if len(p.Hosts) == 0 {
		bad("hosts: at least one host name")
	}
	for i, h := range p.Hosts {
		if NormalizeHost(h) == "" {
			bad("hosts[%d]: %q is not a host name", i, h)
		}
	}
	if len(p.Languages) == 0 {
		bad("languages: at least one language")
	}
	for i, l := range p.Languages {
		if !supported(l) {
			bad("languages[%d]: %q is not a supported language", i, l)
		}
	}
	for i, o := range p.AppSettings.EmbedOrigins {
		if !web.ValidOrigin(o) {
			bad("app_settings.embed_origins[%d]: %q is not an origin (https://host[:port])", i, o)
		}
	}
	switch p.AppSettings.WidgetAfter {
	case "", web.WidgetAfterFrame, web.WidgetAfterPanel:
	default:
		bad("app_settings.widget_after: %q is not frame or panel", p.AppSettings.WidgetAfter)
	}
	if l := p.AppSettings.Layout; !registry.Known(l) {
		bad("app_settings.layout: %q is not a layout (%s)", l, strings.Join(registry.Names(), ", "))
	}
	if px := p.AppSettings.TrackingPixel; px != "" {
		if src, _ := web.TrackingPixelURL(px); src == "" {
			bad("app_settings.tracking_pixel: %q is not an http(s) image address", px)
		}
	}
	if u := p.AppSettings.TermsURL; u != "" && !web.ValidPageURL(u) {
		bad("app_settings.terms_url: %q is not an http(s) address", u)
	}
	for _, lang := range slices.Sorted(maps.Keys(p.AppSettings.TermsText)) {
		switch text := p.AppSettings.TermsText[lang]; {
		case !slices.Contains(p.Languages, lang):
			bad("app_settings.terms_text.%s: %q is not one of the panel's languages", lang, lang)
		case utf8.RuneCountInString(text) > MaxTermsText:
			bad("app_settings.terms_text.%s: %d characters, more than %d", lang, utf8.RuneCountInString(text), MaxTermsText)
		}
	}
	if n := p.AppSettings.SignUpsPerIPPerHour; n < 0 || n > 100000 {
		bad("app_settings.sign_ups_per_ip_per_hour: %d is not from 1 to 100000 (or 0 for the default, %d)", n, web.DefaultSignUpsPerIPPerHour)
	}
	for i, k := range p.AppSettings.ChangeInstanceTo {
		if !keyRE.MatchString(k) || k == p.Key {
			bad("app_settings.change_instance_to[%d]: %q is not the key of another panel", i, k)
		}
	}
	for _, prob := range p.AppTheme.Problems() {
		bad("app_theme: %s", prob)
	}
	return errors.Join(errs...)
}

// Apply creates or updates a tenant in one transaction: instance, panel, languages, domains.
// It is idempotent by panel key; a host already used by another panel is refused.
func (s *Store) Apply(ctx context.Context, spec PanelSpec) (string, error) {
	now := time.Now().UTC()
	var panelID string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var inst Instance
		err := tx.Where("code = ?", spec.Instance.Code).Take(&inst).Error
		switch {
		case errors.Is(err, gorm.ErrRecordNotFound):
			inst = Instance{ID: uuid.NewString(), Code: spec.Instance.Code, Key: cmp.Or(spec.Instance.Key, spec.Instance.Code), Name: cmp.Or(spec.Instance.Name, spec.Instance.Code), CreatedAt: now}
			if err := tx.Create(&inst).Error; err != nil {
				return fmt.Errorf("create instance %s: %w", inst.Code, err)
			}
		case err != nil:
			return fmt.Errorf("load instance %s: %w", spec.Instance.Code, err)
		}
		var panel Panel
		err = tx.Where("key = ?", spec.Key).Take(&panel).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			panel = Panel{ID: cmp.Or(spec.ID, uuid.NewString()), Key: spec.Key, CreatedAt: now}
		} else if err != nil {
			return fmt.Errorf("load panel %s: %w", spec.Key, err)
		}
		panel.InstanceID = inst.ID
		panel.Name = spec.Name
		panel.CurrencyCode = spec.CurrencyCode
		panel.AppSettings = spec.AppSettings
		if panel.AppSettings.WebAppName == "" {
			panel.AppSettings.WebAppName = spec.Name
		}
		panel.AppTheme = spec.AppTheme.Compact()
		panel.LoginPageURL = spec.LoginPageURL
		panel.LogoutPageURL = spec.LogoutPageURL
		panel.UpdatedAt = now
		if err := tx.Save(&panel).Error; err != nil {
			return fmt.Errorf("save panel %s: %w", spec.Key, err)
		}
		panelID = panel.ID
		if err := tx.Where("panel_id = ?", panel.ID).Delete(&PanelLanguage{}).Error; err != nil {
			return fmt.Errorf("replace languages of %s: %w", spec.Key, err)
		}
		for i, code := range spec.Languages {
			if err := tx.Create(&PanelLanguage{PanelID: panel.ID, LanguageCode: code, IsDefault: i == 0, Position: i}).Error; err != nil {
				return fmt.Errorf("add language %s to %s: %w", code, spec.Key, err)
			}
		}
		for i, h := range spec.Hosts {
			host := NormalizeHost(h)
			var existing Domain
			err := tx.Where("host = ?", host).Take(&existing).Error
			if err == nil && existing.PanelID != panel.ID {
				return fmt.Errorf("host %s already belongs to another panel", host)
			}
			switch {
			case errors.Is(err, gorm.ErrRecordNotFound):
				d := Domain{Host: host, PanelID: panel.ID, WebAppLogin: true, Position: i, CreatedAt: now}
				if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&d).Error; err != nil {
					return fmt.Errorf("add host %s: %w", host, err)
				}
			case err != nil:
				return fmt.Errorf("load host %s: %w", host, err)
			case existing.Position != i:
				if err := tx.Model(&Domain{}).Where("host = ?", host).Update("position", i).Error; err != nil {
					return fmt.Errorf("order host %s: %w", host, err)
				}
			}
		}
		return nil
	})
	return panelID, err
}
