package referrals

import (
	"context"
	"errors"
	"strings"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// The join hooks (accounts.JoinHooks): what the join page shows of an invitation or partner
// code, the self-referral refusal before a sign-up through an invitation, and, once a member
// joined, linking them to their referrer and their partner.

var _ accounts.JoinHooks = (*Service)(nil)

// Invitation describes an invitation for the join page: who sent it and to whom; Expired when
// it can no longer be used (accepted, archived, or past the panel's expiry).
func (s *Service) Invitation(ctx context.Context, panel *web.Panel, inviteID, lang string) (*accounts.Invitation, error) {
	if _, err := uuid.Parse(inviteID); err != nil {
		return nil, nil
	}
	r, err := s.store.Referral(ctx, panel.ID, inviteID)
	if errors.Is(err, web.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return nil, err
	}
	inv := &accounts.Invitation{Email: r.Email}
	if state, _, _ := r.State(st, s.now().UTC()); state != StatePending || !st.Enabled {
		inv.Expired = true
		return inv, nil
	}
	c, err := s.members.Contact(ctx, r.ReferrerID)
	if err != nil {
		return nil, err
	}
	if c.Status == accounts.StatusActive {
		inv.InviterName = strings.TrimSpace(c.FirstName)
	}
	return inv, nil
}

// Partner describes a partner code for the join page (nil for none such).
func (s *Service) Partner(ctx context.Context, panel *web.Panel, code, lang string) (*accounts.Partner, error) {
	a, err := s.affiliate(ctx, panel, code)
	if errors.Is(err, web.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p := &accounts.Partner{Name: a.Partner}
	if a.BonusMinor > 0 {
		p.Bonus = web.FormatMoney(a.BonusMinor, a.CurrencyCode, lang)
	}
	return p, nil
}

// CheckJoin refuses a sign-up through an invitation by its own sender: the address it joins
// with is the sender's (normalised, so plus tags and Gmail's dots do not help), or it joins
// from the browser the invitation was sent from (the device cookie). 409 self_referral.
func (s *Service) CheckJoin(ctx context.Context, panel *web.Panel, j accounts.Joined) error {
	if j.InviteID == "" {
		return nil
	}
	if _, err := uuid.Parse(j.InviteID); err != nil {
		return nil
	}
	r, err := s.store.Referral(ctx, panel.ID, j.InviteID)
	if errors.Is(err, web.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if selfReferral(r, j) {
		return refusal(fiber.StatusConflict, "error.referral_self_join", "self_referral", nil)
	}
	return nil
}

func selfReferral(r *Referral, j accounts.Joined) bool {
	if r.SenderKey != "" && digest(NormalizeEmail(j.Email)) == r.SenderKey {
		return true
	}
	return r.SenderDevice != "" && j.Device != "" && digest(j.Device) == r.SenderDevice
}

// Joined links a new member to the invitation and the partner code they came with: the
// invitation becomes accepted (once: a link is used by one friend), its reward is paid when
// the panel pays on joining, and the partner's bonus is paid. It also applies the panel's
// eligibility rule to the new member.
func (s *Service) Joined(ctx context.Context, panel *web.Panel, j accounts.Joined) error {
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return err
	}
	var errs []error
	if j.InviteID != "" && st.Enabled {
		errs = append(errs, s.accept(ctx, panel, st, j))
	}
	if j.Affiliate != "" {
		if _, err := s.attribute(ctx, panel, j.ParticipantID, j.Affiliate, ViaJoin, j.LanguageCode); err != nil && !isRefusal(err) {
			errs = append(errs, err)
		}
	}
	if eligible(st, false, j.EmailValidated) {
		errs = append(errs, s.members.SetEligibleToRefer(ctx, j.ParticipantID))
	}
	return errors.Join(errs...)
}

// isRefusal: a 4xx, which a hook only notes (an unknown code, an expired invitation).
func isRefusal(err error) bool {
	var e *web.Error
	return errors.As(err, &e) && e.Status < 500
}

// accept links the new member to the invitation they joined through, if it is still pending
// and not their own.
func (s *Service) accept(ctx context.Context, panel *web.Panel, st Settings, j accounts.Joined) error {
	if _, err := uuid.Parse(j.InviteID); err != nil {
		return nil
	}
	r, err := s.store.Referral(ctx, panel.ID, j.InviteID)
	if errors.Is(err, web.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if selfReferral(r, j) || r.ReferrerID == j.ParticipantID {
		return nil
	}
	referrer, err := s.members.Contact(ctx, r.ReferrerID)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	var accepted bool
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		accepted, err = acceptIn(tx, r.ID, j.ParticipantID, strings.TrimSpace(j.FirstName), strings.TrimSpace(referrer.FirstName), now, now.Add(-st.expiry()))
		return err
	})
	if err != nil || !accepted {
		return err
	}
	if st.RewardWhen == RewardOnJoin {
		return s.reward(ctx, panel, st, r.ID)
	}
	return nil
}
