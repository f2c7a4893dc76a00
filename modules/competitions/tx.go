package competitions

import (
	"context"

	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
)

// inTx runs fn in a transaction, again when it lost a race (migrations.InTx).
func (m *Module) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return migrations.InTx(ctx, m.store.db, fn)
}
