package referrals

import (
	"testing"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referredFriend is a friend who joined through ana's invitation, and the invitation.
func (f *fixture) referredFriend(ana *who, email string) (string, *Referral) {
	f.t.Helper()
	r := f.invite(f.acme, ana, email)
	return f.mustJoin(f.acme, email, "Fay", r.ID, "", ""), r
}

func TestTheReferrerIsPaidOnceTheFriendCompletesTheWelcomeCampaignAndOnlyOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{Reward: "2.00"})
		ana := f.member(f.acme, "Ana", true)
		friend, r := f.referredFriend(ana, "friend@example.com")
		assert.Empty(t, f.keyed(ana.pid, RewardKey(r.ID)), "joining alone pays nothing on this panel")

		require.NoError(t, f.svc.WelcomeCompleted(f.ctx, friend))
		require.NoError(t, f.svc.WelcomeCompleted(f.ctx, friend))
		entries := f.keyed(ana.pid, RewardKey(r.ID))
		require.Len(t, entries, 1)
		assert.Equal(t, int64(200), entries[0].AmountMinor)
		assert.Equal(t, wallet.OriginManual, entries[0].Origin)
		assert.Equal(t, "Reward for inviting a friend", entries[0].Title)
		assert.Equal(t, int64(200), f.balance(f.acme, ana.pid))
		stored := f.referral(r.ID)
		require.NotNil(t, stored.RewardedAt)
		assert.Equal(t, int64(200), stored.RewardMinor)
		assert.Equal(t, entries[0].ID, *stored.TransactionID)
		assert.Zero(t, f.balance(f.acme, friend), "the friend earns nothing from it")
	})
}

func TestFiftyConcurrentWelcomeCompletionsPayTheReferralRewardOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{Reward: "2.00"})
		ana := f.member(f.acme, "Ana", true)
		friend, r := f.referredFriend(ana, "friend@example.com")
		errs := make([]error, 50)
		race(50, func(i int) { errs[i] = f.svc.WelcomeCompleted(f.ctx, friend) })
		for i, err := range errs {
			require.NoError(t, err, "call %d", i)
		}
		assert.Len(t, f.keyed(ana.pid, RewardKey(r.ID)), 1)
		assert.Equal(t, int64(200), f.balance(f.acme, ana.pid))
		var n int64
		require.NoError(t, f.db.Model(&wallet.Entry{}).Where("participant_id = ?", ana.pid).Count(&n).Error)
		assert.Equal(t, int64(1), n, "one entry in the referrer's ledger")
	})
}

func TestThePanelsRuleDecidesWhenAndWhetherAReferralPays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		rules         *SettingsSpec
		onJoin, later int64 // the referrer's balance after the friend joins, then after their welcome campaign
	}{
		{"no reward set", nil, 0, 0},
		{"on the welcome campaign", &SettingsSpec{Reward: "2.00"}, 0, 200},
		{"on joining", &SettingsSpec{Reward: "0.75", RewardWhen: RewardOnJoin}, 75, 75},
		{"referrals off", &SettingsSpec{Reward: "2.00", Enabled: boolp(false)}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				ana := f.member(f.acme, "Ana", true)
				r := f.invite(f.acme, ana, "friend@example.com")
				f.rules(f.acme, c.rules)
				friend := f.mustJoin(f.acme, "friend@example.com", "Fay", r.ID, "", "")
				assert.Equal(t, c.onJoin, f.balance(f.acme, ana.pid))
				require.NoError(t, f.svc.WelcomeCompleted(f.ctx, friend))
				assert.Equal(t, c.later, f.balance(f.acme, ana.pid))
			})
		})
	}
}

func TestARewardTheHookMissedIsPaidWhenTheReferrerNextLooks(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		friend, r := f.referredFriend(ana, "friend@example.com")
		require.NoError(t, f.accounts.Service().MarkWelcomeCompleted(f.ctx, friend)) // heard by accounts only
		f.rules(f.acme, &SettingsSpec{Reward: "2.00"})                               // the reward came later
		require.NoError(t, f.svc.Settle(f.ctx, f.acme, ana.pid))
		require.NoError(t, f.svc.Settle(f.ctx, f.acme, ana.pid))
		assert.Len(t, f.keyed(ana.pid, RewardKey(r.ID)), 1)
		assert.Equal(t, int64(200), f.balance(f.acme, ana.pid))

		_, waiting := f.referredFriend(ana, "second@example.com")
		require.NoError(t, f.svc.Settle(f.ctx, f.acme, ana.pid))
		assert.Empty(t, f.keyed(ana.pid, RewardKey(waiting.ID)), "a friend whose welcome campaign is still to do earns nothing yet")
	})
}

func TestEligibilityIsThePanelsRuleAndIsRecordedWhereItsConditionsChange(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		eligible := func(pid string) bool { return f.as(pid).member.IsEligibleToRefer }
		// Default rule: welcome campaign completed and email validated.
		ana := f.member(f.acme, "Ana", false)
		assert.False(t, eligible(ana.pid))
		f.welcomed(ana.pid)
		assert.True(t, eligible(ana.pid), "the welcome campaign completed, the email validated: eligible")

		joined := f.mustJoin(f.acme, "new@example.com", "Nia", "", "", "")
		f.welcomed(joined)
		assert.False(t, eligible(joined), "the email is not validated yet")
		m := f.as(joined).member
		m.EmailValidated = true // as the session reads them once they validated it
		ok, err := f.svc.MarkEligible(f.ctx, f.acme, m)
		require.NoError(t, err)
		assert.True(t, ok)
		assert.True(t, eligible(joined), "recorded on the next page they open")

		// A panel where every member may refer: a new member is eligible on joining.
		f.rules(f.globex, &SettingsSpec{EligibleWhen: []string{}})
		gid := f.mustJoin(f.globex, "g@example.com", "Gus", "", "", "")
		assert.True(t, eligible(gid))
	})
}
