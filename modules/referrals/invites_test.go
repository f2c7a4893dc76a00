package referrals

import (
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnInvitationIsMailedInTheInvitersLanguageWithTheirNameMessageAndJoinLink(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		r, err := f.svc.Send(f.ctx, f.acme, Sender{Member: ana.member, Lang: "es", Device: "d1", Origin: "https://acme.example.com"},
			" Friend@Example.com ", "  ¡Ven, es divertido!\nDe verdad.  ")
		require.NoError(t, err)
		assert.Equal(t, "Friend@Example.com", r.Email, "the address as typed, trimmed")
		assert.Equal(t, "friend@example.com", r.EmailKey)
		assert.Equal(t, "¡Ven, es divertido!\nDe verdad.", r.Message)

		mail := f.smtp.WaitFor(t, "Friend@Example.com", 30*time.Second)
		assert.Equal(t, "Ana te ha invitado a Panel acme", mail.Subject)
		assert.Equal(t, "es", mail.Header("Content-Language"))
		assert.Contains(t, mail.Text, "> ¡Ven, es divertido!\r\n> De verdad.", "quoted line by line in the plain text")
		assert.Equal(t, "https://acme.example.com/join/invite/"+r.ID, mailertest.FirstLink(mail.HTML, "https://acme.example.com/join/invite/"))

		stored := f.referral(r.ID)
		assert.Equal(t, digest("d1"), stored.SenderDevice, "only a digest of the browser's cookie is kept")
		assert.Equal(t, digest(NormalizeEmail(ana.email)), stored.SenderKey)
		assert.True(t, f.as(ana.pid).member.IsEligibleToRefer, "a referral action marks the member eligible to refer")
	})
}

func TestAnInvitationIsPendingThenAcceptedOrArchivedByTheMemberOrByItsExpiry(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{ExpiryDays: intp(10)})
		ana := f.member(f.acme, "Ana", true)
		joins := f.invite(f.acme, ana, "joins@example.com")
		archived := f.invite(f.acme, ana, "archived@example.com")
		f.after(24 * time.Hour)
		expires := f.invite(f.acme, ana, "expires@example.com")
		f.after(24 * time.Hour)
		f.mustJoin(f.acme, "joins@example.com", "Joe", joins.ID, "", "")
		require.NoError(t, f.svc.Archive(f.ctx, f.acme, ana.member, archived.ID))

		states := func() map[string]string {
			out := map[string]string{}
			for _, state := range []string{StatePending, StateAccepted, StateArchived} {
				list, err := f.svc.Invites(f.ctx, f.acme, ana.member, state, "")
				require.NoError(t, err)
				for _, inv := range list {
					require.Equal(t, state, inv.State)
					out[inv.Email] = state + "/" + inv.ArchivedReason
				}
			}
			return out
		}
		assert.Equal(t, map[string]string{"joins@example.com": "accepted/", "archived@example.com": "archived/member", "expires@example.com": "pending/"}, states())

		f.after(9*24*time.Hour - time.Second)
		assert.Equal(t, "pending/", states()["expires@example.com"], "ten days after it was sent, less a second")
		f.after(time.Second)
		assert.Equal(t, "archived/expired", states()["expires@example.com"], "read as archived once its expiry has passed, no job needed")
		_, err := f.svc.Resend(f.ctx, f.acme, ana.from("d"), expires.ID)
		assert.Equal(t, "invite_archived", codeOf(err), "an expired invitation is not sent again")
		assert.Equal(t, 409, statusOf(err))
		err = f.svc.Archive(f.ctx, f.acme, ana.member, joins.ID)
		assert.Equal(t, "invite_accepted", codeOf(err), "an accepted invitation stays accepted")

		s, err := f.svc.Stats(f.ctx, f.acme, ana.member)
		require.NoError(t, err)
		assert.Equal(t, Summary{Sent: 3, Accepted: 1, Pending: 0, Archived: 2, Currency: "USD"}, s)
	})
}

