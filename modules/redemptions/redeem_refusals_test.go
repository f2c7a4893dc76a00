package redemptions

import (
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every refusal leaves the balance, the redemptions, their events, the ledger and the payout
// details as they were.
func TestEveryRefusedRedeemLeavesTheMemberAsTheyWere(t *testing.T) {
	t.Parallel()
	type call struct{ option, amount, key string }
	cases := []struct {
		name   string
		setup  func(f *fixture, pid string) call // prepares the member and names the request
		status int
		code   string
		field  string // the detail's field, when the refusal names one
		say    string // a part of the English message
	}{
		{
			name:   "an amount below the option's minimum",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "19.99", f.key()} },
			status: http.StatusUnprocessableEntity, code: "below_minimum", field: "amount", say: "20.00 USD",
		},
		{
			name:   "an amount above the balance",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "30.01", f.key()} },
			status: http.StatusUnprocessableEntity, code: "insufficient_funds",
		},
		{
			name:   "more decimals than the currency has",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "20.001", f.key()} },
			status: http.StatusBadRequest, code: "invalid", field: "amount",
		},
		{
			name:   "a negative amount",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "-20.00", f.key()} },
			status: http.StatusBadRequest, code: "invalid", field: "amount",
		},
		{
			name:   "a zero amount",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "0.00", f.key()} },
			status: http.StatusBadRequest, code: "invalid", field: "amount",
		},
		{
			name:   "an amount that is not a number",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "twenty", f.key()} },
			status: http.StatusBadRequest, code: "invalid", field: "amount",
		},
		{
			name:   "no Idempotency-Key",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "20.00", ""} },
			status: http.StatusBadRequest, code: "idempotency_key_required", field: IdempotencyHeader,
		},
		{
			name:   "an Idempotency-Key that is too long",
			setup:  func(f *fixture, pid string) call { return call{"paypal", "20.00", strings.Repeat("k", MaxKeyLen+1)} },
			status: http.StatusBadRequest, code: "idempotency_key_invalid", field: IdempotencyHeader,
		},
		{
			name:   "an unknown option",
			setup:  func(f *fixture, pid string) call { return call{"gold-bars", "20.00", f.key()} },
			status: http.StatusBadRequest, code: "unknown_option", field: "redemptionId",
		},
		{
			name:   "a disabled option",
			setup:  func(f *fixture, pid string) call { return call{"retired", "20.00", f.key()} },
			status: http.StatusBadRequest, code: "unknown_option", field: "redemptionId",
		},
		{
			name: "another panel's option",
			setup: func(f *fixture, pid string) call {
				f.addOption(f.globex, Option{ID: "globex-voucher", Kind: KindVoucher, Names: Text{"": "Globex voucher"}, MinimumMinor: 100, Enabled: true})
				return call{"globex-voucher", "20.00", f.key()}
			},
			status: http.StatusBadRequest, code: "unknown_option", field: "redemptionId",
		},
		{
			name: "another member's redemption id as the option",
			setup: func(f *fixture, pid string) call {
				other := f.redeemer(2000)
				r, _, err := f.redeem(other, "paypal", "20.00", f.key())
				require.NoError(f.t, err)
				return call{r.ID, "20.00", f.key()}
			},
			status: http.StatusBadRequest, code: "unknown_option", field: "redemptionId",
		},
		{
			name: "PayPal without a PayPal email on file",
			setup: func(f *fixture, pid string) call {
				require.NoError(f.t, f.db.Where("participant_id = ?", pid).Delete(&PayoutDetails{}).Error)
				return call{"paypal", "20.00", f.key()}
			},
			status: http.StatusUnprocessableEntity, code: "needs_paypal_data", field: "paypal-data", say: "paypal-data",
		},
		{
			name:   "a bank transfer without a bank account on file",
			setup:  func(f *fixture, pid string) call { return call{"bank", "20.00", f.key()} },
			status: http.StatusUnprocessableEntity, code: "needs_bank_data", field: "bank-data", say: "bank-data",
		},
		{
			name: "the same key with another amount",
			setup: func(f *fixture, pid string) call {
				key := f.key()
				_, _, err := f.redeem(pid, "paypal", "20.00", key)
				require.NoError(f.t, err)
				return call{"paypal", "21.00", key}
			},
			status: http.StatusConflict, code: "idempotency_key_reused",
		},
		{
			name: "the same key with another option",
			setup: func(f *fixture, pid string) call {
				key := f.key()
				_, _, err := f.redeem(pid, "paypal", "20.00", key)
				require.NoError(f.t, err)
				return call{"amazon-voucher", "20.00", key}
			},
			status: http.StatusConflict, code: "idempotency_key_reused",
		},
	}
	for _, value := range []string{"not-verified", "not-verified-mobile", "verified-too-recently", "reverify"} {
		cases = append(cases, struct {
			name   string
			setup  func(f *fixture, pid string) call
			status int
			code   string
			field  string
			say    string
		}{
			name: "a member whose eligibleToRedeem is " + value,
			setup: func(f *fixture, pid string) call {
				f.setEligibility(pid, value)
				return call{"paypal", "20.00", f.key()}
			},
			status: http.StatusForbidden, code: value,
		})
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.redeemer(3000)
				req := c.setup(f, pid)
				before := f.snapshot(f.acme, pid)

				r, created, err := f.redeem(pid, req.option, req.amount, req.key)
				require.Error(t, err)
				assert.Nil(t, r)
				assert.False(t, created)
				e := web.AsError(err)
				assert.Equal(t, c.status, e.Status, "%v", err)
				assert.Equal(t, c.code, codeOf(err), "%v", err)
				if c.field != "" {
					assert.Equal(t, c.field, e.Details[0].Field)
				}
				if c.say != "" {
					assert.Contains(t, e.ToAPI(f.m.kit.Locales.Tr("en")).Message, c.say)
				}
				assert.Equal(t, before, f.snapshot(f.acme, pid), "the refusal changed something")
				f.reconciled(pid)
			})
		}
	})
}

func TestANotEligibleRefusalCarriesTheEligibilityValue(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		pid := f.redeemer(3000)
		f.setEligibility(pid, "not-verified")
		_, _, err := f.redeem(pid, "paypal", "20.00", f.key())
		api := web.AsError(err).ToAPI(f.m.kit.Locales.Tr("en"))
		assert.Equal(t, "ClientError", api.Name)
		assert.Equal(t, 403, api.StatusCode)
		assert.Equal(t, map[string]any{"eligibleToRedeem": "not-verified"}, api.Data)
		assert.Contains(t, api.Message, "verify it with the code")

		f.setEligibility(pid, "skip")
		_, created, err := f.redeem(pid, "paypal", "20.00", f.key())
		require.NoError(t, err, "a panel that does not ask for a verified mobile lets members redeem")
		assert.True(t, created)
	})
}

// addOption creates (or leaves as it is) one option of a panel.
func (f *fixture) addOption(panel *web.Panel, o Option) {
	f.t.Helper()
	_, err := f.m.ApplyOptions(f.ctx, panel, []Option{o})
	require.NoError(f.t, err)
}

// saveBank stores a valid US bank account for an acme member.
func (f *fixture) saveBank(pid string) {
	f.t.Helper()
	_, err := f.m.SaveBank(f.ctx, f.acme, pid, BankInput{AccountHolder: "Dana Payee", RoutingNumber: "011000015", AccountNumber: "12345678", AccountType: "savings"})
	require.NoError(f.t, err)
}
