package redemptions

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// act runs an operator's action by the status it leads to.
func (f *fixture) act(id string, to Status, operator, reason string) (*Redemption, error) {
	switch to {
	case StatusApproved:
		return f.m.Approve(f.ctx, id, operator, reason)
	case StatusPaid:
		return f.m.MarkPaid(f.ctx, id, operator, reason)
	case StatusRejected:
		return f.m.Reject(f.ctx, id, operator, reason)
	}
	panic("no action leads to " + to)
}

// pendingRedemption redeems 20.00 of a fresh member's 30.00 and returns the redemption.
func (f *fixture) pendingRedemption() *Redemption {
	f.t.Helper()
	pid := f.redeemer(3000)
	r, created, err := f.redeem(pid, "paypal", "20.00", f.key())
	require.NoError(f.t, err)
	require.True(f.t, created)
	return r
}

// in brings a fresh pending redemption to a status along the lifecycle.
func (f *fixture) in(status Status) *Redemption {
	f.t.Helper()
	r := f.pendingRedemption()
	path := map[Status][]Status{StatusApproved: {StatusApproved}, StatusPaid: {StatusApproved, StatusPaid}, StatusRejected: {StatusRejected}}[status]
	for _, s := range path {
		var err error
		r, err = f.act(r.ID, s, "ops", "setting up")
		require.NoError(f.t, err)
	}
	return r
}

func TestEachStatusMovesOnlyWhereTheLifecycleAllows(t *testing.T) {
	t.Parallel()
	allowed := map[[2]Status]bool{
		{StatusPending, StatusApproved}:  true,
		{StatusPending, StatusRejected}:  true,
		{StatusApproved, StatusPaid}:     true,
		{StatusApproved, StatusRejected}: true,
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, from := range Statuses {
			for _, to := range []Status{StatusApproved, StatusPaid, StatusRejected} {
				t.Run(fmt.Sprintf("%s to %s", from, to), func(t *testing.T) {
					f.t = t
					r := f.in(from)
					balance := f.balance(f.acme, r.ParticipantID)
					events := len(f.events(r.ID))
					f.clock = f.clock.Add(time.Minute)

					got, err := f.act(r.ID, to, "olga", "checked the account")
					if !allowed[[2]Status{from, to}] {
						var te *TransitionError
						require.ErrorAs(t, err, &te)
						assert.Equal(t, TransitionError{ID: r.ID, From: from, To: to}, *te)
						assert.Contains(t, err.Error(), "redemption "+r.ID+" is ")
						stored, _, err := f.m.Redemption(f.ctx, r.ID)
						require.NoError(t, err)
						assert.Equal(t, from, stored.Status)
						assert.Len(t, f.events(r.ID), events, "a refused change records nothing")
						assert.Equal(t, balance, f.balance(f.acme, r.ParticipantID))
						return
					}
					require.NoError(t, err)
					assert.Equal(t, to, got.Status)
					evs := f.events(r.ID)
					require.Len(t, evs, events+1)
					last := evs[len(evs)-1]
					assert.Equal(t, Event{ID: last.ID, RedemptionID: r.ID, FromStatus: from, ToStatus: to, Operator: "olga", Reason: "checked the account", CreatedAt: f.clock}, last)
					want := balance
					if to == StatusRejected {
						want += r.AmountMinor
						require.NotNil(t, got.RefundEntryID)
						refund := f.entry(*got.RefundEntryID)
						assert.Equal(t, r.AmountMinor, refund.AmountMinor)
						assert.Equal(t, wallet.OriginRedeem, refund.Origin)
						assert.Equal(t, "refund:"+r.ID, *refund.NaturalKey)
						assert.Equal(t, "Refund: PayPal", refund.Title)
						assert.Equal(t, "checked the account", refund.Reason)
						assert.Equal(t, "olga", refund.Operator)
					}
					assert.Equal(t, want, f.balance(f.acme, r.ParticipantID))
					f.reconciled(r.ParticipantID)
				})
			}
		}
	})
}

func TestRejectingARedemptionTwiceRefundsItOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		r := f.pendingRedemption()
		_, err := f.m.Reject(f.ctx, r.ID, "olga", "account closed")
		require.NoError(t, err)
		_, err = f.m.Reject(f.ctx, r.ID, "olga", "account closed")
		var te *TransitionError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, "redemption "+r.ID+" is already rejected", err.Error())
		assert.Equal(t, int64(3000), f.balance(f.acme, r.ParticipantID))
		f.reconciled(r.ParticipantID)
	})
}

