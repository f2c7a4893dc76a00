package referrals

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEachAbuseRuleRefusesAnInvitationWithItsOwnCodeAndWritesNothing(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{DailyLimit: intp(3)})
		ana := f.member(f.acme, "Ana", true)
		existing := f.member(f.acme, "Bea", true)
		f.invite(f.acme, ana, "pending@example.com")
		newcomer := f.member(f.acme, "Cy", false) // has not completed the welcome campaign
		gmail := f.member(f.acme, "Dee", true)
		require.NoError(t, f.db.Exec("UPDATE account_holders SET email = ?, email_normalized = ? WHERE id = (SELECT account_holder_id FROM participants WHERE id = ?)",
			"dee.smith@gmail.com", "dee.smith@gmail.com", gmail.pid).Error)
		gmail = f.as(gmail.pid)

		cases := []struct {
			name    string
			from    *who
			email   string
			message string
			status  int
			code    string
		}{
			{"the member's own address", ana, ana.email, "", 400, "self_referral"},
			{"their own address in capitals with a plus tag", ana, "  " + upperLocal(plusTag(ana.email)) + " ", "", 400, "self_referral"},
			{"their Gmail address without its dots", gmail, "DEESMITH+friends@googlemail.com", "", 400, "self_referral"},
			{"a member of the panel", ana, existing.email, "", 409, "already_member"},
			{"a friend invited already", ana, "Pending@Example.com", "", 409, "already_invited"},
			{"a member not eligible to refer", newcomer, "someone@example.com", "", 403, "not_eligible_to_refer"},
			{"no address", ana, "", "", 400, "invalid"},
			{"not an address", ana, "friend at example.com", "", 400, "invalid"},
			{"a message too long", ana, "ok@example.com", strings.Repeat("é", 501), 400, "invalid"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := f.rows()
				_, err := f.svc.Send(f.ctx, f.acme, c.from.from("d"), c.email, c.message)
				require.Error(t, err)
				assert.Equal(t, c.status, statusOf(err))
				assert.Equal(t, c.code, codeOf(err))
				assert.Equal(t, before, f.rows(), "a refusal writes nothing")
			})
		}
		t.Run("the daily limit", func(t *testing.T) {
			f.invite(f.acme, ana, "two@example.com")
			f.invite(f.acme, ana, "three@example.com")
			before := f.rows()
			_, err := f.svc.Send(f.ctx, f.acme, ana.from("d"), "four@example.com", "")
			assert.Equal(t, 429, statusOf(err))
			assert.Equal(t, "daily_limit_reached", codeOf(err))
			assert.Equal(t, before, f.rows())
			bea := f.member(f.acme, "Bea", true)
			f.invite(f.acme, bea, "four@example.com") // the limit is each member's own
		})
	})
}

func TestASenderJoiningThroughTheirOwnInvitationIsRefusedAndTheInvitationStaysOpen(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		cases := []struct {
			name, email, device string
		}{
			{"with their own address written another way", plusTag(ana.email), "another-browser"},
			{"from the browser they sent it from", "ana-second@example.com", "ana-laptop"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r, err := f.svc.Send(f.ctx, f.acme, ana.from("ana-laptop"), "friend-"+c.device+"@example.com", "")
				require.NoError(t, err)
				before := f.rows()
				_, err = f.join(f.acme, c.email, "Ana", r.ID, "", c.device)
				require.Error(t, err)
				assert.Equal(t, 409, statusOf(err))
				assert.Equal(t, "self_referral", codeOf(err))
				assert.Equal(t, before, f.rows())
				ok, err := f.accounts.IsMember(f.ctx, f.acme, c.email)
				require.NoError(t, err)
				assert.False(t, ok, "no account was made")
				assert.Nil(t, f.referral(r.ID).AcceptedAt)
			})
		}
		t.Run("a friend on their own browser joins", func(t *testing.T) {
			r := f.invite(f.acme, ana, "real-friend@example.com")
			pid := f.mustJoin(f.acme, "real-friend@example.com", "Real", r.ID, "", "friends-phone")
			stored := f.referral(r.ID)
			require.NotNil(t, stored.InviteeID)
			assert.Equal(t, pid, *stored.InviteeID)
		})
	})
}

func TestAnInvitationLinksOneFriendOnlyAndNotAfterItExpired(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ana := f.member(f.acme, "Ana", true)
		r := f.invite(f.acme, ana, "friend@example.com")
		first := f.mustJoin(f.acme, "friend@example.com", "Fay", r.ID, "", "")
		second := f.mustJoin(f.acme, "flatmate@example.com", "Flo", r.ID, "", "")
		stored := f.referral(r.ID)
		assert.Equal(t, first, *stored.InviteeID, "the first friend keeps it")
		assert.Equal(t, "Fay", stored.InviteeName)
		assert.Equal(t, "Ana", stored.ReferrerName)
		mine, err := f.svc.store.ReferralOfInvitee(f.ctx, second)
		require.NoError(t, err)
		assert.Nil(t, mine, "the second joined, linked to nobody")

		old := f.invite(f.acme, ana, "late@example.com")
		f.after(31 * 24 * time.Hour)
		late := f.mustJoin(f.acme, "late@example.com", "Lee", old.ID, "", "")
		assert.Nil(t, f.referral(old.ID).InviteeID, "an expired invitation links nobody")
		mine, err = f.svc.store.ReferralOfInvitee(f.ctx, late)
		require.NoError(t, err)
		assert.Nil(t, mine)
	})
}

func upperLocal(email string) string {
	for i, r := range email {
		if r == '@' {
			out := []rune(email)
			for j := range out[:i] {
				if out[j] >= 'a' && out[j] <= 'z' {
					out[j] -= 'a' - 'A'
				}
			}
			return string(out)
		}
	}
	return email
}

func plusTag(email string) string {
	for i, r := range email {
		if r == '@' {
			return email[:i] + "+again" + email[i:]
		}
	}
	return email
}
