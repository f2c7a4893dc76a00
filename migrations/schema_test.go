package migrations_test

import (
	"context"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/events"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// allModels is every GORM model of every module; a new module adds its Models() here.
func allModels() []any {
	var out []any
	out = append(out, tenancy.Models()...)
	out = append(out, accounts.Models()...)
	out = append(out, ratelimit.Models()...)
	out = append(out, campaigns.Models()...)
	out = append(out, events.Models()...)
	out = append(out, wallet.Models()...)
	out = append(out, postcodes.Models()...)
	out = append(out, mobile.Models()...)
	out = append(out, redemptions.Models()...)
	out = append(out, competitions.Models()...)
	return out
}

func TestMigrationsApplyOnEveryDialectAndAreIdempotent(t *testing.T) {
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			db := dbtest.OpenEmpty(t, d)
			require.NoError(t, migrations.Up(context.Background(), db, nil))
			require.NoError(t, migrations.Up(context.Background(), db, nil), "a second run applies nothing and fails nothing")
		})
	}
}

func TestEveryModelMatchesTheMigratedSchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) { dbtest.ModelsMatchSchema(t, db, allModels()...) })
}
