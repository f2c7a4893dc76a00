package accounts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm/schema"
	"sync"
)

// SessionByHash scans by hand; a column added to one of its three models must be added to
// sessionColumns (and the scan) too, or this fails.
func TestTheSessionQueryReadsEveryColumnOfItsThreeModelsInFieldOrder(t *testing.T) {
	t.Parallel()
	for _, m := range []struct {
		alias string
		model any
	}{{"s", &Session{}}, {"p", &Participant{}}, {"h", &AccountHolder{}}} {
		sch, err := schema.Parse(m.model, &sync.Map{}, schema.NamingStrategy{})
		require.NoError(t, err)
		var want []string
		for _, f := range sch.Fields {
			if f.DBName != "" {
				want = append(want, f.DBName)
			}
		}
		assert.Equal(t, want, sessionColumns[m.alias], "columns of %T", m.model)
	}
}
