package referrals

import (
	"context"
	"fmt"
	"strings"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// RewardKey is the ledger key of an invitation's reward: paid once per referral.
func RewardKey(referralID string) string { return "referral:" + referralID }

// WelcomeCompleted hears that a member completed their panel's welcome campaign (the survey
// engine's WelcomeDone, after accounts records it): the panel's eligibility rule is applied
// to them, and the friend who invited them is rewarded when the panel rewards then. Any
// number of calls for one member pay once.
func (s *Service) WelcomeCompleted(ctx context.Context, participantID string) error {
	c, err := s.members.Contact(ctx, participantID)
	if err != nil {
		return err
	}
	panel, err := s.panelOf(ctx, c.PanelID)
	if err != nil {
		return err
	}
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return err
	}
	c.WelcomeCompleted = true // what this call says, whatever was read
	if err := s.evaluate(ctx, st, c); err != nil {
		return err
	}
	if !st.Enabled || st.RewardWhen != RewardOnWelcome {
		return nil
	}
	r, err := s.store.ReferralOfInvitee(ctx, participantID)
	if err != nil || r == nil || r.RewardedAt != nil {
		return err
	}
	return s.reward(ctx, panel, st, r.ID)
}

// reward pays an accepted invitation's reward to its referrer, once: the invitation is marked
// rewarded (a conditional update) and the referrer credited (ledger key referral:<id>) in one
// transaction, so of any number of concurrent calls one pays and the others find it paid.
func (s *Service) reward(ctx context.Context, panel *web.Panel, st Settings, referralID string) error {
	if st.RewardMinor <= 0 {
		return nil
	}
	if !strings.EqualFold(st.CurrencyCode, panel.CurrencyCode) {
		// The panel changed currency since its reward was set: pay nothing rather than a wrong
		// amount; tenant apply sets it again in the new currency.
		s.log.Warn("referrals: the reward is in another currency than the panel's; not paid", "panel", panel.Key, "reward_currency", st.CurrencyCode)
		return nil
	}
	r, err := s.store.Referral(ctx, panel.ID, referralID)
	if err != nil {
		return err
	}
	referrer, err := s.members.Contact(ctx, r.ReferrerID)
	if err != nil {
		return err
	}
	if referrer.Status == accounts.StatusClosed {
		return nil
	}
	lang := web.ResolveLanguage(panel, r.LanguageCode, referrer.LanguageCode)
	title := s.translate(lang, "referrals.ledger_title", nil)
	return s.inTx(ctx, func(tx *gorm.DB) error {
		claimed, err := claimReward(tx, r.ID, st.RewardMinor, s.now().UTC())
		if err != nil || !claimed {
			return err
		}
		entry, _, err := s.ledger.CreditTx(tx, wallet.Movement{
			Panel: panel, ParticipantID: r.ReferrerID, Amount: st.RewardMinor, Currency: panel.CurrencyCode,
			Origin: wallet.OriginManual, Key: RewardKey(r.ID), Title: title,
		})
		if err != nil {
			return fmt.Errorf("pay referral %s: %w", r.ID, err)
		}
		return rewardEntry(tx, r.ID, entry.ID)
	})
}

// Settle pays the rewards of a referrer's accepted invitations that are due but unpaid (the
// welcome hook failed, say, or the panel set its reward since): the referrer's page and stats
// ask, so a reward missed once is paid the next time they look.
func (s *Service) Settle(ctx context.Context, panel *web.Panel, referrerID string) error {
	st, err := s.Settings(ctx, panel)
	if err != nil || !st.Enabled || st.RewardMinor <= 0 {
		return err
	}
	due, err := s.store.unrewarded(ctx, panel.ID, referrerID)
	if err != nil {
		return err
	}
	for _, r := range due {
		if st.RewardWhen == RewardOnWelcome {
			c, err := s.members.Contact(ctx, *r.InviteeID)
			if err != nil {
				return err
			}
			if !c.WelcomeCompleted {
				continue
			}
		}
		if err := s.reward(ctx, panel, st, r.ID); err != nil {
			return err
		}
	}
	return nil
}

// unrewarded lists a referrer's accepted invitations without a reward whose friend is still a
// member (at most 50 at a time).
func (s *Store) unrewarded(ctx context.Context, panelID, referrerID string) ([]Referral, error) {
	var out []Referral
	err := s.db.WithContext(ctx).Where("panel_id = ? AND referrer_id = ? AND accepted_at IS NOT NULL AND rewarded_at IS NULL AND invitee_id IS NOT NULL", panelID, referrerID).
		Order("accepted_at").Limit(50).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("unrewarded referrals of %s: %w", referrerID, err)
	}
	return out, nil
}
