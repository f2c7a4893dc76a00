package main

import (
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/clientreports"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/events"
	"github.com/canvass/canvass/modules/feed"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/results"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/webhooks"
	"gorm.io/gorm"
)

// allModels is every GORM model of every module; a new module adds its Models() here.
func allModels() []any {
	var out []any
	for _, models := range [][]any{
		tenancy.Models(), accounts.Models(), ratelimit.Models(), campaigns.Models(), feed.Models(), surveys.Models(),
		events.Models(), wallet.Models(), postcodes.Models(), mobile.Models(), redemptions.Models(), competitions.Models(),
		referrals.Models(), offers.Models(), clientreports.Models(), console.Models(), jobs.Models(), profile.Models(), signinconfig.Models(),
		webhooks.Models(), results.Models(),
	} {
		out = append(out, models...)
	}
	return out
}

func TestEveryModulesModelsMatchTheMigratedSchema(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) { dbtest.ModelsMatchSchema(t, db, allModels()...) })
}
