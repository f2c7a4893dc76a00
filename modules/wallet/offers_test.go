package wallet

import (
	"fmt"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// offerCredit is an offers provider's credit of amount for its transaction txID.
func offerCredit(panel *web.Panel, pid string, amount int64, txID string) Movement {
	return Movement{Panel: panel, ParticipantID: pid, Amount: amount, Currency: panel.CurrencyCode, Origin: OriginOffer, Key: OfferKey("fakewall", txID), Title: "Play Tile Quest to level 10"}
}

// reversalOf is the provider's reversal of its transaction txID, under the reversal's own key.
func reversalOf(panel *web.Panel, pid, txID, key string) Reversal {
	return Reversal{Panel: panel, ParticipantID: pid, OriginalKey: OfferKey("fakewall", txID), Key: key, Title: "Play Tile Quest to level 10 (reversed)"}
}

// creditTx is CreditTx in a transaction of the caller's, as the offers module pays a postback.
func (f *fixture) creditTx(mv Movement) (entry *Entry, created bool, err error) {
	err = migrations.InTx(f.ctx, f.db, func(tx *gorm.DB) error {
		entry, created, err = f.m.CreditTx(tx, mv)
		return err
	})
	return entry, created, err
}

// reverseTx is ReverseTx in a transaction of the caller's.
func (f *fixture) reverseTx(r Reversal) (entry *Entry, owed int64, created bool, err error) {
	err = migrations.InTx(f.ctx, f.db, func(tx *gorm.DB) error {
		entry, owed, created, err = f.m.ReverseTx(tx, r)
		return err
	})
	return entry, owed, created, err
}

// owed is the member's open offer debt as the wallet reports it.
func (f *fixture) owed(pid string) int64 {
	f.t.Helper()
	n, err := f.m.Owed(f.ctx, pid)
	require.NoError(f.t, err)
	return n
}

// debts adds the member's entries' debts up in SQL, independently of the wallet's cache.
func (f *fixture) debts(pid string) int64 {
	f.t.Helper()
	var total int64
	require.NoError(f.t, f.db.Raw(`SELECT COALESCE(SUM(debt_minor), 0) FROM ledger_entries WHERE participant_id = ?`, pid).Scan(&total).Error)
	return total
}

// sound asserts every invariant of the member's ledger: gapless numbering and running
// balances, the cache equal to the sums, a debt only on a zero balance, reconcile clean.
func (f *fixture) sound(pid string) []Entry {
	f.t.Helper()
	if !f.hasWallet(pid) {
		require.Zero(f.t, f.count(pid))
		return nil
	}
	es := f.gapless(pid)
	f.reconciled(pid)
	owed := f.owed(pid)
	require.Equal(f.t, f.debts(pid), owed, "the open debt is not the sum of the entries' debts")
	require.GreaterOrEqual(f.t, owed, int64(0))
	if owed > 0 {
		require.Zero(f.t, f.cached(pid), "a debt is open beside a balance")
	}
	return es
}

func TestAnOfferCreditIsWrittenOnceByItsKeyLikeAnyCredit(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		mv := offerCredit(f.acme, pid, 350, "tx-1")
		first, created, err := f.creditTx(mv)
		require.NoError(t, err)
		require.True(t, created)
		assert.Equal(t, OriginOffer, first.Origin)
		assert.Equal(t, "offer:fakewall:tx-1", *first.NaturalKey)
		assert.Equal(t, "Play Tile Quest to level 10", first.Title)
		assert.Zero(t, first.DebtMinor)
		assert.Nil(t, first.ReversesID)

		cases := []struct {
			name    string
			mv      func() Movement
			want    error // nil: the first entry again
			created bool
		}{
			{name: "the provider's retry", mv: func() Movement { return mv }},
			{name: "a retry with another title", mv: func() Movement { m := mv; m.Title = "Renamed"; return m }},
			{name: "the key with another amount", mv: func() Movement { m := mv; m.Amount = 351; return m }, want: ErrKeyReused},
			{name: "the key as a survey's", mv: func() Movement { m := mv; m.Origin = OriginCampaign; return m }, want: ErrKeyReused},
			{name: "another transaction of the provider", mv: func() Movement { return offerCredit(f.acme, pid, 350, "tx-2") }, created: true},
		}
		for _, c := range cases {
			f.clock = f.clock.Add(time.Minute)
			e, created, err := f.creditTx(c.mv())
			if c.want != nil {
				require.ErrorIs(t, err, c.want, c.name)
				continue
			}
			require.NoError(t, err, c.name)
			assert.Equal(t, c.created, created, c.name)
			if !c.created {
				assert.Equal(t, first.ID, e.ID, c.name)
			}
		}
		assert.Equal(t, int64(700), f.balance(f.acme, pid))

		// An offer only credits: taking it back is a reversal.
		debit := offerCredit(f.acme, pid, 100, "tx-3")
		_, _, err = f.m.Debit(f.ctx, debit)
		require.ErrorIs(t, err, ErrOrigin)

		// Offer credits are in the history, neither competitions nor redemptions, and paid
		// like any credit in the notification.
		all, _, err := f.m.Transactions(f.ctx, pid, Query{Filter: FilterMostRecent})
		require.NoError(t, err)
		assert.Len(t, all, 2)
		for _, filter := range []Filter{FilterCompetitions, FilterRedemptions} {
			listed, _, err := f.m.Transactions(f.ctx, pid, Query{Filter: filter})
			require.NoError(t, err)
			assert.Empty(t, listed, filter)
		}
		_, pay, err := f.m.header(f.ctx, f.acme, pid)
		require.NoError(t, err)
		assert.Equal(t, &Payment{Amount: 700, Currency: "USD", UpTo: 2}, pay)
		f.sound(pid)
	})
}

