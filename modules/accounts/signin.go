package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// A sign-in sent to a provider must come back within attemptTTL; an identity waiting for a
// password or an email waits pendingTTL.
const (
	attemptTTL = 10 * time.Minute
	pendingTTL = 30 * time.Minute
)

// randomToken is 32 random bytes, URL-safe: states, nonces, PKCE verifiers, browser bindings.
func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Errorf("crypto/rand: %w", err)) // the platform's randomness is gone: nothing is safe
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// SignInStart is where to send the browser, and the secret the browser keeps (a cookie) so
// that only it can finish this sign-in.
type SignInStart struct {
	URL     string
	Browser string
}

// StartSignIn records a sign-in and builds the provider's authorization address. redirectURI
// is this panel's return address; redirect is where the member goes afterwards.
func (s *Service) StartSignIn(ctx context.Context, panelID string, cfg social.Config, intent, redirectURI, redirect string, participantID *string) (*SignInStart, error) {
	state, nonce, verifier, browser := randomToken(), randomToken(), randomToken(), randomToken()
	now := s.now().UTC()
	a := &SignInAttempt{
		ID: hashToken(state), PanelID: panelID, Provider: string(cfg.Provider), Intent: intent, Nonce: nonce,
		Verifier: verifier, BrowserHash: hashToken(browser), ParticipantID: participantID, Redirect: redirect,
		CreatedAt: now, ExpiresAt: now.Add(attemptTTL),
	}
	authURL, err := s.social.AuthURL(ctx, cfg, redirectURI, state, nonce, verifier)
	if err != nil {
		return nil, providerError(err)
	}
	if err := s.store.CreateAttempt(ctx, a); err != nil {
		return nil, err
	}
	return &SignInStart{URL: authURL, Browser: browser}, nil
}

// providerError maps the adapter's errors to the catalogue: the provider said no (401), it
// could not be reached (502), or the panel's configuration is incomplete (500).
func providerError(err error) error {
	switch {
	case errors.Is(err, social.ErrRefused):
		return &web.Error{Status: fiber.StatusUnauthorized, ID: "error.sign_in_refused", Err: err}
	case errors.Is(err, social.ErrUnavailable):
		return &web.Error{Status: fiber.StatusBadGateway, ID: "error.sign_in_unavailable", Err: err}
	}
	return err
}

// SignInReturn is what came back from the provider to the return address.
type SignInReturn struct {
	State, Code, Browser, RedirectURI string
}

// SignInOutcome is how a return ended: signed in (Issued), connected (Connected), or waiting
// for the member (Pending: a password to link an existing account, or an email to join).
type SignInOutcome struct {
	Issued    *Issued
	Connected bool
	Pending   string // the secret for the pending cookie
	NeedsLink bool   // Pending waits for the password of the account with that email
	Redirect  string
	Provider  social.Provider
	// OnboardingUserID: the new identity waits in onboarding under this id (with Pending).
	OnboardingUserID string
}

// errSignInExpired: no live attempt for this state in this browser (expired, spent, forged).
func errSignInExpired() *web.Error {
	return web.Fail(fiber.StatusBadRequest, "error.sign_in_expired", nil)
}

