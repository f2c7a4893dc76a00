package referrals

import (
	"testing"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnOperatorCreatesAPartnerCodeAndEveryBadValueIsNamed(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		a, err := f.svc.CreateAffiliate(f.ctx, f.acme, NewAffiliate{Code: " acme-10 ", Partner: " Acme Cashback ", Bonus: "2.50", Operator: "olga"})
		require.NoError(t, err)
		assert.Equal(t, "ACME-10", a.Code, "codes are upper case")
		assert.Equal(t, "Acme Cashback", a.Partner)
		assert.Equal(t, int64(250), a.BonusMinor)
		assert.Equal(t, "USD", a.CurrencyCode)

		cases := []struct {
			name string
			in   NewAffiliate
			want []string
		}{
			{"a code taken, whatever its case", NewAffiliate{Code: "Acme-10", Partner: "Other"}, []string{"--code: panel acme already has the code ACME-10"}},
			{"every problem at once", NewAffiliate{Code: "a b", Partner: "", Bonus: "1.234"}, []string{`--code: "a b" must be 3-32`, "--partner: required", `--bonus: "1.234" is not an amount of USD`}},
			{"a negative bonus", NewAffiliate{Code: "NEG", Partner: "P", Bonus: "-1"}, []string{`--bonus: "-1" is negative`}},
			{"a code too short", NewAffiliate{Code: "AB", Partner: "P"}, []string{`--code: "AB" must be 3-32`}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := f.rows()
				_, err := f.svc.CreateAffiliate(f.ctx, f.acme, c.in)
				require.Error(t, err)
				for _, w := range c.want {
					assert.Contains(t, err.Error(), w)
				}
				assert.Equal(t, before, f.rows())
			})
		}
		_, err = f.svc.CreateAffiliate(f.ctx, f.globex, NewAffiliate{Code: "acme-10", Partner: "Globex's own"})
		require.NoError(t, err, "codes are unique per panel")
	})
}

func TestAMemberAcceptsAPartnerCodeOnceAndIsPaidItsBonusOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		a, err := f.svc.CreateAffiliate(f.ctx, f.acme, NewAffiliate{Code: "ACME", Partner: "Acme", Bonus: "1.50"})
		require.NoError(t, err)
		_, err = f.svc.CreateAffiliate(f.ctx, f.acme, NewAffiliate{Code: "OTHER", Partner: "Other", Bonus: "5.00"})
		require.NoError(t, err)
		ana := f.member(f.acme, "Ana", true)

		d, err := f.svc.DescribeAffiliate(f.ctx, f.acme, ana.pid, "acme")
		require.NoError(t, err)
		assert.False(t, d.Accepted || d.Elsewhere)

		first, err := f.svc.AcceptAffiliate(f.ctx, f.acme, ana.pid, "acme", "en")
		require.NoError(t, err)
		assert.True(t, first.Accepted)
		again, err := f.svc.AcceptAffiliate(f.ctx, f.acme, ana.pid, "ACME", "en")
		require.NoError(t, err, "accepting again answers as the first time")
		assert.Equal(t, first.TransactionID, again.TransactionID)
		entries := f.keyed(ana.pid, AffiliateKey(a.ID))
		require.Len(t, entries, 1)
		assert.Equal(t, "Welcome bonus from Acme", entries[0].Title)
		assert.Equal(t, wallet.OriginManual, entries[0].Origin)
		assert.Equal(t, int64(150), f.balance(f.acme, ana.pid))

		before := f.rows()
		_, err = f.svc.AcceptAffiliate(f.ctx, f.acme, ana.pid, "OTHER", "en")
		assert.Equal(t, 409, statusOf(err))
		assert.Equal(t, "already_attributed", codeOf(err))
		assert.Equal(t, before, f.rows())
		d, err = f.svc.DescribeAffiliate(f.ctx, f.acme, ana.pid, "other")
		require.NoError(t, err)
		assert.True(t, d.Elsewhere)
	})
}

func TestFiftyConcurrentAcceptsAttributeTheMemberOnceAndPayOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		a, err := f.svc.CreateAffiliate(f.ctx, f.acme, NewAffiliate{Code: "ACME", Partner: "Acme", Bonus: "1.00"})
		require.NoError(t, err)
		ana := f.member(f.acme, "Ana", true)
		errs := make([]error, 50)
		race(50, func(i int) { _, errs[i] = f.svc.AcceptAffiliate(f.ctx, f.acme, ana.pid, "ACME", "en") })
		for i, err := range errs {
			require.NoError(t, err, "call %d", i)
		}
		assert.Len(t, f.keyed(ana.pid, AffiliateKey(a.ID)), 1)
		assert.Equal(t, int64(100), f.balance(f.acme, ana.pid))
	})
}

func TestJoiningWithAPartnerCodeAttributesAndPaysAtSignUp(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		a, err := f.svc.CreateAffiliate(f.ctx, f.acme, NewAffiliate{Code: "ACME", Partner: "Acme", Bonus: "1.00"})
		require.NoError(t, err)
		p, err := f.svc.Partner(f.ctx, f.acme, "acme", "es")
		require.NoError(t, err)
		assert.Equal(t, "Acme", p.Name)
		assert.Contains(t, p.Bonus, "1,00", "the bonus in the visitor's language")

		pid := f.mustJoin(f.acme, "new@example.com", "Nia", "", "acme", "")
		am, err := f.svc.store.Attribution(f.ctx, pid)
		require.NoError(t, err)
		require.NotNil(t, am)
		assert.Equal(t, ViaJoin, am.Via)
		assert.Len(t, f.keyed(pid, AffiliateKey(a.ID)), 1)
		assert.Equal(t, int64(100), f.balance(f.acme, pid))

		other := f.mustJoin(f.acme, "other@example.com", "Oz", "", "NO-SUCH-CODE", "")
		am, err = f.svc.store.Attribution(f.ctx, other)
		require.NoError(t, err)
		assert.Nil(t, am, "an unknown code joins without a partner")
	})
}