// Operators acting at once on one redemption each act on the status they find: a change
// applies once from a status, so the redemption walks one legal path (never approved twice,
// never rejected twice, never refunded twice), and a later action from a status that has
// moved on is refused.
func TestConcurrentOperatorActionsOnOneRedemptionApplyOnceEach(t *testing.T) {
	t.Parallel()
	const racers = 20
	cases := []struct {
		name    string
		from    Status
		actions []Status // callers take them in turn
		applied int      // how many of the callers' actions apply; 0: one or two, by who wins
	}{
		{name: "rejections of a pending redemption", from: StatusPending, actions: []Status{StatusRejected}, applied: 1},
		{name: "rejections of an approved redemption", from: StatusApproved, actions: []Status{StatusRejected}, applied: 1},
		{name: "approvals of a pending redemption", from: StatusPending, actions: []Status{StatusApproved}, applied: 1},
		{name: "payments and rejections of an approved redemption", from: StatusApproved, actions: []Status{StatusPaid, StatusRejected}, applied: 1},
		{name: "approvals and rejections of a pending redemption", from: StatusPending, actions: []Status{StatusApproved, StatusRejected}},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				r := f.in(c.from)
				before := len(f.events(r.ID))
				errs := make([]error, racers)
				race(racers, func(i int) {
					_, errs[i] = f.act(r.ID, c.actions[i%len(c.actions)], fmt.Sprintf("op-%d", i), "race")
				})

				applied := 0
				for i, err := range errs {
					if err == nil {
						applied++
						continue
					}
					var te *TransitionError
					assert.True(t, errors.As(err, &te), "caller %d: %v", i, err)
				}
				if c.applied > 0 {
					assert.Equal(t, c.applied, applied)
				} else {
					assert.Contains(t, []int{1, 2}, applied)
				}
				stored, evs, err := f.m.Redemption(f.ctx, r.ID)
				require.NoError(t, err)
				changes := evs[before:]
				assert.Len(t, changes, applied, "one event per applied change")
				at := c.from
				for _, e := range changes {
					assert.Equal(t, at, e.FromStatus, "the changes form one path")
					assert.True(t, CanMove(e.FromStatus, e.ToStatus), "%s to %s", e.FromStatus, e.ToStatus)
					at = e.ToStatus
				}
				assert.Equal(t, at, stored.Status)
				var refunds int64
				require.NoError(t, f.db.Model(&wallet.Entry{}).Where("redemption_id = ? AND amount_minor > 0", r.ID).Count(&refunds).Error)
				want := int64(0)
				if stored.Status == StatusRejected {
					want = 1
				}
				assert.Equal(t, want, refunds, "refunded once if rejected, never otherwise")
				assert.Equal(t, 1000+want*r.AmountMinor, f.balance(f.acme, r.ParticipantID))
				f.reconciled(r.ParticipantID)
			})
		}
	})
}

func TestOperatorActionsNeedAReasonAndAKnownRedemption(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		r := f.pendingRedemption()
		cases := []struct {
			name, id, operator, reason string
			want                       error
		}{
			{name: "without a reason", id: r.ID, operator: "olga", reason: "  ", want: ErrReasonRequired},
			{name: "without an operator", id: r.ID, operator: "", reason: "ok", want: ErrReasonRequired},
			{name: "of an unknown redemption", id: "00000000-0000-0000-0000-000000000000", operator: "olga", reason: "ok", want: ErrNotFound},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				for _, to := range []Status{StatusApproved, StatusPaid, StatusRejected} {
					_, err := f.act(c.id, to, c.operator, c.reason)
					assert.ErrorIs(t, err, c.want, "to %s", to)
				}
				assert.Len(t, f.events(r.ID), 1)
			})
		}
	})
}

func TestTheOperatorsListNarrowsByPanelAndStatusOldestFirst(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		f.standardOptions(f.globex)
		first := f.in(StatusApproved)
		f.clock = f.clock.Add(time.Minute)
		second := f.pendingRedemption()
		f.clock = f.clock.Add(time.Minute)
		gb := f.member(f.globex)
		f.fund(f.globex, gb, 2000)
		_, err := f.m.SavePayPal(f.ctx, f.globex, gb, "gb@example.co.uk")
		require.NoError(t, err)
		third, _, err := f.m.Redeem(f.ctx, RedeemInput{Panel: f.globex, ParticipantID: gb, OptionID: "paypal", Amount: "20", Key: "k"})
		require.NoError(t, err)

		ids := func(list []Redemption) []string {
			var out []string
			for _, r := range list {
				out = append(out, r.ID)
			}
			return out
		}
		cases := []struct {
			name   string
			filter ListFilter
			want   []string
		}{
			{"everything", ListFilter{}, []string{first.ID, second.ID, third.ID}},
			{"one panel", ListFilter{PanelID: f.acme.ID}, []string{first.ID, second.ID}},
			{"one status", ListFilter{Status: StatusPending}, []string{second.ID, third.ID}},
			{"one panel and status", ListFilter{PanelID: f.acme.ID, Status: StatusApproved}, []string{first.ID}},
			{"a limit", ListFilter{Limit: 1}, []string{first.ID}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				list, err := f.m.List(f.ctx, c.filter)
				require.NoError(t, err)
				assert.Equal(t, c.want, ids(list))
			})
		}
		_, err = f.m.List(f.ctx, ListFilter{Status: "lost"})
		assert.ErrorContains(t, err, "want one of pending, approved, paid, rejected")
	})
}
