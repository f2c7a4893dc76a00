package tenancy

import (
	"context"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func count(t *testing.T, db *gorm.DB, model any, where string, args ...any) int64 {
	t.Helper()
	var n int64
	require.NoError(t, db.Model(model).Where(where, args...).Count(&n).Error)
	return n
}

func languagesOf(t *testing.T, db *gorm.DB, panelID string) []PanelLanguage {
	t.Helper()
	var langs []PanelLanguage
	require.NoError(t, db.Where("panel_id = ?", panelID).Order("position").Find(&langs).Error)
	return langs
}

func TestApplyingTheSameSpecTwiceKeepsOnePanelAndReplacesItsLanguages(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)

		first, err := store.Apply(ctx, validSpec("acme", []string{"acme.example.com"}, "en", "es"))
		require.NoError(t, err)
		require.NotEmpty(t, first)

		again := validSpec("acme", []string{"acme.example.com"}, "ru", "es")
		again.Name = "Acme Rewards"
		second, err := store.Apply(ctx, again)
		require.NoError(t, err)

		assert.Equal(t, first, second, "the panel keeps its uuid")
		assert.EqualValues(t, 1, count(t, db, &Panel{}, "key = ?", "acme"))
		assert.EqualValues(t, 1, count(t, db, &Instance{}, "code = ?", "main"))
		assert.EqualValues(t, 1, count(t, db, &Domain{}, "panel_id = ?", first))
		var p Panel
		require.NoError(t, db.Where("id = ?", first).Take(&p).Error)
		assert.Equal(t, "Acme Rewards", p.Name)
		assert.Equal(t, "Acme Rewards", p.AppSettings.WebAppName, "the web app name defaults to the name")

		assert.Equal(t, []PanelLanguage{
			{PanelID: first, LanguageCode: "ru", IsDefault: true, Position: 0},
			{PanelID: first, LanguageCode: "es", IsDefault: false, Position: 1},
		}, languagesOf(t, db, first), "languages are replaced, the default first")

		l, err := store.panelByHost(ctx, "acme.example.com")
		require.NoError(t, err)
		assert.Equal(t, "ru", toWeb(l).DefaultLanguage)
	})
}

func TestApplyStoresHostsNormalised(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		id, err := NewStore(db).Apply(context.Background(), validSpec("acme", []string{"Shop.Example.COM.:8443"}, "en"))
		require.NoError(t, err)
		var d Domain
		require.NoError(t, db.Where("panel_id = ?", id).Take(&d).Error)
		assert.Equal(t, "shop.example.com", d.Host)
	})
}

func TestApplyRefusesAHostOwnedByAnotherPanelAndWritesNothing(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		acme, err := store.Apply(ctx, validSpec("acme", []string{"acme.example.com"}, "en"))
		require.NoError(t, err)

		thief := validSpec("thief", []string{"thief.example.com", "ACME.example.com:443"}, "es", "en")
		thief.Instance.Code = "other"
		_, err = store.Apply(ctx, thief)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "acme.example.com already belongs to another panel")

		assert.EqualValues(t, 0, count(t, db, &Panel{}, "key = ?", "thief"), "the second panel does not exist")
		assert.EqualValues(t, 0, count(t, db, &Instance{}, "code = ?", "other"), "nor its instance")
		assert.EqualValues(t, 0, count(t, db, &Domain{}, "host = ?", "thief.example.com"), "nor its first host")
		assert.EqualValues(t, 1, count(t, db, &PanelLanguage{}, "1 = 1"), "nor its languages")
		var d Domain
		require.NoError(t, db.Where("host = ?", "acme.example.com").Take(&d).Error)
		assert.Equal(t, acme, d.PanelID, "the host still belongs to its panel")
	})
}