// finishSignIn spends the attempt and trades the code for the identity. A known identity signs
// in; a new one joins when the provider vouches for an email nobody here uses; an email that
// an account already has is linked only once that account's password is entered.
func (s *Service) finishSignIn(ctx context.Context, panel *web.Panel, cfg social.Config, in SignInReturn, lang string, client Client) (*SignInOutcome, error) {
	if in.State == "" || in.Code == "" || in.Browser == "" {
		return nil, errSignInExpired()
	}
	now := s.now().UTC()
	a, err := s.store.SpendAttempt(ctx, hashToken(in.State), now)
	if errors.Is(err, ErrNotFound) {
		return nil, errSignInExpired()
	}
	if err != nil {
		return nil, err
	}
	if a.PanelID != panel.ID || a.Provider != string(cfg.Provider) ||
		subtle.ConstantTimeCompare([]byte(a.BrowserHash), []byte(hashToken(in.Browser))) != 1 {
		return nil, errSignInExpired()
	}
	id, err := s.social.Exchange(ctx, cfg, in.RedirectURI, in.Code, a.Nonce, a.Verifier)
	if err != nil {
		return nil, providerError(err)
	}
	out := &SignInOutcome{Redirect: a.Redirect, Provider: cfg.Provider}
	if a.Intent == intentConnect {
		if a.ParticipantID == nil {
			return nil, errSignInExpired()
		}
		p, err := s.store.Participant(ctx, *a.ParticipantID)
		if err != nil {
			return nil, err
		}
		if err := s.connect(ctx, panel, p.AccountHolderID, id); err != nil {
			return nil, err
		}
		out.Connected = true
		return out, nil
	}
	return s.signInAs(ctx, panel, id, a.Redirect, lang, client, out)
}

func (s *Service) signInAs(ctx context.Context, panel *web.Panel, id *social.Identity, redirect, lang string, client Client, out *SignInOutcome) (*SignInOutcome, error) {
	conn, err := s.store.ConnectionBySubject(ctx, panel.ID, string(id.Provider), id.Subject)
	switch {
	case err == nil:
		ah, err := s.store.Holder(ctx, conn.AccountHolderID)
		if err != nil {
			return nil, err
		}
		if ah.Status == StatusClosed {
			return nil, web.Fail(fiber.StatusUnauthorized, "error.login_failed", nil)
		}
		p, err := s.store.ParticipantOf(ctx, ah.ID)
		if err != nil {
			return nil, err
		}
		if out.Issued, err = s.issue(ctx, ah, p, client); err != nil {
			return nil, err
		}
		return out, nil
	case !errors.Is(err, ErrNotFound):
		return nil, err
	}
	email := NormalizeEmail(id.Email)
	pending := &SignInPending{
		ID: "", PanelID: panel.ID, Provider: string(id.Provider), Subject: id.Subject, Email: strings.TrimSpace(id.Email),
		EmailVerified: id.EmailVerified && validEmail(email), Name: truncate(strings.TrimSpace(id.Name), MaxNameLength), Redirect: redirect,
	}
	onboarding, err := s.onboardingAvailable(ctx, panel)
	if err != nil {
		return nil, err
	}
	if validEmail(email) {
		ah, err := s.store.HolderByEmail(ctx, panel.ID, email)
		switch {
		case err == nil:
			pending.AccountHolderID = &ah.ID
			out.NeedsLink = true
		case !errors.Is(err, ErrNotFound):
			return nil, err
		case onboarding:
			// A new identity answers the onboarding campaigns before it becomes a member.
			return s.waitInOnboarding(ctx, pending, out)
		case pending.EmailVerified:
			// The provider vouches for an email nobody here uses: join at once.
			issued, err := s.joinWith(ctx, panel, pending, pending.Email, pending.Name, lang, client)
			if errors.Is(err, ErrEmailTaken) { // joined by another request meanwhile: link instead
				break
			}
			if err != nil {
				return nil, err
			}
			out.Issued = issued
			return out, nil
		}
	}
	if onboarding && pending.AccountHolderID == nil {
		return s.waitInOnboarding(ctx, pending, out) // the email is asked for when onboarding ends
	}
	secret := randomToken()
	now := s.now().UTC()
	pending.ID, pending.CreatedAt, pending.ExpiresAt = hashToken(secret), now, now.Add(pendingTTL)
	if err := s.store.CreatePending(ctx, pending); err != nil {
		return nil, err
	}
	out.Pending = secret
	return out, nil
}

