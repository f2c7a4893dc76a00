package referrals

import (
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cards are a member's blades as ids, with what the mobile and address say.
func (f *fixture) cards(w *who, cond Conditions) []string {
	f.t.Helper()
	st, err := f.svc.Settings(f.ctx, f.acme)
	require.NoError(f.t, err)
	row, err := f.svc.store.bladeRowOf(f.ctx, w.pid)
	require.NoError(f.t, err)
	list, err := f.svc.blades(st, row, cond, f.now())
	require.NoError(f.t, err)
	out := []string{}
	for _, b := range list {
		out = append(out, b.ID)
	}
	return out
}

func TestTheFeedCardsSayWhatIsNewOrWaitingForEachSideOfAReferral(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{Reward: "2.00", RewardWhen: RewardOnJoin})
		ana := f.member(f.acme, "Ana", true)
		none := Conditions{}
		assert.Empty(t, f.cards(ana, none))

		waiting := f.invite(f.acme, ana, "slow@example.com")
		assert.Empty(t, f.cards(ana, none), "a fresh invitation is not waiting yet")
		f.after(3 * 24 * time.Hour)
		assert.Equal(t, []string{BladeInviteWaiting + "." + waiting.ID}, f.cards(ana, none), "three days on, it is")

		joined := f.invite(f.acme, ana, "fay@example.com")
		fay := f.as(f.mustJoin(f.acme, "fay@example.com", "Fay", joined.ID, "", ""))
		assert.Equal(t, []string{BladeFriendJoined + "." + joined.ID, BladeInviteWaiting + "." + waiting.ID}, f.cards(ana, none),
			"the friend joined; the other invitation still waits")
		assert.Equal(t, []string{BladeThankReferrer + "." + joined.ID}, f.cards(fay, none))

		st, err := f.svc.Settings(f.ctx, f.acme)
		require.NoError(t, err)
		row, err := f.svc.store.bladeRowOf(f.ctx, ana.pid)
		require.NoError(t, err)
		list, err := f.svc.blades(st, row, none, f.now())
		require.NoError(t, err)
		assert.Equal(t, "Fay", list[0].Name)
		assert.Equal(t, int64(200), list[0].RewardMinor, "paid on joining, and the card says so")
		row, err = f.svc.store.bladeRowOf(f.ctx, fay.pid)
		require.NoError(t, err)
		list, err = f.svc.blades(st, row, none, f.now())
		require.NoError(t, err)
		assert.Equal(t, "Ana", list[0].Name, "the friend's card names the referrer")

		f.after(31 * 24 * time.Hour)
		assert.Empty(t, f.cards(ana, none), "a month on, the cards have gone by themselves")
		assert.Empty(t, f.cards(fay, none))
	})
}

func TestTheMobileAndAddressCardsFollowWhatTheirModulesSay(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		yes := func() (bool, error) { return true, nil }
		no := func() (bool, error) { return false, nil }
		cases := []struct {
			mobile  string
			address func() (bool, error)
			want    []string
		}{
			{"not-verified", nil, []string{BladeVerifyMobile}},
			{"not-verified-mobile", no, []string{BladeVerifyMobile, BladeCompleteAddress}},
			{"reverify", yes, []string{BladeVerifyMobile}},
			{"yes", no, []string{BladeCompleteAddress}},
			{"skip", yes, []string{}},
			{"verified-too-recently", nil, []string{}},
		}
		for _, c := range cases {
			assert.Equal(t, c.want, f.cards(ana, Conditions{MobileStatus: c.mobile, HasAddress: c.address}), "mobile %s", c.mobile)
		}
		_, err := f.svc.blades(DefaultSettings(f.acme.ID, "USD"), &bladeRow{}, Conditions{HasAddress: func() (bool, error) { return false, errors.New("down") }}, f.now())
		assert.ErrorContains(t, err, "down")
	})
}

