package referrals

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheJoinPageLearnsWhoInvitesAndToWhichAddressWhileTheInvitationIsOpen(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		r := f.invite(f.acme, ana, "Fay@Example.com")
		inv, err := f.svc.Invitation(f.ctx, f.acme, r.ID, "en")
		require.NoError(t, err)
		assert.Equal(t, "Ana", inv.InviterName)
		assert.Equal(t, "Fay@Example.com", inv.Email)
		assert.False(t, inv.Expired)

		for _, id := range []string{"not-an-id", "00000000-0000-4000-8000-000000000000"} {
			inv, err = f.svc.Invitation(f.ctx, f.acme, id, "en")
			require.NoError(t, err)
			assert.Nil(t, inv, id)
		}
		f.after(31 * 24 * time.Hour)
		inv, err = f.svc.Invitation(f.ctx, f.acme, r.ID, "en")
		require.NoError(t, err)
		assert.True(t, inv.Expired)
		assert.Empty(t, inv.InviterName, "an expired invitation names nobody")
	})
}
