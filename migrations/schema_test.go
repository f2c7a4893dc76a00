package migrations_test

import (
	"context"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/events"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/schema"
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
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		for _, model := range allModels() {
			stmt := &gorm.Statement{DB: db}
			require.NoError(t, stmt.Parse(model))
			table := stmt.Schema.Table
			t.Run(table, func(t *testing.T) {
				require.True(t, db.Migrator().HasTable(table), "table %s exists", table)
				cols, err := db.Migrator().ColumnTypes(model)
				require.NoError(t, err)
				have := map[string]gorm.ColumnType{}
				for _, c := range cols {
					have[c.Name()] = c
				}
				for _, f := range stmt.Schema.Fields {
					if f.DBName == "" {
						continue
					}
					col, ok := have[f.DBName]
					if !assert.True(t, ok, "column %s.%s for field %s", table, f.DBName, f.Name) {
						continue
					}
					assert.True(t, compatible(f, col.DatabaseTypeName()), "%s.%s: field %s (%s) vs column type %s", table, f.DBName, f.Name, f.DataType, col.DatabaseTypeName())
					if nullable, ok := col.Nullable(); ok && f.FieldType.Kind().String() != "ptr" && !f.PrimaryKey {
						assert.False(t, nullable, "%s.%s is nullable but field %s is not a pointer", table, f.DBName, f.Name)
					}
				}
				fields := map[string]bool{}
				for _, f := range stmt.Schema.Fields {
					fields[f.DBName] = true
				}
				for name := range have {
					assert.True(t, fields[name], "column %s.%s has no model field", table, name)
				}
			})
		}
	})
}

// compatible tells whether a column's database type can hold the Go field's data.
func compatible(f *schema.Field, dbType string) bool {
	t := strings.ToLower(dbType)
	switch f.DataType {
	case schema.String:
		return strings.Contains(t, "text") || strings.Contains(t, "char")
	case schema.Bool:
		return strings.Contains(t, "bool")
	case schema.Int, schema.Uint:
		return strings.Contains(t, "int")
	case schema.Time:
		return strings.Contains(t, "timestamp") || strings.Contains(t, "date")
	case schema.Float:
		return strings.Contains(t, "real") || strings.Contains(t, "double") || strings.Contains(t, "numeric")
	}
	// Serialised fields (JSON) are stored as text.
	return strings.Contains(t, "text") || strings.Contains(t, "json")
}