// joinWith creates a member signed up through a provider: no password (they sign in with the
// provider, or set one through forgot-password), the email validated when the provider vouched
// for that same address.
func (s *Service) joinWith(ctx context.Context, panel *web.Panel, p *SignInPending, email, firstName, lang string, client Client) (*Issued, error) {
	normalized := NormalizeEmail(email)
	now := s.now().UTC()
	if lang == "" || !panel.Offers(lang) {
		lang = panel.DefaultLanguage
	}
	ah := &AccountHolder{
		ID: uuid.NewString(), PanelID: panel.ID, Email: strings.TrimSpace(email), EmailNormalized: normalized,
		FirstName: firstName, LanguageCode: lang, Status: StatusActive, CreatedAt: now, UpdatedAt: now,
	}
	if p.EmailVerified && NormalizeEmail(p.Email) == normalized {
		ah.EmailValidatedAt = &now
	}
	part := &Participant{ID: uuid.NewString(), AccountHolderID: ah.ID, PanelID: panel.ID, Metadata: Metadata{"siteId": panel.Key}, CreatedAt: now}
	conn := &OAuthConnection{PanelID: panel.ID, Provider: p.Provider, Subject: p.Subject, AccountHolderID: ah.ID, Email: p.Email, CreatedAt: now}
	if err := s.checkJoin(ctx, panel, joinOf(ah, nil, client, "", "")); err != nil {
		return nil, err
	}
	if err := s.store.CreateMemberWith(ctx, ah, part, conn); err != nil {
		if errors.Is(err, ErrAlreadyLinked) {
			return nil, web.Fail(fiber.StatusConflict, "error.oauth_already_linked", nil)
		}
		return nil, err
	}
	s.joined(ctx, panel, joinOf(ah, part, client, "", ""))
	return s.issue(ctx, ah, part, client)
}

// PendingSignIn is what the link and complete-joining pages show of a waiting identity.
type PendingSignIn struct {
	Provider  social.Provider
	Email     string // the provider's email, or the account's email when linking
	Name      string
	NeedsLink bool
	// Onboarding: the identity waits in onboarding (under OnboardingUserID), not for an email.
	Onboarding       bool
	OnboardingUserID string
}

// Pending reads a waiting identity by its cookie's secret.
func (s *Service) Pending(ctx context.Context, panel *web.Panel, secret string) (*PendingSignIn, error) {
	p, err := s.pending(ctx, panel, secret)
	if err != nil {
		return nil, err
	}
	out := &PendingSignIn{
		Provider: social.Provider(p.Provider), Email: p.Email, Name: p.Name, NeedsLink: p.AccountHolderID != nil,
		Onboarding: p.Onboarding, OnboardingUserID: p.UserID,
	}
	if p.AccountHolderID != nil {
		ah, err := s.store.Holder(ctx, *p.AccountHolderID)
		if err != nil {
			return nil, err
		}
		out.Email = ah.Email
	}
	return out, nil
}

func (s *Service) pending(ctx context.Context, panel *web.Panel, secret string) (*SignInPending, error) {
	if secret == "" {
		return nil, errSignInExpired()
	}
	p, err := s.store.Pending(ctx, hashToken(secret), panel.ID, s.now().UTC())
	if errors.Is(err, ErrNotFound) {
		return nil, errSignInExpired()
	}
	return p, err
}

// LinkPending links a waiting identity to the account its email matched, once that account's
// password is right (the login rules apply: rate limits, no word on which part was wrong).
func (s *Service) LinkPending(ctx context.Context, panel *web.Panel, secret, password string, client Client) (*Issued, string, error) {
	p, err := s.pending(ctx, panel, secret)
	if err != nil {
		return nil, "", err
	}
	if p.AccountHolderID == nil {
		return nil, "", errSignInExpired()
	}
	ah, err := s.store.Holder(ctx, *p.AccountHolderID)
	if err != nil {
		return nil, "", err
	}
	issued, err := s.Login(ctx, panel, ah.Email, password, client, nil) // the identity came back from the provider: no captcha
	if err != nil {
		return nil, "", err
	}
	conn := &OAuthConnection{PanelID: panel.ID, Provider: p.Provider, Subject: p.Subject, AccountHolderID: ah.ID, Email: p.Email, CreatedAt: s.now().UTC()}
	if err := s.store.Connect(ctx, conn); err != nil {
		if errors.Is(err, ErrAlreadyLinked) {
			return nil, "", web.Fail(fiber.StatusConflict, "error.oauth_already_linked", nil)
		}
		return nil, "", err
	}
	if !p.Onboarding { // an onboarding's identity stays until onboarding records its answers
		if err := s.store.DeletePending(ctx, p.ID); err != nil {
			return nil, "", err
		}
	}
	return issued, p.Redirect, nil
}

