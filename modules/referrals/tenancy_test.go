package referrals

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnotherPanelsInvitationsCardsAndCodesAreNotFound(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		r := f.invite(f.acme, ana, "fay@example.com")
		fay := f.as(f.mustJoin(f.acme, "fay@example.com", "Fay", r.ID, "", ""))
		_, err := f.svc.CreateAffiliate(f.ctx, f.acme, NewAffiliate{Code: "ACME", Partner: "Acme", Bonus: "1.00"})
		require.NoError(t, err)
		// The same people as the globex panel would see them (a request to globex's host).
		gAna, gFay := *ana.member, *fay.member

		before := f.rows()
		checks := map[string]error{}
		_, checks["resend"] = f.svc.Resend(f.ctx, f.globex, Sender{Member: &gAna, Lang: "en", Origin: "https://globex.example.com"}, r.ID)
		checks["archive"] = f.svc.Archive(f.ctx, f.globex, &gAna, r.ID)
		checks["dismiss"] = f.svc.Dismiss(f.ctx, f.globex, &gAna, BladeFriendJoined+"."+r.ID)
		_, checks["thank"] = f.svc.ThankReferrer(f.ctx, f.globex, &gFay, BladeThankReferrer+"."+r.ID, "https://globex.example.com")
		_, checks["describe code"] = f.svc.DescribeAffiliate(f.ctx, f.globex, ana.pid, "ACME")
		_, checks["accept code"] = f.svc.AcceptAffiliate(f.ctx, f.globex, ana.pid, "ACME", "en")
		bea := f.member(f.acme, "Bea", true)
		_, checks["another member's resend"] = f.svc.Resend(f.ctx, f.acme, bea.from("d"), r.ID)
		checks["another member's archive"] = f.svc.Archive(f.ctx, f.acme, bea.member, r.ID)
		for what, err := range checks {
			assert.Equal(t, 404, statusOf(err), what)
		}
		assert.Equal(t, before, f.rows(), "nothing written")

		inv, err := f.svc.Invitation(f.ctx, f.globex, r.ID, "en")
		require.NoError(t, err)
		assert.Nil(t, inv, "the join page of another panel knows no such invitation")
		p, err := f.svc.Partner(f.ctx, f.globex, "ACME", "en")
		require.NoError(t, err)
		assert.Nil(t, p)
	})
}
