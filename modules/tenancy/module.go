// Package tenancy owns instances, panels, domains, themes and panel languages: it resolves the
// panel of every request from its Host header and serves domain-info and instance-info.
package tenancy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

type Module struct {
	kit      *web.Kit
	store    *Store
	resolver *Resolver
	limiter  *ratelimit.Limiter
	missing  *missingRecorder
}

// missingFlushEvery is the least time between two writes of the keys pages missed.
const missingFlushEvery = 30 * time.Second

func New(db *gorm.DB, kit *web.Kit) *Module {
	store := NewStore(db)
	m := &Module{kit: kit, store: store, resolver: NewResolver(store), limiter: ratelimit.New(db)}
	m.missing = newMissingRecorder(store, kit.Log, missingFlushEvery)
	kit.OnMissingTranslation(m.missing.note)
	kit.OnPage(pagePixels)
	return m
}

// FlushMissingTranslations writes the keys pages missed since the last write (at shutdown,
// and in tests); otherwise they are written at most every 30 s as pages miss them.
func (m *Module) FlushMissingTranslations(ctx context.Context) error { return m.missing.Flush(ctx) }

// MissingTranslations lists the reported missing translations, by language, most seen first.
func (m *Module) MissingTranslations(ctx context.Context, f MissingFilter) ([]MissingRow, error) {
	return m.store.ListMissing(ctx, f)
}

// CacheFor sets how long this process keeps a panel before reading it again (DefaultCacheTTL):
// the bound on how long another process's change takes to show here.
func (m *Module) CacheFor(ttl time.Duration) {
	m.resolver.mu.Lock()
	defer m.resolver.mu.Unlock()
	m.resolver.ttl = ttl
}

// Routes lists the tenancy APIs.
func (m *Module) Routes(r fiber.Router) {
	// Account host: public information about a domain and the API itself.
	r.Get("/ah/api/v1/domain-info", m.domainInfo)
	r.Get("/ah/api/v1/instance-info", m.instanceInfo)
	r.Get("/ah/api/v1/ah-api-info", m.apiInfo)
	r.Get("/ah/api/v1/ping", ping)
	// Panel-instance API: ping under the instance code.
	r.Get("/api/:version<regex(v[12])>/:instanceCode/ping", m.instancePing)
	r.Get("/api/v3/ping", ping)
	// Translation API: the languages a domain offers.
	r.Get("/api/v1/translations/languages/supported", m.supportedLanguages)
	r.Get("/api/v1/translations/load/:ns/:lng", m.loadTranslations)
	r.Post("/api/v1/translations/add/:ns/:lng", m.addTranslation)
}

// AssetRoutes serves the logo, favicon and loader icon owners upload in the console
// (console.go): mount them right after Middleware, before sessions and the CSRF cookie, since a
// public, immutable file needs neither and must not carry a Set-Cookie (shared caches).
func (m *Module) AssetRoutes(r fiber.Router) {
	r.Get(AssetPath+":name", m.asset)
}

// Apply creates or updates a tenant and forgets cached panels.
func (m *Module) Apply(ctx context.Context, spec PanelSpec) (string, error) {
	if err := spec.Validate(web.IsSupported); err != nil {
		return "", fmt.Errorf("panel %s: %w", spec.Key, err)
	}
	id, err := m.store.Apply(ctx, spec)
	m.resolver.Forget()
	return id, err
}

// PanelByKey is the small API other modules use (demo data, CLI commands).
func (m *Module) PanelByKey(ctx context.Context, key string) (*web.Panel, error) {
	p, _, err := m.resolver.ByKey(ctx, key)
	return p, err
}

// PanelByHost is the panel a host (with or without its port) belongs to; ErrUnknownDomain
// when none.
func (m *Module) PanelByHost(ctx context.Context, host string) (*web.Panel, error) {
	panel, _, err := m.resolver.ByHost(ctx, NormalizeHost(host))
	return panel, err
}

// Middleware puts the request's panel on it; an unknown host answers 404 'Unrecognized domain: <host>'.
// Panel-instance paths (/api/v1|v2/{code}/...) must name the panel's own instance code.
func (m *Module) Middleware() fiber.Handler {
	return func(c fiber.Ctx) error {
		host := NormalizeHost(c.Host())
		panel, _, err := m.resolver.ByHost(c.Context(), host)
		if err != nil {
			if web.WorksWithoutDatabase(c.Path()) {
				return c.Next()
			}
			if errors.Is(err, ErrUnknownDomain) {
				return unrecognized(host)
			}
			return err
		}
		web.SetPanel(c, panel)
		return c.Next()
	}
}

func unrecognized(host string) *web.Error {
	return web.Fail(fiber.StatusNotFound, "error.unrecognized_domain", map[string]any{"Host": host})
}

func ping(c fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) }

func (m *Module) instancePing(c fiber.Ctx) error {
	if err := web.CheckInstance(c); err != nil {
		return err
	}
	return ping(c)
}
