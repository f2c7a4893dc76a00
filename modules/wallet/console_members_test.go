package wallet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheConsoleReadsAPageOfMembersBalancesInOneCallOfTheirPanelOnly(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		rich, poor, empty := f.member(f.acme), f.member(f.acme), f.member(f.acme)
		abroad := f.member(f.globex)
		f.credit(f.acme, rich, 2500)
		f.credit(f.acme, poor, 300)
		f.debit(f.acme, poor, 300)
		f.credit(f.globex, abroad, 700)

		got, err := f.m.MemberBalances(f.ctx, f.acme.ID, []string{rich, poor, empty, abroad})
		require.NoError(t, err)
		assert.Equal(t, map[string]int64{rich: 2500, poor: 0}, got, "no wallet yet, or another panel's: absent (zero)")

		got, err = f.m.MemberBalances(f.ctx, f.acme.ID, nil)
		require.NoError(t, err)
		assert.Empty(t, got)
	})
}