func TestSendingAgainMovesTheExpiryOnAndIsRateLimitedPerInvitation(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{ExpiryDays: intp(5)})
		ana := f.member(f.acme, "Ana", true)
		r := f.invite(f.acme, ana, "friend@example.com")
		f.smtp.WaitFor(t, "friend@example.com", 30*time.Second)
		f.after(4 * 24 * time.Hour)

		again, err := f.svc.Resend(f.ctx, f.acme, ana.from("d"), r.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, again.Sends)
		mail := f.smtp.WaitFor(t, "friend@example.com", 30*time.Second)
		assert.Contains(t, mail.Text, "/join/invite/"+r.ID, "the same link")

		_, err = f.svc.Resend(f.ctx, f.acme, ana.from("d"), r.ID)
		assert.Equal(t, "resend_too_soon", codeOf(err))
		assert.Equal(t, 429, statusOf(err))

		f.after(2 * 24 * time.Hour) // six days after the first send, two after the second
		list, err := f.svc.Invites(f.ctx, f.acme, ana.member, StatePending, "")
		require.NoError(t, err)
		require.Len(t, list, 1, "still pending: the expiry counts from the last send")
		assert.Equal(t, 2, f.referral(r.ID).Sends)
	})
}

func TestTheArchivedListFollowsOrderByAndRefusesAnOrderItDoesNotKnow(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		var ids []string
		for _, email := range []string{"b@example.com", "c@example.com", "a@example.com"} {
			ids = append(ids, f.invite(f.acme, ana, email).ID)
			f.after(time.Hour)
		}
		// Archived in another order than sent: c first, then a, then b.
		for _, i := range []int{1, 2, 0} {
			require.NoError(t, f.svc.Archive(f.ctx, f.acme, ana.member, ids[i]))
			f.after(time.Minute)
		}
		emails := func(orderBy string) []string {
			list, err := f.svc.Invites(f.ctx, f.acme, ana.member, StateArchived, orderBy)
			require.NoError(t, err)
			var out []string
			for _, inv := range list {
				out = append(out, strings.TrimSuffix(inv.Email, "@example.com"))
			}
			return out
		}
		for _, c := range []struct {
			orderBy string
			want    []string
		}{
			{"", []string{"b", "a", "c"}}, {"-archivedAt", []string{"b", "a", "c"}}, {"archivedAt", []string{"c", "a", "b"}},
			{"sentAt", []string{"b", "c", "a"}}, {"-sentAt", []string{"a", "c", "b"}}, {"email", []string{"a", "b", "c"}}, {"-email", []string{"c", "b", "a"}},
		} {
			assert.Equal(t, c.want, emails(c.orderBy), "orderBy=%q", c.orderBy)
		}
		_, err := f.svc.Invites(f.ctx, f.acme, ana.member, StateArchived, "email; DROP TABLE referrals")
		assert.Equal(t, 400, statusOf(err))
		assert.Equal(t, "orderBy", web400Field(err))
	})
}

func TestStatsCountTheRewardsEarnedInThePanelsCurrency(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.globex, &SettingsSpec{Reward: "1.25", RewardWhen: RewardOnJoin})
		ana := f.member(f.globex, "Ana", true)
		for _, friend := range []string{"one@example.com", "two@example.com", "three@example.com"} {
			r := f.invite(f.globex, ana, friend)
			if friend != "three@example.com" {
				f.mustJoin(f.globex, friend, "", r.ID, "", "")
			}
		}
		s, err := f.svc.Stats(f.ctx, f.globex, ana.member)
		require.NoError(t, err)
		assert.Equal(t, Summary{Sent: 3, Accepted: 2, Pending: 1, Archived: 0, EarnedMinor: 250, Currency: "GBP"}, s)
		assert.Equal(t, int64(250), f.balance(f.globex, ana.pid))
	})
}
