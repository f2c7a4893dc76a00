package campaigns

import (
	"context"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the catalogue over it,
// and a clock the test moves.
type fixture struct {
	t      *testing.T
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	acme   *web.Panel
	globex *web.Panel
	clock  time.Time
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		f.m = New(Deps{DB: db})
		f.m.now = func() time.Time { return f.clock }
		f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
		f.globex = seed.Panel(t, db, "globex", "GBP", "en")
		fn(t, f)
	})
}

// definition is a valid one-question campaign; edits adjust it.
func definition(name string, edits ...func(*Definition)) *Definition {
	d := &Definition{
		UUID: uuid.NewString(), Type: TypeSurvey, DefaultLanguage: "en", Name: Text{"en": name}, Reward: "1.00", EstimatedMinutes: 5,
		Questions: []Question{{ID: "q1", ControlType: ControlRadio, Text: Text{"en": "Pick one"}, Answers: []Option{{ID: "yes", Text: Text{"en": "Yes"}}, {ID: "no", Text: Text{"en": "No"}}}}},
	}
	for _, e := range edits {
		e(d)
	}
	return d
}

// campaigns imports definitions into a panel and returns their uuids in order.
func (f *fixture) campaigns(panel *web.Panel, defs ...*Definition) []string {
	_, err := f.m.Import(f.ctx, panel, defs)
	require.NoError(f.t, err)
	ids := make([]string, len(defs))
	for i, d := range defs {
		ids[i] = d.UUID
	}
	return ids
}
