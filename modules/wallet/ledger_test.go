package wallet

import (
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestCreditsAndDebitsMoveTheBalanceAndAreNumberedInOrder(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		assert.Equal(t, Balance{Minor: 0, Currency: "USD"}, mustBalance(t, f, f.acme, pid), "a member without entries has zero in the panel's currency")

		mv := earning(f.acme, pid, 250, "campaign:c1")
		mv.Competition = true
		first, created, err := f.m.Credit(f.ctx, mv)
		require.NoError(t, err)
		require.True(t, created)
		f.clock = f.clock.Add(time.Hour)
		second := f.debit(f.acme, pid, 100)

		assert.Equal(t, Balance{Minor: 150, Currency: "USD"}, mustBalance(t, f, f.acme, pid))
		assert.Equal(t, int64(1), first.Seq)
		assert.Equal(t, int64(250), first.AmountMinor)
		assert.Equal(t, int64(250), first.BalanceAfter)
		assert.Equal(t, int64(2), second.Seq)
		assert.Equal(t, int64(-100), second.AmountMinor, "a debit is stored as a negative amount")
		assert.Equal(t, int64(150), second.BalanceAfter)

		// What the ledger stored is what it returned.
		stored, err := f.m.Entry(f.ctx, pid, first.ID)
		require.NoError(t, err)
		assert.Equal(t, OriginCampaign, stored.Origin)
		assert.True(t, stored.Competition)
		assert.Equal(t, "USD", stored.CurrencyCode)
		assert.Equal(t, f.acme.ID, stored.PanelID)
		require.NotNil(t, stored.CampaignID)
		assert.Equal(t, mv.CampaignID, *stored.CampaignID)
		require.NotNil(t, stored.NaturalKey)
		assert.Equal(t, "campaign:c1", *stored.NaturalKey)
		assert.Nil(t, stored.RedemptionID)
		assert.True(t, stored.CreatedAt.Equal(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), "created at %s", stored.CreatedAt)

		f.gapless(pid)
		f.reconciled(pid)
	})
}

func TestACreditWithTheSameKeyIsWrittenOnceAndReturnsTheFirstEntry(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		mv := earning(f.acme, pid, 300, "campaign:same")
		first, created, err := f.m.Credit(f.ctx, mv)
		require.NoError(t, err)
		require.True(t, created)

		f.clock = f.clock.Add(24 * time.Hour)
		again, created, err := f.m.Credit(f.ctx, mv)
		require.NoError(t, err)
		assert.False(t, created, "the second credit with the key must not create an entry")
		require.NotNil(t, again)
		assert.Equal(t, first.ID, again.ID)
		assert.Equal(t, first.Seq, again.Seq)
		assert.Equal(t, int64(300), f.balance(f.acme, pid))
		assert.Equal(t, int64(1), f.count(pid))
		f.reconciled(pid)

		// The same key on another member is another movement.
		other := f.member(f.acme)
		mv.ParticipantID = other
		_, created, err = f.m.Credit(f.ctx, mv)
		require.NoError(t, err)
		assert.True(t, created, "keys are per member")
	})
}

