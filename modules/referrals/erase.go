package referrals

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// EraseMember erases what the module keeps about a member whose account closes, in the
// closing transaction (tx): the friends they invited are other people, so their addresses,
// the member's messages and their names go from the member's invitations (whose links stop
// working: pending ones are archived); on the invitation they joined through, their own
// address and name go; the digests of their address and browser go; their dismissed cards go.
// What remains is what accounting needs: who referred whom (participant ids), the rewards and
// bonuses paid with their ledger entries, and their partner attribution.
func (m *Module) EraseMember(ctx context.Context, tx *gorm.DB, participantID string) error {
	return eraseMember(tx.WithContext(ctx), participantID, m.svc.now().UTC())
}

func eraseMember(tx *gorm.DB, participantID string, now time.Time) error {
	// The member's own invitations: pending ones end, then every friend's data goes.
	if err := tx.Model(&Referral{}).Where("referrer_id = ? AND accepted_at IS NULL AND archived_at IS NULL", participantID).
		Updates(map[string]any{"archived_at": now, "archived_reason": ArchivedClosed}).Error; err != nil {
		return fmt.Errorf("erase referrals of %s: archive: %w", participantID, err)
	}
	if err := tx.Model(&Referral{}).Where("referrer_id = ?", participantID).
		Updates(map[string]any{"email": "", "email_key": "", "message": "", "invitee_name": "", "referrer_name": "", "sender_key": "", "sender_device": ""}).Error; err != nil {
		return fmt.Errorf("erase referrals of %s: %w", participantID, err)
	}
	// The invitation they joined through: it held their address and their name.
	if err := tx.Model(&Referral{}).Where("invitee_id = ?", participantID).
		Updates(map[string]any{"email": "", "email_key": "", "invitee_name": ""}).Error; err != nil {
		return fmt.Errorf("erase the referral of %s: %w", participantID, err)
	}
	if err := tx.Where("participant_id = ?", participantID).Delete(&Dismissal{}).Error; err != nil {
		return fmt.Errorf("erase dismissed blades of %s: %w", participantID, err)
	}
	return nil
}
