package mobile

import (
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"gorm.io/gorm"
)

// The check of migrations/schema_test.go for this module's models, so the module's own tests
// catch a model and its migration drifting apart.
func TestTheMobileModelsMatchTheMigratedSchema(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) { dbtest.ModelsMatchSchema(t, db, Models()...) })
}
