package redemptions

import (
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// The check of migrations/schema_test.go for this module's models, so the module's own tests
// catch a model and its migration drifting apart.
func TestTheRedemptionModelsMatchTheMigratedSchema(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		for _, model := range Models() {
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
				fields := map[string]bool{}
				for _, f := range stmt.Schema.Fields {
					fields[f.DBName] = true
					col, ok := have[f.DBName]
					if !assert.True(t, ok, "column %s.%s for field %s", table, f.DBName, f.Name) {
						continue
					}
					typ := strings.ToLower(col.DatabaseTypeName())
					switch f.DataType {
					case schema.String:
						assert.True(t, strings.Contains(typ, "text") || strings.Contains(typ, "char"), "%s.%s is %s", table, f.DBName, typ)
					case schema.Int:
						assert.True(t, strings.Contains(typ, "int"), "%s.%s is %s", table, f.DBName, typ)
					case schema.Bool:
						assert.True(t, strings.Contains(typ, "bool"), "%s.%s is %s", table, f.DBName, typ)
					case schema.Time:
						assert.True(t, strings.Contains(typ, "timestamp") || strings.Contains(typ, "date"), "%s.%s is %s", table, f.DBName, typ)
					}
					if nullable, ok := col.Nullable(); ok && f.FieldType.Kind().String() != "ptr" && !f.PrimaryKey {
						assert.False(t, nullable, "%s.%s is nullable but field %s is not a pointer", table, f.DBName, f.Name)
					}
				}
				for name := range have {
					assert.True(t, fields[name], "column %s.%s has no model field", table, name)
				}
			})
		}
	})
}
