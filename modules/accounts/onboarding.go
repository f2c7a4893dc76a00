package accounts

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// What accounts does for onboarding (modules/onboarding), which answers a panel's onboarding
// campaigns with a visitor before they become a member: a new provider identity waits in
// onboarding instead of joining; onboarding's completion makes it a member here; and a member
// of a panel with direct onboarding whose email is not validated is sent there first.

// Onboarding is what accounts asks of the onboarding module.
type Onboarding interface {
	// Available tells whether the panel has onboarding campaigns for a new identity to answer.
	Available(ctx context.Context, panel *web.Panel) (bool, error)
}

// SetOnboarding plugs in the onboarding module (it is built after accounts).
func (m *Module) SetOnboarding(o Onboarding) { m.svc.onboarding = o }

// onboardingCompletedKey is the profile metadata key onboarding sets on the member it finishes.
const onboardingCompletedKey = "onboardingCompleted"

// OnboardingDone tells whether the member finished the panel's onboarding.
func OnboardingDone(m *web.Member) bool {
	done, _ := m.Metadata[onboardingCompletedKey].(bool)
	return done
}

// NeedsOnboarding: a member of a panel with direct onboarding whose email is not validated
// answers the onboarding campaigns first (spec section 2, the exception to the validation gate).
func NeedsOnboarding(panel *web.Panel, m *web.Member) bool {
	return panel.DirectOnboarding && !m.EmailValidated && !OnboardingDone(m)
}

// onboardingAvailable asks the onboarding module, when there is one.
func (s *Service) onboardingAvailable(ctx context.Context, panel *web.Panel) (bool, error) {
	if s.onboarding == nil {
		return false, nil
	}
	return s.onboarding.Available(ctx, panel)
}

// waitInOnboarding keeps a new identity as pending with a public id, for onboarding to find.
func (s *Service) waitInOnboarding(ctx context.Context, pending *SignInPending, out *SignInOutcome) (*SignInOutcome, error) {
	secret := randomToken()
	now := s.now().UTC()
	pending.ID, pending.CreatedAt, pending.ExpiresAt = hashToken(secret), now, now.Add(OnboardingTTL)
	pending.UserID, pending.Onboarding = uuid.NewString(), true
	if err := s.store.CreatePending(ctx, pending); err != nil {
		return nil, err
	}
	out.Pending, out.OnboardingUserID = secret, pending.UserID
	return out, nil
}

// OnboardingTTL is how long an identity may take over onboarding before it must sign in again
// (each answer moves the onboarding's own expiry on by as much).
const OnboardingTTL = 24 * time.Hour

// WaitingIdentity is a provider identity that waits in onboarding in this browser.
type WaitingIdentity struct {
	Provider      social.Provider
	UserID        string
	Email         string // the provider's, "" when it gave none
	EmailVerified bool
	// Redirect is the local path where the sign-in started ("" for none).
	Redirect string
	// Domain is the provider's own domain: onboarding may return the visitor to an https
	// address on it (spec: the redirect query rule).
	Domain string
	// LinkEmail is the account this identity is to be linked to (its password asked), once
	// onboarding's completion found its email in use.
	LinkEmail string
	// LinkedTo is the account holder the identity was linked to with that password ("" until
	// then): onboarding then records its answers as that member's.
	LinkedTo string
}

// WaitingIdentity finds the identity waiting in onboarding under provider and userID, which
// only the browser the provider sent back holds (the pending cookie). Anything else, an expired
// wait among it, is the sign-in expired error.
func (m *Module) WaitingIdentity(c fiber.Ctx, provider, userID string) (*WaitingIdentity, error) {
	p, err := m.waiting(c, provider, userID)
	if err != nil {
		return nil, err
	}
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil {
		return nil, err
	}
	w := &WaitingIdentity{Provider: social.Provider(p.Provider), UserID: p.UserID, Email: p.Email, EmailVerified: p.EmailVerified, Redirect: p.Redirect}
	if pc, ok := cfg.provider(w.Provider); ok {
		w.Domain = pc.Domain()
	}
	if p.AccountHolderID != nil {
		ah, err := m.svc.store.Holder(c.Context(), *p.AccountHolderID)
		if err != nil {
			return nil, err
		}
		w.LinkEmail = ah.Email
		conn, err := m.svc.store.ConnectionBySubject(c.Context(), p.PanelID, p.Provider, p.Subject)
		switch {
		case err == nil && conn.AccountHolderID == ah.ID:
			w.LinkedTo = ah.ID
		case err != nil && !errors.Is(err, ErrNotFound):
			return nil, err
		}
	}
	return w, nil
}

