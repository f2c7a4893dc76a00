package webhooks

import (
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"gorm.io/gorm"
)

func TestTheWebhooksModelsMatchTheMigratedSchema(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) { dbtest.ModelsMatchSchema(t, db, Models()...) })
}
