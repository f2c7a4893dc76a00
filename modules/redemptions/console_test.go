package redemptions

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// globexRedemption is a pending voucher redemption of a new globex member.
func (f *fixture) globexRedemption() *Redemption {
	f.t.Helper()
	pid := f.member(f.globex)
	f.fund(f.globex, pid, 3000)
	r, created, err := f.m.Redeem(f.ctx, RedeemInput{Panel: f.globex, ParticipantID: pid, Email: "g@example.com", OptionID: "amazon-voucher", Amount: "10.00", Key: f.key()})
	require.NoError(f.t, err)
	require.True(f.t, created)
	return r
}

func TestTheConsoleQueueListsOnlyThePanelsRedemptionsNewestFirstFilteredAndPaged(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		f.standardOptions(f.globex)
		start := f.clock
		var ids []string
		for i := range 5 {
			f.clock = start.Add(time.Duration(i) * time.Hour)
			ids = append(ids, f.pendingRedemption().ID)
		}
		f.globexRedemption()
		_, err := f.act(ids[1], StatusApproved, "olga", "ok")
		require.NoError(t, err)

		idsOf := func(rs []Redemption) []string {
			out := []string{}
			for _, r := range rs {
				out = append(out, r.ID)
			}
			return out
		}
		cases := []struct {
			name string
			f    QueueFilter
			want []string
			more bool
		}{
			{"every status, newest first", QueueFilter{PanelID: f.acme.ID}, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}, false},
			{"pending only", QueueFilter{PanelID: f.acme.ID, Status: StatusPending}, []string{ids[4], ids[3], ids[2], ids[0]}, false},
			{"approved only", QueueFilter{PanelID: f.acme.ID, Status: StatusApproved}, []string{ids[1]}, false},
			{"an option none used", QueueFilter{PanelID: f.acme.ID, OptionID: "bank"}, []string{}, false},
			{"the option used", QueueFilter{PanelID: f.acme.ID, OptionID: "paypal"}, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}, false},
			{"a date range, its end excluded", QueueFilter{PanelID: f.acme.ID, From: start.Add(time.Hour), To: start.Add(3 * time.Hour)}, []string{ids[2], ids[1]}, false},
			{"the first page of two", QueueFilter{PanelID: f.acme.ID, PageSize: 2}, []string{ids[4], ids[3]}, true},
			{"the last page", QueueFilter{PanelID: f.acme.ID, PageSize: 2, Page: 3}, []string{ids[0]}, false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, more, err := f.m.Queue(f.ctx, tc.f)
				require.NoError(t, err)
				assert.Equal(t, tc.want, idsOf(got))
				assert.Equal(t, tc.more, more)
			})
		}
		_, _, err = f.m.Queue(f.ctx, QueueFilter{PanelID: f.acme.ID, Status: "lost"})
		assert.Error(t, err)
	})
}

func TestAConsoleActionIsIdempotentAndAForbiddenMoveIsRefused(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		r := f.pendingRedemption()

		out, err := f.m.Act(f.ctx, f.acme.ID, r.ID, StatusApproved, "finance@ops", "checked")
		require.NoError(t, err)
		assert.True(t, out.Changed)
		assert.Equal(t, StatusPending, out.From)
		assert.Equal(t, StatusApproved, out.Redemption.Status)
		events := len(f.events(r.ID))

		again, err := f.m.Act(f.ctx, f.acme.ID, r.ID, StatusApproved, "finance@ops", "checked twice")
		require.NoError(t, err, "approving an approved redemption is no error")
		assert.False(t, again.Changed)
		assert.Equal(t, StatusApproved, again.Redemption.Status)
		assert.Len(t, f.events(r.ID), events, "nothing recorded the second time")

		balance := f.balance(f.acme, r.ParticipantID)
		rej, err := f.m.Act(f.ctx, f.acme.ID, r.ID, StatusRejected, "finance@ops", "fraud")
		require.NoError(t, err)
		assert.True(t, rej.Changed)
		assert.Equal(t, StatusApproved, rej.From)
		assert.Equal(t, balance+r.AmountMinor, f.balance(f.acme, r.ParticipantID), "a rejection refunds")
		rej, err = f.m.Act(f.ctx, f.acme.ID, r.ID, StatusRejected, "finance@ops", "fraud")
		require.NoError(t, err)
		assert.False(t, rej.Changed)
		assert.Equal(t, balance+r.AmountMinor, f.balance(f.acme, r.ParticipantID), "refunded once")

		_, err = f.m.Act(f.ctx, f.acme.ID, r.ID, StatusPaid, "finance@ops", "paid")
		var te *TransitionError
		require.ErrorAs(t, err, &te, "a rejected redemption is never paid")
		assert.Equal(t, StatusRejected, te.From)

		_, err = f.m.Act(f.ctx, f.acme.ID, f.pendingRedemption().ID, StatusApproved, "finance@ops", " ")
		assert.ErrorIs(t, err, ErrReasonRequired)
		_, err = f.m.Act(f.ctx, f.acme.ID, r.ID, StatusPending, "finance@ops", "back")
		assert.Error(t, err, "no action leads back to pending")
	})
}

