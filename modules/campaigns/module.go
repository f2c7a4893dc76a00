// Package campaigns owns the campaign catalogue (authored definitions, import), the member
// feed (eligibility, paging, hide, report, seen), participations and campaign reports.
package campaigns

import (
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Deps are what the module needs from the app.
type Deps struct {
	DB  *gorm.DB
	Kit *web.Kit
	Log *slog.Logger
}

type Module struct {
	kit   *web.Kit
	db    *gorm.DB
	store *Store
	log   *slog.Logger
	now   func() time.Time
}

func New(d Deps) *Module {
	return &Module{kit: d.Kit, db: d.DB, store: &Store{db: d.DB}, log: d.Log, now: time.Now}
}

// Store owns every GORM call of the module.
type Store struct {
	db *gorm.DB
}