func TestFiftyConcurrentOfferCreditsWithOneKeyMakeOneEntry(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		setup func(f *fixture, pid string)
		owed  int64 // the debt the race starts with
	}{
		{name: "a member without a wallet"},
		{name: "a member with a balance", setup: func(f *fixture, pid string) { f.credit(f.acme, pid, 100) }},
		{name: "a member in debt", owed: 400, setup: func(f *fixture, pid string) {
			_, _, err := f.creditTx(offerCredit(f.acme, pid, 500, "spent"))
			require.NoError(f.t, err)
			f.debit(f.acme, pid, 500)
			_, owed, _, err := f.reverseTx(reversalOf(f.acme, pid, "spent", "reversal:spent"))
			require.NoError(f.t, err)
			require.Equal(f.t, int64(500), owed)
			f.credit(f.acme, pid, 100)
		}},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				if c.setup != nil {
					c.setup(f, pid)
				}
				require.Equal(t, c.owed, f.owed(pid))
				before, entries := f.balance(f.acme, pid), f.count(pid)

				results := race(50, func(int) (*Entry, bool, error) { return f.creditTx(offerCredit(f.acme, pid, 725, "same")) })
				created := 0
				for i, r := range results {
					require.NoError(t, r.err, "caller %d", i)
					assert.Equal(t, results[0].entry.ID, r.entry.ID, "caller %d got another entry", i)
					if r.created {
						created++
					}
				}
				assert.Equal(t, 1, created, "exactly one caller writes the credit")
				repaid := min(725, c.owed)
				assert.Equal(t, before+725-repaid, f.balance(f.acme, pid))
				assert.Equal(t, c.owed-repaid, f.owed(pid))
				wantEntries := entries + 1
				if repaid > 0 {
					wantEntries++ // its recovery, once
				}
				assert.Equal(t, wantEntries, f.count(pid))
				f.sound(pid)
			})
		}
	})
}

