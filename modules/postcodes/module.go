// Package postcodes owns the places a panel's location questions offer: each panel's
// imported postcodes, the spec's info/postcode-lookup that the location control searches,
// and the small API other modules use to check a location answer (Resolve, Find, HasAny).
package postcodes

import (
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// DefaultRatePerMinute bounds lookups per client IP and minute. A member typing sends at
// most about three a second (the control waits 300ms after the last key); the bound leaves
// room for several members behind one address and stops a client flooding the database.
const DefaultRatePerMinute = 300

// Deps are what the module needs from the app.
type Deps struct {
	DB  *gorm.DB
	Log *slog.Logger
	// Limiter counts lookups per client IP; nil turns the limit off.
	Limiter *ratelimit.Limiter
	// RatePerMinute overrides DefaultRatePerMinute (tests lower it).
	RatePerMinute int
}

type Module struct {
	store   *Store
	log     *slog.Logger
	limiter *ratelimit.Limiter
	rate    int
	now     func() time.Time
}

func New(d Deps) *Module {
	m := &Module{store: NewStore(d.DB), log: d.Log, limiter: d.Limiter, rate: d.RatePerMinute, now: time.Now}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.rate <= 0 {
		m.rate = DefaultRatePerMinute
	}
	return m
}

// Routes lists the module's calls.
func (m *Module) Routes(r fiber.Router) {
	// Account host, public: visitors answer location questions on onboarding campaigns too.
	r.Get("/ah/api/v1/info/postcode-lookup", m.apiLookup)
}

// Resolve finds the place whose normalized postcode equals the normalized typed text
// ("sw1a1aa" finds "SW1A 1AA"); when several share it, the first by id.
func (m *Module) Resolve(ctx context.Context, panelID, typed string) (Place, bool, error) {
	norm := Normalize(typed)
	if norm == "" {
		return Place{}, false, nil
	}
	return m.store.ByNormalized(ctx, panelID, norm)
}

// Find returns a panel's place by its id.
func (m *Module) Find(ctx context.Context, panelID, id string) (Place, bool, error) {
	if id == "" {
		return Place{}, false, nil
	}
	return m.store.ByID(ctx, panelID, id)
}

// HasAny tells whether a panel has imported any postcode; a panel without any accepts a
// typed postcode as it is.
func (m *Module) HasAny(ctx context.Context, panelID string) (bool, error) {
	return m.store.HasAny(ctx, panelID)
}
