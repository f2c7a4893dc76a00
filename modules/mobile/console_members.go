package mobile

import (
	"context"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
)

// MemberMobile is a member's mobile status as the operator console's member page shows it
// (issue 21, part 5): whether the number on file is verified, and that number masked.
type MemberMobile struct {
	Status       string // StatusNotVerified, StatusPending or StatusVerified
	Verified     bool
	MaskedNumber string // "" when there is no number on file
	VerifiedAt   *time.Time
	Eligibility  string // to redeem: the eligibility the redemptions module reads
}

// MemberMobile is a panel's member's mobile status, the number masked here so the whole
// number never leaves the module for the console.
func (m *Module) MemberMobile(ctx context.Context, panel *web.Panel, participantID string) (MemberMobile, error) {
	st, err := m.svc.Status(ctx, panel, participantID)
	if err != nil {
		return MemberMobile{}, err
	}
	out := MemberMobile{Status: st.VerificationStatus, Verified: st.VerificationStatus == StatusVerified, MaskedNumber: MaskNumber(st.MobileNumber), Eligibility: st.Eligibility}
	if out.Verified {
		out.VerifiedAt = st.VerifiedAt
	}
	return out, nil
}

// MaskNumber keeps the digits of an E.164 number before its last ten (the country code of a
// ten-digit national number; one to three) and its last two: +1••••••••43.
func MaskNumber(e164 string) string {
	if e164 == "" {
		return ""
	}
	digits := strings.TrimPrefix(e164, "+")
	if len(digits) <= 4 {
		return "+" + strings.Repeat("•", len(digits))
	}
	keep := 1
	if len(digits) > 10 {
		keep = len(digits) - 10 // the country code of a full-length number
	}
	if keep > 3 {
		keep = 3
	}
	return "+" + digits[:keep] + strings.Repeat("•", len(digits)-keep-2) + digits[len(digits)-2:]
}