// JoinPending creates the member for a waiting identity with the email the visitor gave. An
// email that an account already has turns the wait into linking that account (its password).
func (s *Service) JoinPending(ctx context.Context, panel *web.Panel, secret, email, firstName, lang string, client Client) (*Issued, string, error) {
	p, err := s.pending(ctx, panel, secret)
	if err != nil {
		return nil, "", err
	}
	if p.Onboarding {
		return nil, "", errSignInExpired() // it joins when its onboarding ends, not here
	}
	normalized := NormalizeEmail(email)
	firstName = strings.TrimSpace(firstName)
	var verr *web.Error
	if !validEmail(normalized) {
		verr = web.Invalid("email", "error.invalid_email", nil)
	}
	if verr = CheckText(verr, "firstName", firstName, MaxNameLength); verr != nil {
		return nil, "", verr
	}
	if ah, err := s.store.HolderByEmail(ctx, panel.ID, normalized); err == nil {
		if err := s.store.SetPendingHolder(ctx, p.ID, ah.ID); err != nil {
			return nil, "", err
		}
		return nil, "", web.Invalid("email", "error.email_taken", nil).WithCode("email_already_used")
	} else if !errors.Is(err, ErrNotFound) {
		return nil, "", err
	}
	issued, err := s.joinWith(ctx, panel, p, email, firstName, lang, client)
	if errors.Is(err, ErrEmailTaken) {
		return nil, "", web.Invalid("email", "error.email_taken", nil).WithCode("email_already_used")
	}
	if err != nil {
		return nil, "", err
	}
	if err := s.store.DeletePending(ctx, p.ID); err != nil {
		return nil, "", err
	}
	return issued, p.Redirect, nil
}

// connect links an identity to a signed-in member's account holder.
func (s *Service) connect(ctx context.Context, panel *web.Panel, holderID string, id *social.Identity) error {
	conn := &OAuthConnection{PanelID: panel.ID, Provider: string(id.Provider), Subject: id.Subject, AccountHolderID: holderID, Email: strings.TrimSpace(id.Email), CreatedAt: s.now().UTC()}
	err := s.store.Connect(ctx, conn)
	if errors.Is(err, ErrAlreadyLinked) {
		return web.Fail(fiber.StatusConflict, "error.oauth_already_linked", nil)
	}
	return err
}

// ConnectToken connects the network of a token the provider issued to a client app, once the
// provider confirms it (POST oauth/{provider}/id-token/connect).
func (s *Service) ConnectToken(ctx context.Context, panel *web.Panel, cfg social.Config, m *web.Member, token, secret string) error {
	if strings.TrimSpace(token) == "" {
		return web.Invalid("token", "error.sign_in_refused", nil)
	}
	if len(token) > 8192 || len(secret) > 1024 {
		return web.Invalid("token", "error.sign_in_refused", nil)
	}
	id, err := s.social.VerifyToken(ctx, cfg, token, secret)
	if err != nil {
		return providerError(err)
	}
	return s.connect(ctx, panel, m.AccountHolderID, id)
}

// Disconnect removes a network from the member's connections, unless it is their only way in.
func (s *Service) Disconnect(ctx context.Context, m *web.Member, provider social.Provider) error {
	err := s.store.Disconnect(ctx, m.AccountHolderID, string(provider))
	if errors.Is(err, ErrLastSignIn) {
		return web.Fail(fiber.StatusConflict, "error.oauth_last_sign_in", nil)
	}
	return err
}

// Connections are the member's connected networks (the profile's oauthConnections).
func (s *Service) Connections(ctx context.Context, holderID string) ([]string, error) {
	return s.store.Connections(ctx, holderID)
}
