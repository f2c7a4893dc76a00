// Package competitions runs the prize draws of competition campaigns: members who completed
// a competition campaign enter its draw or decline it (the survey screen asks them), and an
// operator draws the winners once, with a recorded random seed that lets anyone check the
// result again. Entries and prizes go through the wallet's ledger: an entry is a record of
// amount zero in the member's history, a money prize a credit.
package competitions

import (
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Campaigns is what the module needs from the campaign catalogue: a campaign's competition
// and a panel's competitions.
type Campaigns interface {
	CompetitionOf(ctx context.Context, panel *web.Panel, campaignID string) (*campaigns.CompetitionInfo, error)
	Competitions(ctx context.Context, panel *web.Panel) ([]campaigns.CompetitionInfo, error)
}

// Completions tells whether a member completed a campaign (the survey engine knows): only
// completers are invited to its draw.
type Completions interface {
	Completed(ctx context.Context, panel *web.Panel, participantID, campaignID string) (bool, error)
}

// Ledger is what the module needs from the wallet, inside the module's own transaction: a
// record of amount zero (an entry, a prize that is not money) and a credit (a money prize).
type Ledger interface {
	RecordTx(tx *gorm.DB, mv wallet.Movement) (*wallet.Entry, bool, error)
	CreditTx(tx *gorm.DB, mv wallet.Movement) (*wallet.Entry, bool, error)
}

// Guard is what the module needs from accounts: the signed-in requirement for APIs.
type Guard interface {
	RequireMember() fiber.Handler
}

// Deps are what the module needs from the app.
type Deps struct {
	DB          *gorm.DB
	Kit         *web.Kit // translates the ledger titles; nil writes them in English
	Log         *slog.Logger
	Guard       Guard // needed by Routes only
	Campaigns   Campaigns
	Completions Completions
	Ledger      Ledger
	// Panels lists every panel, so an operator may name a competition by its id alone.
	Panels func(ctx context.Context) ([]*web.Panel, error)
	Now    func() time.Time // nil: time.Now
}

type Module struct {
	store       *Store
	kit         *web.Kit
	log         *slog.Logger
	guard       Guard
	campaigns   Campaigns
	completions Completions
	ledger      Ledger
	panels      func(ctx context.Context) ([]*web.Panel, error)
	now         func() time.Time
}

func New(d Deps) *Module {
	if d.DB == nil || d.Campaigns == nil || d.Completions == nil || d.Ledger == nil {
		panic("competitions: Deps.DB, Campaigns, Completions and Ledger are required")
	}
	m := &Module{
		store: NewStore(d.DB), kit: d.Kit, log: d.Log, guard: d.Guard, campaigns: d.Campaigns, completions: d.Completions,
		ledger: d.Ledger, panels: d.Panels, now: d.Now,
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.now == nil {
		m.now = time.Now
	}
	return m
}

// Routes lists the module's calls.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()

	// Panel-instance API, v1 and v2 under the instance code, beside the campaign calls. The
	// guards are the campaign group's, given per route: a second group on the same prefix
	// would run them twice for every campaign call.
	inst := r.Group("/api/:version<regex(v[12])>/:instanceCode/campaigns")
	inst.Post("/:id/enter-competition/:x", web.InstanceGuard, api, m.apiEnter)
	inst.Post("/:id/reject-competition", web.InstanceGuard, api, m.apiReject)
}
