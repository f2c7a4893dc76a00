package migrations

import (
	"github.com/pressly/goose/v3"
	"gorm.io/gorm"
)

// Provider gives the external tests the migrations as Up runs them, to go down and up again.
func Provider(db *gorm.DB) (*goose.Provider, error) {
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	return newProvider(gooseDialect(db), sqlDB)
}
