package tenancy

import (
	"cmp"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/web"
)

// DefaultCacheTTL bounds how long a panel change made by another process (a theme, a domain,
// languages) takes to show here: each process keeps a panel this long (CANVASS_PANEL_CACHE_TTL).
// The process that made the change forgets its copies at once.
const (
	DefaultCacheTTL = time.Minute
	negativeTTL     = 10 * time.Second
)

type cached struct {
	panel   *web.Panel
	info    *loaded
	err     error
	expires time.Time
}

// Resolver finds the panel of a host, cached per host.
type Resolver struct {
	store *Store
	now   func() time.Time
	ttl   time.Duration
	mu    sync.RWMutex
	byKey map[string]cached
}

func NewResolver(store *Store) *Resolver {
	return &Resolver{store: store, now: time.Now, ttl: DefaultCacheTTL, byKey: map[string]cached{}}
}

// ByHost returns the panel serving a host (already normalised), or ErrUnknownDomain.
func (r *Resolver) ByHost(ctx context.Context, host string) (*web.Panel, *loaded, error) {
	return r.get(ctx, "host:"+host, func() (*loaded, error) { return r.store.panelByHost(ctx, host) })
}

// ByKey returns a panel by its key, or ErrUnknownPanel.
func (r *Resolver) ByKey(ctx context.Context, key string) (*web.Panel, *loaded, error) {
	return r.get(ctx, "key:"+key, func() (*loaded, error) { return r.store.panelByKey(ctx, key) })
}

func (r *Resolver) get(ctx context.Context, cacheKey string, load func() (*loaded, error)) (*web.Panel, *loaded, error) {
	now := r.now()
	r.mu.RLock()
	c, ok := r.byKey[cacheKey]
	r.mu.RUnlock()
	if ok && now.Before(c.expires) {
		return c.panel, c.info, c.err
	}
	l, err := load()
	switch {
	case err == nil:
		c = cached{panel: toWeb(l), info: l, expires: now.Add(r.ttl)}
	case errors.Is(err, ErrUnknownDomain), errors.Is(err, ErrUnknownPanel):
		c = cached{err: err, expires: now.Add(min(negativeTTL, r.ttl))}
	default:
		return nil, nil, err // a database failure is never cached
	}
	r.mu.Lock()
	r.byKey[cacheKey] = c
	r.mu.Unlock()
	return c.panel, c.info, c.err
}

// Forget drops every cached panel, after a tenant was changed in this process.
func (r *Resolver) Forget() {
	r.mu.Lock()
	r.byKey = map[string]cached{}
	r.mu.Unlock()
}

func toWeb(l *loaded) *web.Panel {
	theme := l.Panel.AppTheme.Compact()
	p := &web.Panel{
		ID:                  l.Panel.ID,
		Key:                 l.Panel.Key,
		Name:                l.Panel.Name,
		InstanceID:          l.Instance.ID,
		InstanceCode:        l.Instance.Code,
		InstanceKey:         l.Instance.Key,
		CurrencyCode:        l.Panel.CurrencyCode,
		WebAppName:          l.Panel.AppSettings.WebAppName,
		TermsRequired:       l.Panel.AppSettings.TermsRequired,
		TermsURL:            l.Panel.AppSettings.TermsURL,
		TermsText:           l.Panel.AppSettings.TermsText,
		EmailValidation:     l.Panel.AppSettings.EmailValidationReminder,
		DirectOnboarding:    l.Panel.AppSettings.DirectOnboarding,
		WidgetAfter:         cmp.Or(l.Panel.AppSettings.WidgetAfter, web.WidgetAfterFrame),
		AnalyticsID:         l.Panel.AppSettings.GoogleAnalyticsID,
		TagManagerID:        l.Panel.AppSettings.GoogleTagMngrID,
		TrackingPixel:       l.Panel.AppSettings.TrackingPixel,
		ThemeCSS:            theme.CSS(),
		FontURL:             theme["panel_font_url"],
		FontFamily:          theme.FontFamily(),
		LogoURL:             theme["logo_url"],
		FaviconURL:          theme["logo_favicon_url"],
		LoginPageURL:        l.Panel.LoginPageURL,
		LogoutPageURL:       l.Panel.LogoutPageURL,
		CTAColor:            theme.Value("--color-cta"),
		CTAText:             theme.Value("--color-cta-contrast"),
		SignUpsPerIPPerHour: cmp.Or(l.Panel.AppSettings.SignUpsPerIPPerHour, web.DefaultSignUpsPerIPPerHour),
		Layout:              l.Panel.AppSettings.Layout,
	}
	p.ChangeInstanceTo = append(p.ChangeInstanceTo, l.Panel.AppSettings.ChangeInstanceTo...)
	for _, o := range l.Panel.AppSettings.EmbedOrigins {
		if web.ValidOrigin(o) {
			p.EmbedOrigins = append(p.EmbedOrigins, o)
		}
	}
	for _, lang := range l.Languages {
		p.Languages = append(p.Languages, web.Language{Code: lang.LanguageCode, Name: web.LanguageName(lang.LanguageCode), IsDefault: lang.IsDefault})
		if lang.IsDefault {
			p.DefaultLanguage = lang.LanguageCode
		}
	}
	for _, d := range l.Domains {
		p.Hosts = append(p.Hosts, d.Host)
	}
	return p
}

// Preview is the panel a spec describes, as requests would see it once applied, built without
// a database: the development gallery dresses its fixtures in the demo panels this way.
func (spec PanelSpec) Preview() *web.Panel {
	l := &loaded{
		Panel: Panel{ID: spec.ID, Key: spec.Key, Name: spec.Name, CurrencyCode: spec.CurrencyCode,
			AppSettings: spec.AppSettings, AppTheme: spec.AppTheme.Compact(),
			LoginPageURL: spec.LoginPageURL, LogoutPageURL: spec.LogoutPageURL},
		Instance: Instance{ID: spec.Instance.Code, Code: spec.Instance.Code, Key: cmp.Or(spec.Instance.Key, spec.Instance.Code), Name: spec.Instance.Name},
	}
	l.Panel.AppSettings.WebAppName = cmp.Or(l.Panel.AppSettings.WebAppName, spec.Name)
	for i, code := range spec.Languages {
		l.Languages = append(l.Languages, PanelLanguage{PanelID: spec.ID, LanguageCode: code, IsDefault: i == 0, Position: i})
	}
	for i, h := range spec.Hosts {
		l.Domains = append(l.Domains, Domain{Host: NormalizeHost(h), PanelID: spec.ID, Position: i})
	}
	return toWeb(l)
}
