package dbtest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/schema"
)

// ModelsMatchSchema checks each GORM model against the migrated table: every field has a
// column of a compatible type, a non-pointer field's column is NOT NULL, and every column has
// a field. Each module runs it on its own models, so its tests catch a model and its migration
// drifting apart; migrations/schema_test.go runs it on all of them.
func ModelsMatchSchema(t *testing.T, db *gorm.DB, models ...any) {
	t.Helper()
	for _, model := range models {
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
				if f.DBName == "" {
					continue
				}
				fields[f.DBName] = true
				col, ok := have[f.DBName]
				if !assert.True(t, ok, "column %s.%s for field %s", table, f.DBName, f.Name) {
					continue
				}
				assert.True(t, compatible(f, col.DatabaseTypeName()), "%s.%s: field %s (%s) vs column type %s", table, f.DBName, f.Name, f.DataType, col.DatabaseTypeName())
				if nullable, ok := col.Nullable(); ok && f.FieldType.Kind().String() != "ptr" && !f.PrimaryKey {
					assert.False(t, nullable, "%s.%s is nullable but field %s is not a pointer", table, f.DBName, f.Name)
				}
			}
			for name := range have {
				assert.True(t, fields[name], "column %s.%s has no model field", table, name)
			}
		})
	}
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
		return strings.Contains(t, "real") || strings.Contains(t, "double") || strings.Contains(t, "numeric") || strings.Contains(t, "float") // PostgreSQL reports double precision as float8
	}
	// Serialised fields (JSON) are stored as text.
	return strings.Contains(t, "text") || strings.Contains(t, "json")
}