func TestADismissedCardStaysGoneAndOnlyTheMembersOwnCardsCanBeDismissed(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		r := f.invite(f.acme, ana, "fay@example.com")
		fay := f.as(f.mustJoin(f.acme, "fay@example.com", "Fay", r.ID, "", ""))
		cond := Conditions{MobileStatus: "not-verified", HasAddress: func() (bool, error) { return false, nil }}
		require.Equal(t, []string{BladeFriendJoined + "." + r.ID, BladeVerifyMobile, BladeCompleteAddress}, f.cards(ana, cond))

		for _, id := range []string{BladeFriendJoined + "." + r.ID, BladeVerifyMobile, BladeVerifyMobile} {
			require.NoError(t, f.svc.Dismiss(f.ctx, f.acme, ana.member, id))
		}
		assert.Equal(t, []string{BladeCompleteAddress}, f.cards(ana, cond))
		assert.Equal(t, []string{BladeThankReferrer + "." + r.ID, BladeVerifyMobile, BladeCompleteAddress}, f.cards(fay, cond), "another member's cards are their own")

		before := f.rows()
		for _, c := range []struct{ name, id string }{
			{"the friend's card of the referrer", BladeThankReferrer + "." + r.ID},
			{"the referrer's card of the friend", BladeFriendJoined + "." + r.ID},
			{"an unknown kind", "free-money." + r.ID},
			{"no kind", r.ID},
			{"a made-up invitation", BladeFriendJoined + ".00000000-0000-4000-8000-000000000000"},
			{"not an id at all", "verify-mobile'; --"},
		} {
			who := ana
			if c.name == "the referrer's card of the friend" {
				who = fay
			}
			err := f.svc.Dismiss(f.ctx, f.acme, who.member, c.id)
			assert.Equal(t, 404, statusOf(err), c.name)
		}
		assert.Equal(t, before, f.rows(), "a refused dismissal writes nothing")
	})
}

func TestTheFriendThanksTheReferrerByMailOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		require.NoError(t, f.db.Exec("UPDATE account_holders SET language_code = 'es' WHERE id = (SELECT account_holder_id FROM participants WHERE id = ?)", ana.pid).Error)
		r := f.invite(f.acme, ana, "fay@example.com")
		fay := f.as(f.mustJoin(f.acme, "fay@example.com", "Fay", r.ID, "", ""))
		id := BladeThankReferrer + "." + r.ID

		_, err := f.svc.ThankReferrer(f.ctx, f.acme, ana.member, id, "https://acme.example.com")
		assert.Equal(t, 404, statusOf(err), "only the friend thanks")
		name, err := f.svc.ThankReferrer(f.ctx, f.acme, fay.member, id, "https://acme.example.com")
		require.NoError(t, err)
		assert.Equal(t, "Ana", name)
		mail := f.smtp.WaitFor(t, ana.email, 30*time.Second)
		assert.Equal(t, "Fay te da las gracias", mail.Subject, "in the referrer's language")
		assert.Contains(t, mail.Text, "https://acme.example.com/referrals")
		assert.Empty(t, f.cards(fay, Conditions{}), "the card goes once thanked")

		_, err = f.svc.ThankReferrer(f.ctx, f.acme, fay.member, id, "https://acme.example.com")
		assert.Equal(t, 409, statusOf(err))
		assert.Equal(t, "already_thanked", codeOf(err))
		for _, m := range f.smtp.Messages() {
			if m.Subject == mail.Subject {
				assert.Equal(t, mail.Raw, m.Raw, "one thank-you mail")
			}
		}
	})
}

func TestAClosedReferrerCannotBeThanked(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		r := f.invite(f.acme, ana, "fay@example.com")
		fay := f.as(f.mustJoin(f.acme, "fay@example.com", "Fay", r.ID, "", ""))
		require.NoError(t, f.db.Exec("UPDATE account_holders SET status = ? WHERE id = (SELECT account_holder_id FROM participants WHERE id = ?)", accounts.StatusClosed, ana.pid).Error)
		_, err := f.svc.ThankReferrer(f.ctx, f.acme, fay.member, BladeThankReferrer+"."+r.ID, "https://acme.example.com")
		assert.Equal(t, 410, statusOf(err))
		assert.Equal(t, "referrer_gone", codeOf(err))
		assert.Nil(t, f.referral(r.ID).ThankedAt)
	})
}
