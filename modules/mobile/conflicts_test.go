package mobile

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestTheMembersOwnVerifiedNumberAnswersUserAlreadyVerified(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		code := f.send(f.acme, pid, "202 555 0143")
		_, err := f.svc.Check(f.ctx, f.acme, pid, "", code)
		require.NoError(t, err)
		before := f.status(f.acme, pid)

		f.clock = f.clock.Add(time.Minute)
		_, err = f.svc.Check(f.ctx, f.acme, pid, "+12025550143", code)
		e := requireAPIError(t, err, http.StatusConflict, "user_already_verified")
		assert.Equal(t, "error.mobile_already_verified", e.ID)
		_, err = f.svc.Send(f.ctx, f.acme, pid, "en", "", "", "country")
		requireAPIError(t, err, http.StatusConflict, "user_already_verified")
		_, err = f.svc.Send(f.ctx, f.acme, pid, "en", "(202) 555-0143", "", "country")
		requireAPIError(t, err, http.StatusConflict, "user_already_verified")
		assert.Len(t, f.sms.Messages(), 1, "no text for a number already verified")
		assert.Equal(t, before, f.status(f.acme, pid), "nothing changes")
	})
}

func TestANumberVerifiedByAnotherMemberOfThePanelIsRefused(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		owner, other := f.member(f.acme), f.member(f.acme)
		f.verify(f.acme, owner, "202 555 0143")

		_, err := f.svc.Validate(f.ctx, f.acme, other, "202 555 0143", "", "code")
		require.NoError(t, err, "putting it on file says nothing about who holds it")
		_, err = f.svc.Send(f.ctx, f.acme, other, "en", "", "", "country")
		e := requireAPIError(t, err, http.StatusConflict, "mobile_in_use")
		assert.Equal(t, "phone", e.Details[0].Field)
		assert.Len(t, f.sms.Messages(), 1, "no text is sent for it")
		assert.Equal(t, NotVerifiedMobile, f.eligibility(f.acme, other))

		elsewhere := f.member(f.globex)
		f.verify(f.globex, elsewhere, "+1 202 555 0143")
		assert.Equal(t, VerifiedTooRecently, f.eligibility(f.globex, elsewhere), "another panel's members are not its members")
	})
}

func TestTwoMembersVerifyingOneNumberAtOnceCannotBothHaveIt(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		first, second := f.member(f.acme), f.member(f.acme)
		codeFirst := f.send(f.acme, first, "202 555 0143")
		codeSecond := f.send(f.acme, second, "202 555 0143")

		// Both codes were sent before either was entered; the first to verify keeps it.
		_, err := f.svc.Check(f.ctx, f.acme, first, "", codeFirst)
		require.NoError(t, err)
		_, err = f.svc.Check(f.ctx, f.acme, second, "", codeSecond)
		requireAPIError(t, err, http.StatusConflict, "mobile_in_use")
		assert.Equal(t, StatusPending, f.status(f.acme, second).VerificationStatus)
	})
}

func TestTheDatabaseKeepsANumberToOneMemberOfAPanel(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		first, second := f.member(f.acme), f.member(f.acme)
		n := Number{E164: "+12025550143", Country: "US"}
		ok, err := f.svc.store.SetVerified(f.ctx, f.acme.ID, first, n, f.clock)
		require.NoError(t, err)
		require.True(t, ok)
		// Verify's own check cannot see a rival's uncommitted row; the unique index can.
		code := &Code{ID: "c-second", ParticipantID: second, Phone: n.E164, CodeHash: "x", CreatedAt: f.clock, ExpiresAt: f.clock.Add(time.Minute)}
		require.NoError(t, f.svc.store.NewCode(f.ctx, code, func(*gorm.DB) error { return nil }))
		require.NoError(t, f.db.Model(&Phone{}).Where("participant_id = ?", first).Update("verified_number", nil).Error)
		require.NoError(t, f.svc.store.Verify(f.ctx, f.acme.ID, code, maxAttempts, f.clock))
		err = f.db.Model(&Phone{}).Where("participant_id = ?", first).Update("verified_number", n.E164).Error
		assert.Error(t, err, "a second member with the same verified number breaks the unique index")
	})
}
