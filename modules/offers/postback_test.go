package offers_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type answer struct {
	Status          string `json:"status"`
	TransactionID   string `json:"transactionId"`
	Amount          string `json:"amount"`
	Recovered       string `json:"recovered"`
	Owed            string `json:"owed"`
	TransactionUUID string `json:"transactionUuid"`
}

func decode(t *testing.T, body []byte) answer {
	t.Helper()
	var a answer
	require.NoError(t, json.Unmarshal(body, &a), string(body))
	return a
}

func credited(sub, tx, amount string) offerstest.PostbackParams {
	return offerstest.PostbackParams{SubID: sub, TransactionID: tx, OfferID: "survey-king", OfferName: "Survey King", Amount: amount, Currency: "USD", Status: "credited"}
}

func TestFiftyCopiesOfOnePostbackAtOnceCreditTheMemberOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid, sub := f.member(f.acme)
		const copies = 50
		bodies := make([][]byte, copies)
		errs := make([]error, copies)
		var wg sync.WaitGroup
		for i := range copies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				bodies[i], errs[i] = f.postback(f.acme, f.secret["acme"], credited(sub, "tx-1", "1.50"))
			}()
		}
		wg.Wait()
		for i := range copies {
			require.NoError(t, errs[i], "copy %d", i)
			assert.JSONEq(t, string(bodies[0]), string(bodies[i]), "a replay answers as the first did")
		}
		first := decode(t, bodies[0])
		assert.Equal(t, "credited", first.Status)
		assert.Equal(t, "1.50", first.Amount)
		assert.Equal(t, int64(150), f.balance(f.acme, pid))
		var entries []wallet.Entry
		require.NoError(t, f.db.Where("participant_id = ?", pid).Find(&entries).Error)
		require.Len(t, entries, 1, "one credit")
		assert.Equal(t, wallet.OriginOffer, entries[0].Origin)
		assert.Equal(t, "Survey King", entries[0].Title)
		assert.Equal(t, first.TransactionUUID, entries[0].ID)

		recs := f.records(f.acme)
		require.Len(t, recs, copies, "every postback is recorded")
		fresh := 0
		for _, r := range recs {
			assert.True(t, r.Accepted)
			assert.Equal(t, 200, r.HTTPStatus)
			if !r.Replay {
				fresh++
			}
		}
		assert.Equal(t, 1, fresh, "one postback moved money; the others were replays")
	})
}

func TestARefusedPostbackChangesNothingAndIsRecordedWithItsReason(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid, sub := f.member(f.acme)
		_, globexSub := f.member(f.globex)
		good := credited(sub, "tx-ok", "2.00")
		signed, err := offerstest.PostbackURL(postbackPath(f.acme), f.secret["acme"], good)
		require.NoError(t, err)
		unsigned := signed[:strings.Index(signed, "&signature=")]
		with := func(edit func(p *offerstest.PostbackParams)) offerstest.PostbackParams {
			p := good
			edit(&p)
			return p
		}
		tests := []struct {
			name   string
			send   func() ([]byte, error)
			status int
			code   string
		}{
			{"a postback signed with another secret", func() ([]byte, error) { return f.postback(f.acme, "not-the-secret-0123456789", good) }, 403, "signature_invalid"},
			{"a postback signed with another panel's secret", func() ([]byte, error) { return f.postback(f.acme, f.secret["globex"], good) }, 403, "signature_invalid"},
			{"a postback without a signature", func() ([]byte, error) { return f.deliver(f.acme, unsigned) }, 401, "signature_missing"},
			{"a postback whose amount was changed after signing", func() ([]byte, error) {
				return f.deliver(f.acme, strings.Replace(signed, "amount=2.00", "amount=200.00", 1))
			}, 403, "signature_invalid"},
			{"a malformed amount", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Amount = "1.5.0" }))
			}, 400, "invalid_amount"},
			{"an amount with more decimals than the currency", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Amount = "1.505" }))
			}, 400, "invalid_amount"},
			{"a negative amount", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Amount = "-1.00" }))
			}, 400, "invalid_amount"},
			{"a zero amount", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Amount = "0.00" }))
			}, 400, "invalid_amount"},
			{"another currency", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Currency = "EUR" }))
			}, 400, "wrong_currency"},
			{"an unknown status", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Status = "approved" }))
			}, 400, "invalid_status"},
			{"no transaction id", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.TransactionID = "" }))
			}, 400, "missing_transaction_id"},
			{"an unknown member", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.SubID = "0123456789abcdef" }))
			}, 404, "unknown_member"},
			{"another panel's member, signed with this panel's secret", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.SubID = globexSub }))
			}, 404, "unknown_member"},
			{"a reversal of a transaction never credited", func() ([]byte, error) {
				return f.postback(f.acme, f.secret["acme"], with(func(p *offerstest.PostbackParams) { p.Status = "reversed" }))
			}, 409, "nothing_to_reverse"},
		}
		before := f.counts()
		for i, tt := range tests {
			body, err := tt.send()
			var refusal *offers.Refusal
			require.True(t, errors.As(err, &refusal), "%s: want a refusal, got %v (%s)", tt.name, err, body)
			assert.Equal(t, tt.status, refusal.Status, tt.name)
			assert.Equal(t, tt.code, refusal.Code, tt.name)
			assert.Equal(t, before, f.counts(), "%s changes nothing", tt.name)
			recs := f.records(f.acme)
			require.Len(t, recs, i+1, tt.name)
			last := recs[len(recs)-1]
			assert.False(t, last.Accepted, tt.name)
			assert.Equal(t, tt.code, last.Reason, tt.name)
			assert.Equal(t, tt.status, last.HTTPStatus, tt.name)
		}
		assert.Zero(t, f.balance(f.acme, pid))
	})
}