func TestARecordIsInTheHistoryAndTheCompetitionsFilterWithoutMovingTheBalance(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.credit(f.acme, pid, 500)
		mv := entered(f.acme, pid, "competition-entry:draw")
		first, created, err := f.m.Record(f.ctx, mv)
		require.NoError(t, err)
		require.True(t, created)
		assert.Equal(t, int64(0), first.AmountMinor)
		assert.Equal(t, int64(500), first.BalanceAfter)
		assert.True(t, first.Competition)

		again, created, err := f.m.Record(f.ctx, mv)
		require.NoError(t, err)
		assert.False(t, created, "the same key records once")
		assert.Equal(t, first.ID, again.ID)
		assert.Equal(t, int64(500), f.balance(f.acme, pid))
		assert.Equal(t, int64(2), f.count(pid))
		f.reconciled(pid)

		// The database holds the rule too: only a competition's entry may be of zero.
		zero := func(competition bool) (inserted error) {
			_ = f.db.Transaction(func(tx *gorm.DB) error {
				inserted = tx.Exec(`INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, competition, created_at)
					VALUES (?, ?, 99, ?, 0, 'USD', 500, 'campaign', ?, ?)`, uuid.NewString(), pid, f.acme.ID, competition, f.clock).Error
				return errors.New("leave nothing behind")
			})
			return inserted
		}
		require.Error(t, zero(false), "a zero entry that is not a competition's breaks the CHECK")
		require.NoError(t, zero(true), "a competition's zero entry passes the CHECK")

		listed, _, err := f.m.Transactions(f.ctx, pid, Query{Filter: FilterCompetitions})
		require.NoError(t, err)
		assert.Equal(t, []string{first.ID}, ids(listed), "competitions=yes lists the entry and nothing else")
		months, err := f.m.Months(f.ctx, pid, FilterCompetitions, time.Time{}, time.Time{})
		require.NoError(t, err)
		require.Len(t, months, 1)
	})
}

func TestARetriedDebitReturnsTheFirstEntryEvenWhenTheBalanceNoLongerCoversIt(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.credit(f.acme, pid, 500)
		mv := redemption(f.acme, pid, 400, "redeem:idem-1")
		first, created, err := f.m.Debit(f.ctx, mv)
		require.NoError(t, err)
		require.True(t, created)

		again, created, err := f.m.Debit(f.ctx, mv)
		require.NoError(t, err, "a retried redemption is not a second debit")
		assert.False(t, created)
		assert.Equal(t, first.ID, again.ID)
		assert.Equal(t, int64(100), f.balance(f.acme, pid))
		assert.Equal(t, int64(2), f.count(pid))
		f.reconciled(pid)
	})
}

func TestAdjustWritesAManualEntryOfEitherSignWithItsReason(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		e, created, err := f.m.Adjust(f.ctx, f.acme, pid, "5.00", "  goodwill  ", "ops@example.com", "ticket-1")
		require.NoError(t, err)
		require.True(t, created)
		assert.Equal(t, int64(500), e.AmountMinor)
		assert.Equal(t, OriginManual, e.Origin)
		assert.Equal(t, "goodwill", e.Reason, "the reason is trimmed")
		assert.Equal(t, "ops@example.com", e.Operator)

		e, created, err = f.m.Adjust(f.ctx, f.acme, pid, "-2.5", "duplicate payment", "ops@example.com", "")
		require.NoError(t, err)
		require.True(t, created)
		assert.Equal(t, int64(-250), e.AmountMinor)
		assert.Equal(t, int64(250), f.balance(f.acme, pid))

		// A retried command with the same key is a no-op.
		again, created, err := f.m.Adjust(f.ctx, f.acme, pid, "5.00", "goodwill", "ops@example.com", "ticket-1")
		require.NoError(t, err)
		assert.False(t, created)
		assert.Equal(t, int64(1), again.Seq)
		assert.Equal(t, int64(250), f.balance(f.acme, pid))

		// A currency without decimals takes whole amounts.
		jp := f.member(f.nippon)
		e, _, err = f.m.Adjust(f.ctx, f.nippon, jp, "150", "welcome", "ops", "")
		require.NoError(t, err)
		assert.Equal(t, int64(150), e.AmountMinor)
		assert.Equal(t, Balance{Minor: 150, Currency: "JPY"}, mustBalance(t, f, f.nippon, jp))

		f.gapless(pid)
		f.reconciled("")
	})
}

func TestTheCurrencyIsComparedWithoutRegardToCase(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		mv := earning(f.acme, pid, 100, "campaign:lower")
		mv.Currency = "usd"
		e, _, err := f.m.Credit(f.ctx, mv)
		require.NoError(t, err)
		assert.Equal(t, "USD", e.CurrencyCode)
	})
}