func TestAReversalTakesBackWhatTheBalanceCoversAndTheRestIsOwed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		earned  int64 // survey credits before the offer
		offer   int64
		spent   int64 // redeemed after the offer, before its reversal
		taken   int64 // what the reversal debits
		owed    int64 // what it leaves owed
		balance int64 // the balance after it
	}{
		{name: "a balance that covers the credit", earned: 200, offer: 300, taken: 300, balance: 200},
		{name: "a balance partly spent", earned: 200, offer: 300, spent: 400, taken: 100, owed: 200},
		{name: "a balance spent to the last cent", offer: 300, spent: 300, taken: 0, owed: 300},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				if c.earned > 0 {
					f.credit(f.acme, pid, c.earned)
				}
				credit, _, err := f.creditTx(offerCredit(f.acme, pid, c.offer, "tx-1"))
				require.NoError(t, err)
				if c.spent > 0 {
					f.debit(f.acme, pid, c.spent)
				}
				f.sound(pid)

				f.clock = f.clock.Add(time.Hour)
				r := reversalOf(f.acme, pid, "tx-1", "offer:fakewall:tx-1:reversed")
				e, owed, created, err := f.reverseTx(r)
				require.NoError(t, err)
				require.True(t, created)
				assert.Equal(t, c.owed, owed)
				assert.Equal(t, -c.taken, e.AmountMinor)
				assert.Equal(t, c.owed, e.DebtMinor)
				assert.Equal(t, c.balance, e.BalanceAfter)
				require.NotNil(t, e.ReversesID)
				assert.Equal(t, credit.ID, *e.ReversesID, "a reversal references its credit")
				assert.Equal(t, OriginOffer, e.Origin)
				assert.Equal(t, r.Title, e.Title)
				assert.Equal(t, "offer_reversal", e.Kind())
				assert.Equal(t, c.balance, f.balance(f.acme, pid))
				assert.Equal(t, c.owed, f.owed(pid))
				b, err := f.m.Balance(f.ctx, f.acme, pid)
				require.NoError(t, err)
				assert.Equal(t, Balance{Minor: c.balance, Currency: "USD", Owed: c.owed}, b)

				// The provider's retry of the reversal answers as the first time.
				again, owedAgain, created, err := f.reverseTx(r)
				require.NoError(t, err)
				assert.False(t, created)
				assert.Equal(t, e.ID, again.ID)
				assert.Equal(t, c.owed, owedAgain)

				es := f.sound(pid)
				assert.Equal(t, e.ID, es[len(es)-1].ID, "the retry wrote nothing")
				stored, err := f.m.Entry(f.ctx, pid, e.ID)
				require.NoError(t, err)
				assert.Equal(t, e.DebtMinor, stored.DebtMinor)
				assert.Equal(t, e.ReversesID, stored.ReversesID)

				// The reversal is in the history, under neither filter; its month counts it.
				for filter, want := range map[Filter]int{FilterMostRecent: len(es), FilterCompetitions: 0, FilterRedemptions: btoi(c.spent > 0)} {
					listed, _, err := f.m.Transactions(f.ctx, pid, Query{Filter: filter})
					require.NoError(t, err)
					assert.Len(t, listed, want, filter)
				}
			})
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestADebtBlocksRedemptionsAndLaterCreditsOfAnyOriginRepayItOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		owed := f.owing(t, pid, 1000, 800, "tx-1") // a redemption spends most of it
		require.Equal(t, int64(800), owed, "200 was taken back, 800 is owed")
		require.Zero(t, f.balance(f.acme, pid))
		f.sound(pid)

		_, _, err := f.m.Debit(f.ctx, redemption(f.acme, pid, 1, f.key("redeem")))
		require.ErrorIs(t, err, ErrInsufficientFunds, "nothing can be redeemed while the debt is open")

		steps := []struct {
			name    string
			credit  func() (*Entry, bool, error)
			repaid  int64
			balance int64
			owed    int64
		}{
			{name: "a survey pays less than the debt", credit: func() (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 300, "campaign:first"))
			}, repaid: 300, owed: 500},
			{name: "the survey's retry", credit: func() (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 300, "campaign:first"))
			}, owed: 500},
			{name: "an operator's credit without a key", credit: func() (*Entry, bool, error) {
				return f.m.Adjust(f.ctx, f.acme, pid, "1.00", "goodwill", "ops", "")
			}, repaid: 100, owed: 400},
			{name: "another offer pays more than the debt", credit: func() (*Entry, bool, error) {
				return f.creditTx(offerCredit(f.acme, pid, 650, "tx-2"))
			}, repaid: 400, balance: 250},
			{name: "that offer's retry", credit: func() (*Entry, bool, error) {
				return f.creditTx(offerCredit(f.acme, pid, 650, "tx-2"))
			}, balance: 250},
			{name: "a survey once the debt is repaid", credit: func() (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 50, "campaign:second"))
			}, balance: 300},
		}
		for _, s := range steps {
			f.clock = f.clock.Add(time.Hour)
			count := f.count(pid)
			e, created, err := s.credit()
			require.NoError(t, err, s.name)
			es := f.sound(pid)
			assert.Equal(t, s.balance, f.balance(f.acme, pid), s.name)
			assert.Equal(t, s.owed, f.owed(pid), s.name)
			switch {
			case !created:
				assert.Equal(t, count, f.count(pid), "%s: a retry writes neither the credit nor its recovery again", s.name)
			case s.repaid > 0:
				require.Equal(t, count+2, f.count(pid), "%s: the credit and its recovery", s.name)
				rec := es[len(es)-1]
				assert.Equal(t, e.Seq+1, rec.Seq, "%s: the recovery follows its credit", s.name)
				assert.Equal(t, -s.repaid, rec.AmountMinor, s.name)
				assert.Equal(t, -s.repaid, rec.DebtMinor, s.name)
				assert.Equal(t, OriginOffer, rec.Origin, s.name)
				assert.Equal(t, "offer_recovery", rec.Kind(), s.name)
				assert.True(t, rec.CreatedAt.Equal(e.CreatedAt), "%s: in the credit's own moment", s.name)
				if e.NaturalKey != nil {
					require.NotNil(t, rec.NaturalKey, s.name)
					assert.Equal(t, *e.NaturalKey+RecoverySuffix, *rec.NaturalKey, s.name)
				} else {
					assert.Nil(t, rec.NaturalKey, "%s: a credit without a key has a recovery without one", s.name)
				}
				assert.Equal(t, e.AmountMinor, e.BalanceAfter, "%s: the credit lands on the zero balance the debt left", s.name)
			default:
				assert.Equal(t, count+1, f.count(pid), "%s: no debt, no recovery", s.name)
			}
		}
		f.debit(f.acme, pid, 300) // redeemable again
		f.sound(pid)

		// A recovery's key is the ledger's own: no movement can take it.
		_, _, err = f.m.Credit(f.ctx, Movement{Panel: f.acme, ParticipantID: pid, Amount: 300, Currency: "USD", Origin: OriginCampaign, Key: "campaign:first" + RecoverySuffix})
		require.ErrorIs(t, err, ErrKeyReused)
	})
}

