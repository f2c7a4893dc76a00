package mobile

import (
	"net/http"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAMemberVerifiesANumberWithTheCodeTextedThroughTwilio(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.globex)
		assert.Equal(t, Status{VerificationStatus: StatusNotVerified, Eligibility: NotVerified, DefaultCountry: "GB"}, f.status(f.globex, pid), "nothing on file")

		n, err := f.svc.Validate(f.ctx, f.globex, pid, "07700 900123", "", "code")
		require.NoError(t, err)
		assert.Equal(t, Number{E164: "+447700900123", Country: "GB"}, n, "national form in the panel's country")
		s := f.status(f.globex, pid)
		assert.Equal(t, "+447700900123", s.MobileNumber)
		assert.Equal(t, StatusPending, s.VerificationStatus)
		assert.Equal(t, NotVerifiedMobile, s.Eligibility)
		assert.Nil(t, s.CodeExpiresAt, "no code sent yet")

		sent, err := f.svc.Send(f.ctx, f.globex, pid, "es", "", "", "country")
		require.NoError(t, err)
		assert.Equal(t, Sent{MobileNumber: "+447700900123", ExpiresAt: f.clock.Add(10 * time.Minute)}, sent)
		msg := f.sms.WaitFor(t, "+447700900123", 30*time.Second)
		assert.Equal(t, smstest.From, msg.From)
		assert.Regexp(t, `^\d{6} es tu código de verificación de Panel globex\. Caduca en 10 minutos\.$`, msg.Body, "in the member's language, with the panel's name")
		code := msg.Body[:6]

		var stored Code
		require.NoError(t, f.db.Where("participant_id = ?", pid).Take(&stored).Error)
		assert.NotContains(t, stored.CodeHash, code, "only a hash of the code is stored")
		assert.Len(t, stored.CodeHash, 64)
		assert.Equal(t, msg.SID, stored.ProviderID, "the provider's message id is kept")
		assert.Equal(t, sent.ExpiresAt, *f.status(f.globex, pid).CodeExpiresAt, "the page can tell a code is waiting")

		f.clock = f.clock.Add(9 * time.Minute)
		s, err = f.svc.Check(f.ctx, f.globex, pid, "+44 7700 900123", code)
		require.NoError(t, err)
		assert.Equal(t, "+447700900123", s.MobileNumber)
		assert.Equal(t, "+447700900123", s.VerifiedNumber)
		assert.Equal(t, StatusVerified, s.VerificationStatus)
		require.NotNil(t, s.VerifiedAt)
		assert.True(t, s.VerifiedAt.Equal(f.clock))
		assert.Equal(t, VerifiedTooRecently, s.Eligibility, "a fresh number waits out the cooling-off")
		assert.Equal(t, f.clock.Add(24*time.Hour), *s.RedeemFrom)
		assert.Nil(t, s.CodeExpiresAt, "the code is spent")
	})
}

func TestTheCodeGoesToTheNumberGivenWhenSending(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		_, err := f.svc.Validate(f.ctx, f.acme, pid, "202 555 0143", "", "code")
		require.NoError(t, err)

		code := f.send(f.acme, pid, "+1 (416) 555-0199")
		s := f.status(f.acme, pid)
		assert.Equal(t, "+14165550199", s.MobileNumber, "the number given replaces the one on file")
		assert.Equal(t, "CA", s.Country)

		s, err = f.svc.Check(f.ctx, f.acme, pid, "", code)
		require.NoError(t, err, "the number on file is checked when none is given")
		assert.Equal(t, "+14165550199", s.VerifiedNumber)
	})
}

func TestSendingNeedsANumber(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		_, err := f.svc.Send(f.ctx, f.acme, pid, "en", "", "", "country")
		e := requireAPIError(t, err, http.StatusBadRequest, "no_mobile_number")
		assert.Equal(t, "phone", e.Details[0].Field)
		_, err = f.svc.Send(f.ctx, f.acme, pid, "en", "0151 23456789", "DE", "country")
		e = requireAPIError(t, err, http.StatusBadRequest, "invalid")
		assert.Equal(t, "error.mobile_phone_international", e.ID)
		assert.Empty(t, f.sms.Messages())
	})
}

func TestANumberTheProviderRefusesIsTheMembersToChangeAndLeavesNoCode(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.sms.Refuse("+12025550100", 21614)
		_, err := f.svc.Send(f.ctx, f.acme, pid, "en", "202 555 0100", "", "country")
		e := requireAPIError(t, err, http.StatusBadRequest, "sms_undeliverable")
		assert.Equal(t, "phone", e.Details[0].Field)
		var n int64
		require.NoError(t, f.db.Model(&Code{}).Where("participant_id = ?", pid).Count(&n).Error)
		assert.Zero(t, n, "the unsent code is forgotten")

		f.sms.FailNext(smstest.Failure{Status: 500, Code: 20500, Message: "Internal Server Error"})
		_, err = f.svc.Send(f.ctx, f.acme, pid, "en", "202 555 0101", "", "country")
		e = requireAPIError(t, err, http.StatusServiceUnavailable, "")
		assert.Equal(t, "error.mobile_sms_failed", e.ID)
		assert.Contains(t, e.Err.Error(), "send code to +12025550101")
	})
}

func TestAWronglyShapedCodeIsRefusedWithoutCostingAnAttempt(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.send(f.acme, pid, "202 555 0143")
		for _, bad := range []string{"", "12345", "1234567", "12a456", "１２３４５６"} {
			_, err := f.svc.Check(f.ctx, f.acme, pid, "", bad)
			e := requireAPIError(t, err, http.StatusBadRequest, "invalid")
			assert.Equal(t, "code", e.Details[0].Field, "%q", bad)
		}
		var c Code
		require.NoError(t, f.db.Where("participant_id = ?", pid).Take(&c).Error)
		assert.Zero(t, c.Attempts)
	})
}

func TestACodeForAnotherNumberDoesNotVerifyThisOne(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		code := f.send(f.acme, pid, "202 555 0143")
		_, err := f.svc.Check(f.ctx, f.acme, pid, "202 555 0144", code)
		requireAPIError(t, err, http.StatusBadRequest, "code_not_requested")

		other := f.member(f.acme)
		_, err = f.svc.Check(f.ctx, f.acme, other, "202 555 0143", code)
		requireAPIError(t, err, http.StatusBadRequest, "code_not_requested")
		assert.Equal(t, NotVerified, f.eligibility(f.acme, other), "another member's code is not theirs")
		assert.Equal(t, StatusPending, f.status(f.acme, pid).VerificationStatus, "nor does it verify the sender's number")
	})
}