// TestRefusalsAreClearAndWriteNothing: every refused movement names its reason and leaves the
// balance, the entries and the months as they were, for a member with entries and for one
// without a wallet yet.
func TestRefusalsAreClearAndWriteNothing(t *testing.T) {
	t.Parallel()
	type refusal struct {
		name string
		do   func(f *fixture, pid string) error
		want error  // the error it wraps; nil: just an error
		text string // what the message says
	}
	move := func(credit bool, edit func(*Movement)) func(f *fixture, pid string) error {
		return func(f *fixture, pid string) error {
			mv := earning(f.acme, pid, 100, f.key("campaign"))
			if !credit {
				mv = redemption(f.acme, pid, 100, f.key("redeem"))
			}
			edit(&mv)
			var e *Entry
			var created bool
			var err error
			if credit {
				e, created, err = f.m.Credit(f.ctx, mv)
			} else {
				e, created, err = f.m.Debit(f.ctx, mv)
			}
			if err == nil {
				return errors.New("accepted")
			}
			if e != nil || created {
				return errors.New("refused but returned an entry")
			}
			return err
		}
	}
	adjust := func(panel func(*fixture) *web.Panel, amount, reason string) func(f *fixture, pid string) error {
		return func(f *fixture, pid string) error {
			e, created, err := f.m.Adjust(f.ctx, panel(f), pid, amount, reason, "ops", "")
			if err == nil {
				return errors.New("accepted")
			}
			if e != nil || created {
				return errors.New("refused but returned an entry")
			}
			return err
		}
	}
	record := func(edit func(*Movement)) func(f *fixture, pid string) error {
		return func(f *fixture, pid string) error {
			mv := entered(f.acme, pid, f.key("competition-entry"))
			edit(&mv)
			e, created, err := f.m.Record(f.ctx, mv)
			if err == nil {
				return errors.New("accepted")
			}
			if e != nil || created {
				return errors.New("refused but returned an entry")
			}
			return err
		}
	}
	acme := func(f *fixture) *web.Panel { return f.acme }
	nippon := func(f *fixture) *web.Panel { return f.nippon }

	cases := []refusal{
		{name: "more decimals than USD has", do: adjust(acme, "1.234", "fix"), want: web.ErrMoneyDecimals},
		{name: "a negative amount with more decimals than USD has", do: adjust(acme, "-0.001", "fix"), want: web.ErrMoneyDecimals},
		{name: "decimals on a JPY panel", do: adjust(nippon, "1.5", "fix"), want: web.ErrMoneyDecimals},
		{name: "an adjustment that is not a number", do: adjust(acme, "1,00", "fix"), want: web.ErrMoneyFormat},
		{name: "an adjustment of zero", do: adjust(acme, "0.00", "fix"), want: ErrAmount},
		{name: "an adjustment without a reason", do: adjust(acme, "1.00", ""), text: "reason"},
		{name: "an adjustment with a blank reason", do: adjust(acme, "-1.00", "   "), text: "reason"},
		{name: "a credit of zero", do: move(true, func(mv *Movement) { mv.Amount = 0 }), want: ErrAmount},
		{name: "a negative credit", do: move(true, func(mv *Movement) { mv.Amount = -100 }), want: ErrAmount},
		{name: "a debit of zero", do: move(false, func(mv *Movement) { mv.Amount = 0 }), want: ErrAmount},
		{name: "a negative debit", do: move(false, func(mv *Movement) { mv.Amount = -100 }), want: ErrAmount},
		{name: "a credit in another panel's currency", do: move(true, func(mv *Movement) { mv.Currency = "GBP" }), want: ErrCurrency},
		{name: "a debit in another panel's currency", do: move(false, func(mv *Movement) { mv.Currency = "GBP" }), want: ErrCurrency},
		{name: "a credit without a currency", do: move(true, func(mv *Movement) { mv.Currency = "" }), want: ErrCurrency},
		{name: "an unknown origin", do: move(true, func(mv *Movement) { mv.Origin = "bonus" }), want: ErrOrigin},
		{name: "no origin", do: move(false, func(mv *Movement) { mv.Origin = "" }), want: ErrOrigin},
		{name: "a debit larger than the balance", do: move(false, func(mv *Movement) { mv.Amount = 1_000_001 }), want: ErrInsufficientFunds},
		{name: "a record that moves money", do: record(func(mv *Movement) { mv.Amount = 100 }), want: ErrAmount},
		{name: "a record that takes money", do: record(func(mv *Movement) { mv.Amount = -100 }), want: ErrAmount},
		{name: "a record that is not of a competition", do: record(func(mv *Movement) { mv.Competition = false }), want: ErrAmount},
		{name: "an adjustment larger than the balance", do: adjust(acme, "-10000.01", "claw back"), want: ErrInsufficientFunds},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				for _, funded := range []bool{true, false} {
					f.t = t
					pid := f.member(f.acme)
					if funded {
						f.credit(f.acme, pid, 1_000_000)
					}
					before := f.state(f.acme, pid)
					err := c.do(f, pid)
					require.Error(t, err)
					require.NotEqual(t, "accepted", err.Error(), "the movement was accepted")
					if c.want != nil {
						assert.ErrorIs(t, err, c.want, "funded=%v", funded)
					}
					if c.text != "" {
						assert.ErrorContains(t, err, c.text)
					}
					assert.Equal(t, before, f.state(f.acme, pid), "a refusal changed the wallet (funded=%v)", funded)
					f.reconciled(pid)
				}
			})
		}
	})
}

func TestAKeyReusedForADifferentMovementIsRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		first func(f *fixture, pid string) (*Entry, bool, error)
		again func(f *fixture, pid string) (*Entry, bool, error)
	}{
		{
			name: "another amount",
			first: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 100, "campaign:k"))
			},
			again: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 101, "campaign:k"))
			},
		},
		{
			name: "a debit of the credit's amount",
			first: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 100, "k"))
			},
			again: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Debit(f.ctx, redemption(f.acme, pid, 100, "k"))
			},
		},
		{
			name: "another origin",
			first: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Credit(f.ctx, earning(f.acme, pid, 100, "k"))
			},
			again: func(f *fixture, pid string) (*Entry, bool, error) {
				mv := earning(f.acme, pid, 100, "k")
				mv.Origin = OriginManual
				return f.m.Credit(f.ctx, mv)
			},
		},
		{
			name: "a manual adjustment of another amount",
			first: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Adjust(f.ctx, f.acme, pid, "1.00", "r", "ops", "t1")
			},
			again: func(f *fixture, pid string) (*Entry, bool, error) {
				return f.m.Adjust(f.ctx, f.acme, pid, "2.00", "r", "ops", "t1")
			},
		},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				f.credit(f.acme, pid, 1000)
				_, created, err := c.first(f, pid)
				require.NoError(t, err)
				require.True(t, created)
				before := f.state(f.acme, pid)
				e, created, err := c.again(f, pid)
				require.ErrorIs(t, err, ErrKeyReused)
				assert.Nil(t, e)
				assert.False(t, created)
				assert.Equal(t, before, f.state(f.acme, pid))
				f.reconciled(pid)
			})
		}
	})
}