// owing leaves the member owing: an offer credit (transaction tx), spent down by spent, then
// reversed; the balance covers what is left of it and the rest is owed (returned).
func (f *fixture) owing(t *testing.T, pid string, credited, spent int64, tx string) int64 {
	t.Helper()
	_, _, err := f.creditTx(offerCredit(f.acme, pid, credited, tx))
	require.NoError(t, err)
	f.debit(f.acme, pid, spent)
	_, owed, _, err := f.reverseTx(reversalOf(f.acme, pid, tx, "reversal:"+tx))
	require.NoError(t, err)
	return owed
}

func TestThePaymentNotificationTellsWhatReachedTheBalanceWhileADebtTakesItsPart(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		require.Equal(t, int64(800), f.owing(t, pid, 1000, 800, "tx-1"))
		require.NoError(t, f.m.MarkSeen(f.ctx, pid, 0))

		_, _, err := f.m.Credit(f.ctx, earning(f.acme, pid, 300, "campaign:first"))
		require.NoError(t, err)
		_, pay, err := f.m.header(f.ctx, f.acme, pid)
		require.NoError(t, err)
		assert.Nil(t, pay, "a credit the debt took whole adds nothing to the balance: no payment to announce")

		_, _, err = f.m.Credit(f.ctx, earning(f.acme, pid, 700, "campaign:second"))
		require.NoError(t, err)
		b, pay, err := f.m.header(f.ctx, f.acme, pid)
		require.NoError(t, err)
		require.NotNil(t, pay)
		assert.Equal(t, int64(200), pay.Amount, "1000 credited since the member looked, 800 of it repaid the debt")
		assert.Equal(t, b.Minor, pay.Amount, "the notification agrees with the balance beside it")
	})
}

