package wallet

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm/schema"
)

// The wallet row is scanned by hand on every member page; a column added to the model must
// be added to walletColumns (and the scan) too, or this fails.
func TestTheWalletQueryReadsEveryColumnOfTheModelInFieldOrder(t *testing.T) {
	t.Parallel()
	sch, err := schema.Parse(&Wallet{}, &sync.Map{}, schema.NamingStrategy{})
	require.NoError(t, err)
	var want []string
	for _, f := range sch.Fields {
		if f.DBName != "" {
			want = append(want, f.DBName)
		}
	}
	assert.Equal(t, want, walletColumns)
}