func TestAMovementNamingAnotherPanelThanTheWalletsIsRefused(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.credit(f.acme, pid, 1000)
		before := f.state(f.acme, pid)

		for name, do := range map[string]func() (*Entry, bool, error){
			"credit": func() (*Entry, bool, error) { return f.m.Credit(f.ctx, earning(f.globex, pid, 100, "campaign:g")) },
			"debit":  func() (*Entry, bool, error) { return f.m.Debit(f.ctx, redemption(f.globex, pid, 100, "redeem:g")) },
			"adjust": func() (*Entry, bool, error) { return f.m.Adjust(f.ctx, f.globex, pid, "1.00", "r", "ops", "") },
		} {
			e, created, err := do()
			assert.ErrorIs(t, err, web.ErrNotFound, name)
			assert.Nil(t, e, name)
			assert.False(t, created, name)
		}
		assert.Equal(t, before, f.state(f.acme, pid))
		assert.Equal(t, Balance{Minor: 0, Currency: "GBP"}, mustBalance(t, f, f.globex, pid), "another panel doesn't see the wallet")
		f.reconciled(pid)
	})
}

// A member's first movement opens their wallet in the movement's panel, so a movement that
// names another panel than the member's must be refused then too: otherwise the wallet is
// opened in the wrong panel and currency, and every later movement of the member's own panel
// is refused.
func TestAFirstMovementForAMemberOfAnotherPanelIsRefused(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		e, created, err := f.m.Credit(f.ctx, earning(f.globex, pid, 100, "campaign:g"))
		assert.Error(t, err, "a GBP credit from globex was written for an acme member")
		assert.Nil(t, e)
		assert.False(t, created)
		assert.False(t, f.hasWallet(pid), "the acme member's wallet was opened in globex")

		// The member's own panel can still pay them.
		_, _, err = f.m.Credit(f.ctx, earning(f.acme, pid, 100, "campaign:a"))
		assert.NoError(t, err, "the member's own panel can no longer pay them")
	})
}

func TestDebitTxAndCreditTxInARolledBackTransactionLeaveNothingBehind(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		fresh := f.member(f.acme)
		funded := f.member(f.acme)
		f.credit(f.acme, funded, 1000)
		before := f.state(f.acme, funded)
		rollback := errors.New("the caller's later step failed")

		err := f.db.Transaction(func(tx *gorm.DB) error {
			e, created, err := f.m.CreditTx(tx, earning(f.acme, fresh, 700, "campaign:rb"))
			require.NoError(t, err)
			require.True(t, created)
			require.Equal(t, int64(700), e.BalanceAfter)
			_, _, err = f.m.DebitTx(tx, redemption(f.acme, fresh, 200, "redeem:rb"))
			require.NoError(t, err)
			_, _, err = f.m.DebitTx(tx, redemption(f.acme, funded, 400, "redeem:rb"))
			require.NoError(t, err)
			_, _, err = f.m.CreditTx(tx, earning(f.acme, funded, 50, "campaign:rb"))
			require.NoError(t, err)
			return rollback
		})
		require.ErrorIs(t, err, rollback)

		assert.False(t, f.hasWallet(fresh), "a rolled back first credit left the wallet behind")
		assert.Equal(t, int64(0), f.count(fresh))
		months, err := f.m.Months(f.ctx, fresh, FilterMostRecent, time.Time{}, time.Time{})
		require.NoError(t, err)
		assert.Empty(t, months)
		assert.Equal(t, before, f.state(f.acme, funded))
		f.reconciled("")

		// The same keys are free again: nothing of the rolled back movements remains.
		_, created, err := f.m.Debit(f.ctx, redemption(f.acme, funded, 400, "redeem:rb"))
		require.NoError(t, err)
		assert.True(t, created)

		// And a committed transaction keeps what it wrote.
		require.NoError(t, f.db.Transaction(func(tx *gorm.DB) error {
			_, _, err := f.m.CreditTx(tx, earning(f.acme, fresh, 700, "campaign:rb"))
			return err
		}))
		assert.Equal(t, int64(700), f.balance(f.acme, fresh))
		f.gapless(funded)
		f.reconciled("")
	})
}

func mustBalance(t *testing.T, f *fixture, panel *web.Panel, pid string) Balance {
	t.Helper()
	b, err := f.m.Balance(f.ctx, panel, pid)
	require.NoError(t, err)
	return b
}