func TestReversingACreditTwiceOrACreditThatIsNotThereFailsAndChangesNothing(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		other := f.member(f.acme)
		stranger := f.member(f.acme) // no wallet at all
		foreign := f.member(f.globex)
		survey := f.credit(f.acme, pid, 400)
		_, _, err := f.creditTx(offerCredit(f.acme, pid, 300, "tx-1"))
		require.NoError(t, err)
		_, _, err = f.creditTx(offerCredit(f.acme, other, 300, "tx-other"))
		require.NoError(t, err)
		_, _, _, err = f.reverseTx(reversalOf(f.acme, pid, "tx-1", "reversal:first"))
		require.NoError(t, err)
		_, _, err = f.m.Credit(f.ctx, Movement{Panel: f.globex, ParticipantID: foreign, Amount: 300, Currency: "GBP", Origin: OriginOffer, Key: OfferKey("fakewall", "tx-1")})
		require.NoError(t, err)

		cases := []struct {
			name string
			r    Reversal
			want error // nil: refused as a caller's mistake
		}{
			{name: "the reversed credit again under another key", r: reversalOf(f.acme, pid, "tx-1", "reversal:second"), want: ErrNothingToReverse},
			{name: "an unknown transaction", r: reversalOf(f.acme, pid, "tx-unknown", "reversal:unknown"), want: ErrNothingToReverse},
			{name: "another member's transaction", r: reversalOf(f.acme, pid, "tx-other", "reversal:other"), want: ErrNothingToReverse},
			{name: "a survey's credit", r: Reversal{Panel: f.acme, ParticipantID: pid, OriginalKey: *survey.NaturalKey, Key: "reversal:survey"}, want: ErrNothingToReverse},
			{name: "a reversal's own entry", r: Reversal{Panel: f.acme, ParticipantID: pid, OriginalKey: "reversal:first", Key: "reversal:reversal"}, want: ErrNothingToReverse},
			{name: "a member without a wallet", r: reversalOf(f.acme, stranger, "tx-1", "reversal:stranger"), want: ErrNothingToReverse},
			{name: "another panel's member", r: reversalOf(f.acme, foreign, "tx-1", "reversal:foreign"), want: web.ErrNotFound},
			{name: "the first reversal's key for another credit", r: reversalOf(f.acme, pid, "tx-unknown", "reversal:first"), want: ErrKeyReused},
			{name: "a credit's key as the reversal's", r: reversalOf(f.acme, pid, "tx-1", *survey.NaturalKey), want: ErrKeyReused},
			{name: "no key of its own", r: reversalOf(f.acme, pid, "tx-1", "")},
			{name: "its own key as the credit's", r: reversalOf(f.acme, pid, "tx-1", OfferKey("fakewall", "tx-1"))},
		}
		members := []struct {
			panel *web.Panel
			pid   string
		}{{f.acme, pid}, {f.acme, other}, {f.acme, stranger}, {f.globex, foreign}}
		for _, c := range cases {
			var before []state
			for _, m := range members {
				before = append(before, f.state(m.panel, m.pid))
			}
			e, owed, created, err := f.reverseTx(c.r)
			require.Error(t, err, c.name)
			if c.want != nil {
				require.ErrorIs(t, err, c.want, c.name)
			}
			assert.Nil(t, e, c.name)
			assert.Zero(t, owed, c.name)
			assert.False(t, created, c.name)
			for i, m := range members {
				assert.Equal(t, before[i], f.state(m.panel, m.pid), "%s changed %s", c.name, m.pid)
			}
		}
		for _, m := range members[:2] {
			f.sound(m.pid)
		}
		assert.False(t, f.hasWallet(stranger), "a refused reversal opens no wallet")
	})
}

