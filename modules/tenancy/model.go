package tenancy

import "time"

// Instance groups panels served by one panel-instance API (its code is in v1/v2 paths).
type Instance struct {
	ID        string `gorm:"primaryKey"`
	Code      string
	Key       string
	Name      string
	CreatedAt time.Time
}

// Panel is one white-labelled tenant: its name, currency, settings, theme and languages.
type Panel struct {
	ID            string `gorm:"primaryKey"` // the panel uuid (guid)
	InstanceID    string
	Key           string
	Name          string
	CurrencyCode  string
	AppSettings   AppSettings `gorm:"serializer:json"`
	AppTheme      AppTheme    `gorm:"serializer:json"`
	LoginPageURL  string
	LogoutPageURL string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// AppSettings are the spec's panel app_settings.
type AppSettings struct {
	WebAppName        string `json:"web_app_name" yaml:"web_app_name"`
	GoogleAnalyticsID string `json:"google_analytics_id" yaml:"google_analytics_id"`
	GoogleTagMngrID   string `json:"google_tag_mngr_id" yaml:"google_tag_mngr_id"`
	TrackingPixel     string `json:"tracking_pixel" yaml:"tracking_pixel"`
	TermsRequired     bool   `json:"terms_required" yaml:"terms_required"`
	// TermsURL is the panel's own page of its terms and conditions (http(s)); the accept-terms
	// page links it. TermsText is the terms themselves by language code (blank lines part
	// paragraphs), shown on that page in the member's language, else the panel's default.
	// A panel that requires terms gives either or both, so members read what they accept.
	TermsURL                string            `json:"terms_url,omitempty" yaml:"terms_url"`
	TermsText               map[string]string `json:"terms_text,omitempty" yaml:"terms_text"`
	EmailValidationReminder bool              `json:"email_validation_reminder" yaml:"email_validation_reminder"`
	Theme                   string            `json:"theme" yaml:"theme"`
	// EmbedOrigins may frame the panel's /embed/ pages and its login and join widgets besides
	// its own domains (scheme://host[:port], e.g. https://www.tenant.example); the widgets post
	// their messages to these origins only. One list: a site trusted to frame the panel is
	// trusted with both, and two lists would only drift apart.
	EmbedOrigins []string `json:"embed_origins,omitempty" yaml:"embed_origins"`
	// DirectOnboarding sends visitors at the root, and members whose email is not validated,
	// to /onboarding (spec: "a specific panel key triggers direct onboarding").
	DirectOnboarding bool `json:"direct_onboarding,omitempty" yaml:"direct_onboarding"`
	// WidgetAfter is what the login and join widgets do once the member is in: "frame" (the
	// default: stay signed in inside the frame) or "panel" (open the panel itself, signed in).
	WidgetAfter string `json:"widget_after,omitempty" yaml:"widget_after"`
	// ChangeInstanceTo are the keys of the panels of the same instance this panel's members may
	// move to (change-instance); a key of another instance's panel is never offered.
	ChangeInstanceTo []string `json:"change_instance_to,omitempty" yaml:"change_instance_to"`
	// SignUpsPerIPPerHour bounds the accounts one address may open in an hour (0: the default,
	// web.DefaultSignUpsPerIPPerHour). A panel whose members share one address (an office, a
	// school, a carrier's NAT) raises it.
	SignUpsPerIPPerHour int `json:"sign_ups_per_ip_per_hour,omitempty" yaml:"sign_ups_per_ip_per_hour"`
	// Layout is the panel's layout (views/layouts/registry): "standard" (or empty) or
	// another registered one, such as "compact".
	Layout string `json:"layout,omitempty" yaml:"layout"`
}

// AppTheme is the spec's app_theme: field name (color_primary, logo_url, ...) to value.
// Empty values are dropped and fall back to the default theme.
type AppTheme map[string]string

// PanelLanguage is one language a panel offers; exactly one is the default.
type PanelLanguage struct {
	PanelID      string `gorm:"primaryKey"`
	LanguageCode string `gorm:"primaryKey"`
	IsDefault    bool
	Position     int
}

// Domain maps a host name (lower case, no port) to its panel. Position is its place in the
// panel's list of hosts: the first is the panel's canonical host.
type Domain struct {
	Host        string `gorm:"primaryKey"`
	PanelID     string
	WebAppLogin bool
	Position    int
	CreatedAt   time.Time
}

// Models lists the module's tables for the schema check.
func Models() []any {
	return []any{&Instance{}, &Panel{}, &PanelLanguage{}, &Domain{}, &MissingTranslation{}, &PanelAsset{}}
}
