package referrals

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm/clause"
)

// DemoInvite is an invitation of the demo data, written as it would have become by now:
// sent SentAgo, accepted by AcceptedBy (a participant id) AcceptedAgo, or archived by the
// member ArchivedAgo. Its fixed id makes loading the demo again change nothing.
type DemoInvite struct {
	ID          string
	Email       string
	Message     string
	SentAgo     time.Duration
	AcceptedBy  string
	AcceptedAgo time.Duration
	ArchivedAgo time.Duration
}

// SeedInvites writes a referrer's demo invitations (no mail is sent; an existing id is kept as
// it is). A friend who joined gets their own card; no reward is paid until they complete the
// welcome campaign.
func (s *Service) SeedInvites(ctx context.Context, panel *web.Panel, referrerID string, invites []DemoInvite) error {
	referrer, err := s.members.Contact(ctx, referrerID)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	for _, d := range invites {
		r := &Referral{
			ID: d.ID, PanelID: panel.ID, ReferrerID: referrerID, Email: d.Email, EmailKey: NormalizeEmail(d.Email), Message: d.Message,
			LanguageCode: referrer.LanguageCode, SenderKey: digest(NormalizeEmail(referrer.Email)), Sends: 1,
			SentAt: now.Add(-d.SentAgo), LastSentAt: now.Add(-d.SentAgo),
		}
		if d.AcceptedBy != "" {
			friend, err := s.members.Contact(ctx, d.AcceptedBy)
			if err != nil {
				return err
			}
			at := now.Add(-d.AcceptedAgo)
			r.InviteeID, r.InviteeName, r.ReferrerName, r.AcceptedAt = &d.AcceptedBy, strings.TrimSpace(friend.FirstName), strings.TrimSpace(referrer.FirstName), &at
		}
		if d.ArchivedAgo > 0 {
			at := now.Add(-d.ArchivedAgo)
			r.ArchivedAt, r.ArchivedReason = &at, ArchivedByMember
		}
		if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(r).Error; err != nil {
			return fmt.Errorf("demo referral %s: %w", d.ID, err)
		}
	}
	return s.members.SetEligibleToRefer(ctx, referrerID)
}

// EnsureAffiliate creates a partner code unless the panel has it (demo data).
func (s *Service) EnsureAffiliate(ctx context.Context, panel *web.Panel, in NewAffiliate) error {
	if _, err := s.affiliate(ctx, panel, in.Code); err == nil {
		return nil
	} else if !errors.Is(err, web.ErrNotFound) {
		return err
	}
	_, err := s.CreateAffiliate(ctx, panel, in)
	return err
}
