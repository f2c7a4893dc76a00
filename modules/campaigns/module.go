// Package campaigns owns the campaign catalogue: the authoring format (parse, schema, rules),
// import, storage of campaigns and their quota counters, and the audience rule, which says
// who may see a campaign and who may take it. The member feed (modules/feed) and the survey
// engine (modules/surveys) are built on it; it knows neither.
package campaigns

import (
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Deps are what the module needs from the app.
type Deps struct {
	DB  *gorm.DB
	Log *slog.Logger
	// Standing joins each person's standing with campaigns (the survey engine's participations)
	// to the catalogue's lists; nil for tooling that never lists for a person.
	Standing StandingJoin
	Now      func() time.Time // nil: time.Now
}

// Module is the catalogue, with the audience rule every consumer asks.
type Module struct {
	db    *gorm.DB
	store *Store
	log   *slog.Logger
	now   func() time.Time

	// Audience is the audience rule (audience.go).
	Audience *Audience
}

func New(d Deps) *Module {
	m := &Module{db: d.DB, store: &Store{db: d.DB}, log: d.Log, now: d.Now}
	if m.now == nil {
		m.now = time.Now
	}
	m.Audience = &Audience{store: m.store, standing: d.Standing, now: func() time.Time { return m.now() }}
	return m
}

// Campaign loads one campaign of a panel with its definition; ErrNotFound when the panel has
// none by that id. The result is shared: read it, never change it.
func (m *Module) Campaign(ctx context.Context, panel *web.Panel, id string) (*Campaign, error) {
	return m.store.Campaign(ctx, panel.ID, id)
}

// Exists tells, as ErrNotFound, whether the panel has a campaign by that id.
func (m *Module) Exists(ctx context.Context, panel *web.Panel, id string) error {
	return m.store.exists(ctx, panel.ID, id)
}

// Listings are the panel's campaigns by id, as lists show them, without anyone's standing
// (ids the panel does not have are left out).
func (m *Module) Listings(ctx context.Context, panel *web.Panel, ids []string) (map[string]Listing, error) {
	return m.store.listings(ctx, panel.ID, ids)
}
