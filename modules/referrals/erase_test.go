package referrals

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestEraseMemberLeavesNoAddressNameOrMessageOfTheirsOrTheirFriends(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{Reward: "2.00", RewardWhen: RewardOnJoin})
		ana := f.member(f.acme, "Ana", true)
		pending, err := f.svc.Send(f.ctx, f.acme, ana.from("ana-device"), "pending-friend@example.com", "Hi Pat, from Ana")
		require.NoError(t, err)
		joined := f.invite(f.acme, ana, "joined-friend@example.com")
		fay := f.as(f.mustJoin(f.acme, "joined-friend@example.com", "Fay", joined.ID, "", ""))
		require.NoError(t, f.svc.Dismiss(f.ctx, f.acme, ana.member, BladeVerifyMobile))
		// Ana herself joined through Bea's invitation.
		bea := f.member(f.acme, "Bea", true)
		viaBea := f.invite(f.acme, bea, "ana-herself@example.com")
		require.NoError(t, f.db.Model(&Referral{}).Where("id = ?", viaBea.ID).Updates(map[string]any{"invitee_id": ana.pid, "invitee_name": "Ana", "referrer_name": "Bea", "accepted_at": f.now()}).Error)

		require.NoError(t, f.db.Transaction(func(tx *gorm.DB) error { return f.m.EraseMember(f.ctx, tx, ana.pid) }))

		var rows []Referral
		require.NoError(t, f.db.Where("referrer_id = ? OR invitee_id = ?", ana.pid, ana.pid).Find(&rows).Error)
		require.Len(t, rows, 3)
		for _, r := range rows {
			text := strings.Join([]string{r.Email, r.EmailKey, r.Message, r.InviteeName, r.ReferrerName, r.SenderKey, r.SenderDevice}, "|")
			for _, personal := range []string{"pending-friend", "joined-friend", "ana-herself", "Pat", "Fay", "Ana", digest("ana-device")} {
				assert.NotContains(t, text, personal, "invitation %s", r.ID)
			}
		}
		assert.Equal(t, ArchivedClosed, f.referral(pending.ID).ArchivedReason, "a pending invitation's link stops working")
		assert.NotNil(t, f.referral(joined.ID).RewardedAt, "what accounting needs stays: the reward paid")
		assert.Len(t, f.keyed(ana.pid, RewardKey(joined.ID)), 1)
		assert.Equal(t, "Bea", f.referral(viaBea.ID).ReferrerName, "the referrer's own name stays on their invitation")
		var dismissed int64
		require.NoError(t, f.db.Model(&Dismissal{}).Where("participant_id = ?", ana.pid).Count(&dismissed).Error)
		assert.Zero(t, dismissed)
		assert.Equal(t, "Fay", f.as(fay.pid).name, "the friend's own account is theirs")
		inv, err := f.svc.Invitation(f.ctx, f.acme, pending.ID, "en")
		require.NoError(t, err)
		assert.True(t, inv.Expired)
	})
}