func TestConcurrentReversalsOfOneCreditTakeItBackOnce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		sameKey  bool // the provider's retries; else reversals under different keys
		earned   int64
		wantOwed int64
	}{
		{name: "retries of one reversal", sameKey: true, earned: 0, wantOwed: 600},
		{name: "reversals under different keys", earned: 250, wantOwed: 350},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				_, _, err := f.creditTx(offerCredit(f.acme, pid, 600, "tx-1"))
				require.NoError(t, err)
				f.debit(f.acme, pid, 600)
				if c.earned > 0 {
					f.credit(f.acme, pid, c.earned)
				}
				created := 0
				done := race(50, func(i int) (*Entry, bool, error) {
					key := "reversal:same"
					if !c.sameKey {
						key = fmt.Sprintf("reversal:%d", i)
					}
					e, _, created, err := f.reverseTx(reversalOf(f.acme, pid, "tx-1", key))
					return e, created, err
				})
				for i, r := range done {
					if r.created {
						created++
					}
					if c.sameKey {
						require.NoError(t, r.err, "caller %d", i)
					} else if r.err != nil {
						require.ErrorIs(t, r.err, ErrNothingToReverse, "caller %d", i)
					}
				}
				assert.Equal(t, 1, created, "exactly one reversal is written")
				assert.Equal(t, c.wantOwed, f.owed(pid))
				assert.Zero(t, f.balance(f.acme, pid))
				f.sound(pid)
			})
		}
	})
}

func TestConcurrentCreditsRepayADebtExactlyOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		require.Equal(t, int64(2000), f.owing(t, pid, 2000, 2000, "big"))

		// 50 surveys of 70 each (3500) against a debt of 2000, each retried once at the same time.
		results := race(100, func(i int) (*Entry, bool, error) {
			return f.m.Credit(f.ctx, earning(f.acme, pid, 70, fmt.Sprintf("campaign:%d", i/2)))
		})
		created := 0
		for i, r := range results {
			require.NoError(t, r.err, "caller %d", i)
			if r.created {
				created++
			}
		}
		assert.Equal(t, 50, created)
		assert.Equal(t, int64(1500), f.balance(f.acme, pid))
		assert.Zero(t, f.owed(pid))
		var recoveries int64
		require.NoError(t, f.db.Model(&Entry{}).Where("participant_id = ? AND debt_minor < 0", pid).Count(&recoveries).Error)
		assert.Equal(t, int64(29), recoveries, "28 surveys repay 70 each and the 29th the last 40")
		f.sound(pid)
	})
}

func TestReconcileFindsAnOfferDebtThatDisagreesWithItsEntries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		corrupt string // SQL on the member's rows, ? the participant
	}{
		{name: "a debt forgiven in the wallet alone", corrupt: `UPDATE wallets SET owed_minor = 0 WHERE participant_id = ?`},
		{name: "a debt raised in the wallet alone", corrupt: `UPDATE wallets SET owed_minor = owed_minor + 1 WHERE participant_id = ?`},
		{name: "a reversal's debt changed", corrupt: `UPDATE ledger_entries SET debt_minor = debt_minor - 1 WHERE participant_id = ? AND reverses_id IS NOT NULL`},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				_, _, err := f.creditTx(offerCredit(f.acme, pid, 500, "tx-1"))
				require.NoError(t, err)
				f.debit(f.acme, pid, 400)
				_, _, _, err = f.reverseTx(reversalOf(f.acme, pid, "tx-1", "reversal:tx-1"))
				require.NoError(t, err)
				f.credit(f.acme, pid, 150) // repays 150 of the 400 owed
				f.sound(pid)

				require.NoError(t, f.db.Exec(c.corrupt, pid).Error)
				found, err := f.m.Reconcile(f.ctx, pid)
				require.NoError(t, err)
				require.Len(t, found, 1)
				assert.Equal(t, pid, found[0].ParticipantID)
				assert.NotEqual(t, found[0].CachedOwed, found[0].Debt)
				assert.Equal(t, found[0].Cached, found[0].Sum, "the balance itself still agrees")

				// A wallet goes with its member, reversals and all.
				require.NoError(t, f.db.Exec(`DELETE FROM wallets WHERE participant_id = ?`, pid).Error)
				assert.Zero(t, f.count(pid))
			})
		}
	})
}
