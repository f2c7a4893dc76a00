package referrals

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheConsoleCountsAMembersInvitationsAndSeesWhetherTheyWereInvited(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		joins := f.invite(f.acme, ana, "joins@example.com")
		f.invite(f.acme, ana, "waits@example.com")
		joe := f.mustJoin(f.acme, "joins@example.com", "Joe", joins.ID, "", "")

		got, err := f.m.MemberReferrals(f.ctx, f.acme, ana.pid)
		require.NoError(t, err)
		assert.Equal(t, 2, got.Sent)
		assert.Equal(t, 1, got.Accepted)
		assert.Equal(t, 1, got.Pending)
		assert.False(t, got.Invited, "Ana joined on her own")

		got, err = f.m.MemberReferrals(f.ctx, f.acme, joe)
		require.NoError(t, err)
		assert.Zero(t, got.Sent)
		assert.True(t, got.Invited, "Joe joined through Ana's invitation")

		got, err = f.m.MemberReferrals(f.ctx, f.globex, ana.pid)
		require.NoError(t, err)
		assert.Zero(t, got.Sent, "nothing through another panel")
	})
}
