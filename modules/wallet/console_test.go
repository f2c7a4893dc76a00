package wallet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPanelMemberTellsAPanelsMembersFromOthersAndStrangers(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		own, other := f.member(f.acme), f.member(f.globex)
		f.credit(f.globex, other, 100) // one with a wallet, one without
		cases := []struct {
			name string
			pid  string
			want bool
		}{
			{"a member of the panel without a wallet yet", own, true},
			{"a member of another panel", other, false},
			{"no participant at all", "00000000-0000-4000-8000-000000000000", false},
			{"nothing given", "", false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.m.PanelMember(f.ctx, f.acme, tc.pid)
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
			})
		}
	})
}

func TestCreditsByDaySumAPanelsCreditsPerDayAndOriginLeavingDebitsOut(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
		a, b, g := f.member(f.acme), f.member(f.acme), f.member(f.globex)
		f.clock = day.Add(9 * time.Hour)
		f.credit(f.acme, a, 125)
		f.credit(f.acme, b, 300)
		f.credit(f.globex, g, 999) // another panel
		f.debit(f.acme, a, 100)    // a debit is no credit
		_, _, err := f.m.Adjust(f.ctx, f.acme, b, "2.50", "goodwill", "ops", "k1")
		require.NoError(t, err)
		f.clock = day.Add(24*time.Hour + 23*time.Hour + 59*time.Minute)
		f.credit(f.acme, a, 50)
		f.clock = day.Add(72 * time.Hour)
		f.credit(f.acme, a, 7) // past the end

		got, err := f.m.CreditsByDay(f.ctx, f.acme.ID, day, day.Add(72*time.Hour))
		require.NoError(t, err)
		assert.Equal(t, []CreditDay{
			{Day: day, Origin: OriginCampaign, Count: 2, Minor: 425},
			{Day: day, Origin: OriginManual, Count: 1, Minor: 250},
			{Day: day.Add(24 * time.Hour), Origin: OriginCampaign, Count: 1, Minor: 50},
		}, got)

		none, err := f.m.CreditsByDay(f.ctx, f.acme.ID, day.Add(-48*time.Hour), day)
		require.NoError(t, err)
		assert.Empty(t, none)
	})
}