func TestTheConsoleNeverReachesAnotherPanelsRedemption(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		f.standardOptions(f.globex)
		g := f.globexRedemption()
		calls := map[string]func() error{
			"load":   func() error { _, _, err := f.m.PanelRedemption(f.ctx, f.acme.ID, g.ID); return err },
			"act":    func() error { _, err := f.m.Act(f.ctx, f.acme.ID, g.ID, StatusApproved, "o", "r"); return err },
			"reveal": func() error { _, _, err := f.m.RevealDestination(f.ctx, f.acme.ID, g.ID); return err },
			"none":   func() error { _, _, err := f.m.PanelRedemption(f.ctx, f.acme.ID, "no-such-id"); return err },
		}
		for name, call := range calls {
			t.Run(name, func(t *testing.T) {
				assert.True(t, errors.Is(call(), ErrNotFound))
			})
		}
		stored, _, err := f.m.PanelRedemption(f.ctx, f.globex.ID, g.ID)
		require.NoError(t, err)
		assert.Equal(t, StatusPending, stored.Status, "untouched")
	})
}

func TestARevealOpensTheWholeDestinationTheMemberGave(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		r := f.pendingRedemption()
		assert.NotContains(t, r.DestinationMasked, "dana.payee@example.com")
		got, d, err := f.m.RevealDestination(f.ctx, f.acme.ID, r.ID)
		require.NoError(t, err)
		assert.Equal(t, r.ID, got.ID)
		assert.Equal(t, KindPayPal, d.Kind)
		assert.Equal(t, "dana.payee@example.com", d.PayPalEmail)
	})
}

func TestPayoutsAreTheRedemptionsMarkedPaidInThePeriodOfThePanel(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		f.standardOptions(f.globex)
		day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
		a := f.in(StatusApproved)
		b := f.in(StatusApproved)
		f.in(StatusApproved) // approved, never paid
		g := f.globexRedemption()
		_, err := f.m.Approve(f.ctx, g.ID, "o", "r")
		require.NoError(t, err)

		f.clock = day.Add(13 * time.Hour)
		_, err = f.m.MarkPaid(f.ctx, a.ID, "o", "paid")
		require.NoError(t, err)
		_, err = f.m.MarkPaid(f.ctx, g.ID, "o", "paid")
		require.NoError(t, err)
		f.clock = day.Add(24*time.Hour + time.Hour)
		_, err = f.m.MarkPaid(f.ctx, b.ID, "o", "paid")
		require.NoError(t, err)

		got, err := f.m.Payouts(f.ctx, f.acme.ID, day, day.Add(24*time.Hour))
		require.NoError(t, err)
		require.Len(t, got, 1, "one acme redemption paid that day")
		assert.Equal(t, a.ID, got[0].RedemptionID)
		assert.Equal(t, "paypal", got[0].OptionID)
		assert.Equal(t, int64(2000), got[0].AmountMinor)
		assert.Equal(t, int64(2000), got[0].NetMinor)
		assert.Equal(t, "USD", got[0].CurrencyCode)
		assert.Equal(t, day.Add(13*time.Hour), got[0].PaidAt.UTC())

		got, err = f.m.Payouts(f.ctx, f.acme.ID, day, day.Add(48*time.Hour))
		require.NoError(t, err)
		require.Len(t, got, 2)
		assert.Equal(t, b.ID, got[1].RedemptionID)
	})
}
