package mobile

import "time"

// The spec's eligibleToRedeem values (section 4, "Mobile verification values").
// Redemption is allowed for Yes and Skip only (CanRedeem); every other value names what the
// member must do first.
const (
	// Yes: the number on file was verified long enough ago and recently enough.
	Yes = "yes"
	// NotVerified: no number was ever given (the spec's initial value).
	NotVerified = "not-verified"
	// NotVerifiedMobile: a number is on file but was never verified.
	NotVerifiedMobile = "not-verified-mobile"
	// VerifiedTooRecently: the number was first verified less than the panel's cooling-off
	// period ago (24 hours by default), so a fresh SIM cannot cash out at once.
	VerifiedTooRecently = "verified-too-recently"
	// Reverify: the last verification is older than the panel's re-verification period (180
	// days by default), or the member replaced their verified number with another one.
	Reverify = "reverify"
	// Skip: the panel does not ask for a verified mobile number.
	Skip = "skip"
)

// CanRedeem tells whether an eligibility value lets the member redeem.
func CanRedeem(eligibility string) bool { return eligibility == Yes || eligibility == Skip }

// The spec's verificationStatus values.
const (
	StatusNotVerified = "not-verified" // no number on file
	StatusPending     = "pending"      // the number on file is not verified
	StatusVerified    = "verified"     // the number on file is the verified number
)

// eligibility decides a member's value from the panel's rules and their numbers.
func eligibility(s Settings, p *Phone, now time.Time) string {
	switch {
	case !s.RequireVerification:
		return Skip
	case p == nil || p.VerifiedNumber == nil:
		if p != nil && p.MobileNumber != "" {
			return NotVerifiedMobile
		}
		return NotVerified
	case p.MobileNumber != *p.VerifiedNumber, reverifyDue(s, p, now):
		return Reverify
	case p.VerifiedSince != nil && now.Before(p.VerifiedSince.Add(s.coolingOff())):
		return VerifiedTooRecently
	}
	return Yes
}

// reverifyDue tells whether the member's last verification is older than the panel allows.
func reverifyDue(s Settings, p *Phone, now time.Time) bool {
	return p != nil && p.VerifiedAt != nil && !now.Before(p.VerifiedAt.Add(s.reverifyAfter()))
}

// verificationStatus is the spec's verificationStatus of a member's numbers.
func verificationStatus(p *Phone) string {
	switch {
	case p == nil || p.MobileNumber == "":
		return StatusNotVerified
	case p.verified():
		return StatusVerified
	}
	return StatusPending
}