// ForgetWaiting ends the wait of an identity whose onboarding is over (it was linked).
func (m *Module) ForgetWaiting(c fiber.Ctx, provider, userID string) error {
	p, err := m.waiting(c, provider, userID)
	if err != nil {
		return nil // gone already
	}
	m.kit.ClearCookie(c, pendingCookie)
	return m.svc.store.DeletePending(c.Context(), p.ID)
}

func (m *Module) waiting(c fiber.Ctx, provider, userID string) (*SignInPending, error) {
	p, err := m.svc.pending(c.Context(), web.PanelOf(c), c.Cookies(pendingCookie))
	if err != nil {
		return nil, err
	}
	if !p.Onboarding || p.Provider != provider || p.UserID != userID {
		return nil, errSignInExpired()
	}
	return p, nil
}

// JoinFromOnboarding makes the identity waiting in onboarding a member with email (the
// provider's when email is ""), links the identity, and signs them in (the session cookie).
// An email an account already has is the spec's email_already_used (409): the identity is then
// to be linked to that account with its password (/sign-in/link, which returns to /onboarding).
func (m *Module) JoinFromOnboarding(c fiber.Ctx, provider, userID, email string) (*Issued, error) {
	p, err := m.waiting(c, provider, userID)
	if err != nil {
		return nil, err
	}
	panel := web.PanelOf(c)
	email = strings.TrimSpace(email)
	if email == "" {
		email = p.Email
	}
	normalized := NormalizeEmail(email)
	switch {
	case normalized == "":
		return nil, web.Invalid("email", "error.email_needed", nil).WithCode("email_required")
	case !validEmail(normalized):
		return nil, web.Invalid("email", "error.invalid_email", nil)
	}
	taken := func(holderID string) error {
		if err := m.svc.store.SetPendingLink(c.Context(), p.ID, holderID, "/onboarding"); err != nil {
			return err
		}
		return web.Fail(fiber.StatusConflict, "error.email_taken", nil).WithCode("email_already_used")
	}
	if ah, err := m.svc.store.HolderByEmail(c.Context(), panel.ID, normalized); err == nil {
		return nil, taken(ah.ID)
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	issued, err := m.svc.joinWith(c.Context(), panel, p, email, p.Name, web.LocaleOf(c), client(c))
	if errors.Is(err, ErrEmailTaken) { // joined by another request meanwhile
		ah, herr := m.svc.store.HolderByEmail(c.Context(), panel.ID, normalized)
		if herr != nil {
			return nil, herr
		}
		return nil, taken(ah.ID)
	}
	if err != nil {
		return nil, err
	}
	if err := m.svc.store.DeletePending(c.Context(), p.ID); err != nil {
		return nil, err
	}
	m.kit.ClearCookie(c, pendingCookie)
	m.setTokenCookie(c, issued.Token)
	web.SetMember(c, issued.Member)
	return issued, nil
}

// MarkOnboardingCompleted records in the member's profile that they finished onboarding.
func (m *Module) MarkOnboardingCompleted(ctx context.Context, participantID string) error {
	return m.svc.setMetadataFlag(ctx, participantID, onboardingCompletedKey)
}

// RequestValidationFor mails the member a link to validate their email (nothing when it is
// validated), with the usual limits.
func (m *Module) RequestValidationFor(c fiber.Ctx, member *web.Member) error {
	return m.svc.RequestValidationEmail(c.Context(), web.PanelOf(c), member, web.LocaleOf(c), m.link(c, "", "/validate-email/confirm"))
}

// ProviderButtons are the sign-in buttons of the panel's providers, for other modules' pages.
func (m *Module) ProviderButtons(c fiber.Ctx, redirect string) ([]views.ProviderButton, error) {
	return m.providerButtons(c, redirect)
}

// MarkWelcomeCompleted sets metadata.welcomeCampaignCompleted once (the campaigns module calls it).
func (s *Service) MarkWelcomeCompleted(ctx context.Context, participantID string) error {
	return s.setMetadataFlag(ctx, participantID, "welcomeCampaignCompleted")
}

// setMetadataFlag sets metadata.KEY to true in the member's profile, once.
func (s *Service) setMetadataFlag(ctx context.Context, participantID, key string) error {
	p, err := s.store.Participant(ctx, participantID)
	if err != nil {
		return err
	}
	if done, _ := p.Metadata[key].(bool); done {
		return nil
	}
	md := p.Metadata
	if md == nil {
		md = Metadata{}
	}
	md[key] = true
	return s.store.SetMetadata(ctx, participantID, md)
}
