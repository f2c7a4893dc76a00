package referrals

import (
	"context"

	"github.com/canvass/canvass/modules/web"
)

// MemberReferrals is a member's referrals as the operator console's member page shows them
// (issue 21, part 5): their invitations counted, and whether they joined through one.
type MemberReferrals struct {
	Summary
	// Invited tells whether the member joined through another member's invitation.
	Invited bool
}

// MemberReferrals counts a panel's member's invitations (never the friends' addresses) and
// tells whether they were invited themselves.
func (m *Module) MemberReferrals(ctx context.Context, panel *web.Panel, participantID string) (MemberReferrals, error) {
	sum, err := m.svc.Stats(ctx, panel, &web.Member{ParticipantID: participantID})
	if err != nil {
		return MemberReferrals{}, err
	}
	out := MemberReferrals{Summary: sum}
	r, err := m.svc.store.ReferralOfInvitee(ctx, participantID)
	if err != nil {
		return MemberReferrals{}, err
	}
	out.Invited = r != nil && r.PanelID == panel.ID
	return out, nil
}