func TestAReversalAfterTheMoneyWasRedeemedLeavesADebtThatLaterEarningsRepay(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid, sub := f.member(f.acme)
		_, err := f.postback(f.acme, f.secret["acme"], credited(sub, "tx-big", "5.00"))
		require.NoError(t, err)
		_, _, err = f.wallet.Debit(f.ctx, wallet.Movement{Panel: f.acme, ParticipantID: pid, Amount: 400, Currency: "USD",
			Origin: wallet.OriginRedeem, Key: "redeem:test-1", Title: "PayPal"})
		require.NoError(t, err)
		require.Equal(t, int64(100), f.balance(f.acme, pid))

		reversal := offerstest.PostbackParams{SubID: sub, TransactionID: "tx-big", OfferID: "survey-king", Amount: "5.00", Currency: "USD", Status: "reversed"}
		body, err := f.postback(f.acme, f.secret["acme"], reversal)
		require.NoError(t, err)
		a := decode(t, body)
		assert.Equal(t, "reversed", a.Status)
		assert.Equal(t, "5.00", a.Amount, "the credit reversed")
		assert.Equal(t, "1.00", a.Recovered, "what the balance covered")
		assert.Equal(t, "4.00", a.Owed, "the rest is owed")
		assert.Zero(t, f.balance(f.acme, pid), "the balance never goes below zero")
		assert.Equal(t, int64(400), f.owed(pid))

		again, err := f.postback(f.acme, f.secret["acme"], reversal)
		require.NoError(t, err)
		assert.JSONEq(t, string(body), string(again), "a replayed reversal answers the same and moves nothing")
		assert.Equal(t, int64(400), f.owed(pid))

		var reversed wallet.Entry
		require.NoError(t, f.db.Where("id = ?", a.TransactionUUID).Take(&reversed).Error)
		assert.Equal(t, wallet.OriginOffer, reversed.Origin)

		// Later earnings repay the debt first: 3.00 all goes to it, then 2.00 repays the last 1.00.
		_, err = f.postback(f.acme, f.secret["acme"], credited(sub, "tx-next", "3.00"))
		require.NoError(t, err)
		assert.Zero(t, f.balance(f.acme, pid))
		assert.Equal(t, int64(100), f.owed(pid))
		_, err = f.postback(f.acme, f.secret["acme"], credited(sub, "tx-last", "2.00"))
		require.NoError(t, err)
		assert.Equal(t, int64(100), f.balance(f.acme, pid))
		assert.Zero(t, f.owed(pid))

		// The same reversal sent again with fewer optional fields is still a replay.
		again, err = f.postback(f.acme, f.secret["acme"], offerstest.PostbackParams{SubID: sub, TransactionID: "tx-big", Amount: "5.00", Status: "reversed"})
		require.NoError(t, err)
		assert.JSONEq(t, string(body), string(again))
		assert.Equal(t, int64(100), f.balance(f.acme, pid))
	})
}

func TestACreditForAnOfferTheMemberStartedMarksTheirPendingRowCredited(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid, sub := f.member(f.acme)
		f.fake["acme"].SetOffers("", offers.Offer{ID: "survey-king", Name: "Survey King", Reward: "1.50", Currency: "USD", Minutes: 10})
		row, started, err := f.svc.Start(f.ctx, f.who(f.acme, pid, "US"), "survey-king")
		require.NoError(t, err)
		assert.Equal(t, offers.StatusPending, row.Status)
		assert.NotEmpty(t, started.RedirectURL)

		body, err := f.postback(f.acme, f.secret["acme"], credited(sub, "tx-9", "1.75"))
		require.NoError(t, err)
		got := f.row(row.ID)
		assert.Equal(t, offers.StatusCredited, got.Status, "the started row, not a new one")
		assert.Equal(t, int64(175), got.RewardMinor, "what the provider paid")
		require.NotNil(t, got.EntryID)
		assert.Equal(t, decode(t, body).TransactionUUID, *got.EntryID)

		rows, more, err := f.svc.Rows(f.ctx, pid, 1, 10)
		require.NoError(t, err)
		assert.False(t, more)
		require.Len(t, rows, 1)
	})
}

func TestOneSourceSendingTooManyPostbacksIsSlowedDown(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, sub := f.member(f.acme)
		var last error
		for range 601 {
			_, last = f.postback(f.acme, "wrong-secret-0123456789", credited(sub, "tx-flood", "1.00"))
		}
		var refusal *offers.Refusal
		require.True(t, errors.As(last, &refusal))
		assert.Equal(t, 429, refusal.Status)
		assert.Equal(t, "rate_limited", refusal.Code)
	})
}
