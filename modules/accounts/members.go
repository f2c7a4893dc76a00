package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// What the profile module (the member's profile and settings, closing and moving) reads and
// does of an account through accounts: its Accounts interface, wired in app/server.go. The
// account holder's and participant's rows, sessions and mailed links stay this module's.

// Holder is an account holder by id (ErrNotFound when none).
func (m *Module) Holder(ctx context.Context, id string) (*AccountHolder, error) {
	return m.svc.store.Holder(ctx, id)
}

// Participant is a participant by id (ErrNotFound when none).
func (m *Module) Participant(ctx context.Context, id string) (*Participant, error) {
	return m.svc.store.Participant(ctx, id)
}

// ParticipantOf is the account holder's participant.
func (m *Module) ParticipantOf(ctx context.Context, holderID string) (*Participant, error) {
	return m.svc.store.ParticipantOf(ctx, holderID)
}

// ConnectionsOf are the networks the account holder signs in with (the profile's oauthConnections).
func (m *Module) ConnectionsOf(ctx context.Context, holderID string) ([]string, error) {
	return m.svc.Connections(ctx, holderID)
}

// ActiveMembers is a page of the panel's active members, by account holder id after after.
func (m *Module) ActiveMembers(ctx context.Context, panelID, after string, limit int) ([]ActiveMember, error) {
	return m.svc.store.ActiveMembers(ctx, panelID, after, limit)
}

// profileColumns are the account holder's columns a member edits in their profile, by the
// profile's field names.
var profileColumns = map[string]string{"username": "username", "firstName": "first_name", "lastName": "last_name", "languageCode": "language_code"}

// SetProfileFields writes profile fields of an account holder, checked by the caller (the
// profile module's rules): username, firstName, lastName, languageCode. ErrUsernameTaken when
// the unique index refuses the username.
func (m *Module) SetProfileFields(ctx context.Context, holderID string, fields map[string]string) error {
	changes := map[string]any{}
	for field, v := range fields {
		col, ok := profileColumns[field]
		if !ok {
			return fmt.Errorf("set profile of %s: %q is not a profile field", holderID, field)
		}
		changes[col] = v
	}
	err := m.svc.store.UpdateHolder(ctx, holderID, changes)
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrUsernameTaken // the one unique column a profile save writes
	}
	return err
}

// SetUsername gives the account holder a username no other member of the panel has, whatever
// its case (ErrUsernameTaken).
func (m *Module) SetUsername(ctx context.Context, panelID, holderID, username string) error {
	return m.svc.store.SetUsername(ctx, panelID, holderID, username)
}

// UpdateMetadata changes the participant's metadata with fn while holding the row.
func (m *Module) UpdateMetadata(ctx context.Context, participantID string, fn func(md Metadata) error) error {
	return m.svc.store.UpdateMetadata(ctx, participantID, fn)
}

// ChangePassword checks the current password, sets the new one and ends the member's other sessions.
func (m *Module) ChangePassword(ctx context.Context, member *web.Member, oldPassword, newPassword string) error {
	return m.svc.ChangePassword(ctx, member, oldPassword, newPassword)
}

// SendPasswordLink mails the signed-in member a password reset link, as forgot-password does
// (a member who joined through a provider sets a password so: the mail proves the address).
func (m *Module) SendPasswordLink(c fiber.Ctx) error {
	return m.svc.ForgotPassword(c.Context(), web.PanelOf(c), web.MemberOf(c).Email, web.LocaleOf(c), m.link(c, "", "/reset-password"), client(c))
}

// ClientOf is where a request came from, for a session it starts (client).
func ClientOf(c fiber.Ctx) Client { return client(c) }

// closeLinkTTL is how long a mailed closing link works.
const closeLinkTTL = time.Hour

// Re-entering the password for closing or moving is limited like a login, per account.
const maxReproofFailures = 5

// Reprove checks the password a member re-enters to close or move their account, with the
// login's limit per account (a stolen session cannot guess it).
func (m *Module) Reprove(ctx context.Context, ah *AccountHolder, password string) error {
	if password == "" {
		return web.Invalid("password", "error.required", nil)
	}
	// Counted as a failure first, and taken back when right, so that tries at once cannot all
	// pass the check (beginLogin says more).
	l := m.svc.limiter
	taken, err := l.Take(ctx, "reprove:acct:"+ah.ID, loginWindow)
	if err != nil {
		return err
	}
	try := heldHit{l, taken}
	if taken.Hits > maxReproofFailures {
		return try.release(ctx, web.Fail(fiber.StatusTooManyRequests, "error.login_rate_limited", nil))
	}
	ok, err := CheckPassword(ah.PasswordHash, password)
	if err != nil || ok {
		return try.release(ctx, err)
	}
	return web.Invalid("password", "error.password_wrong", nil)
}

// RequestCloseLink mails a member without a password the link that closes their account.
func (m *Module) RequestCloseLink(ctx context.Context, panel *web.Panel, member *web.Member, lang string, link Link) error {
	return m.svc.RequestCloseLink(ctx, panel, member, lang, link)
}

// RequestCloseLink mails a member without a password the link that closes their account.
func (s *Service) RequestCloseLink(ctx context.Context, panel *web.Panel, m *web.Member, lang string, link Link) error {
	if err := s.mailAllowed(ctx, "close-link:"+m.AccountHolderID, time.Hour); err != nil {
		return err
	}
	ah, err := s.store.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return err
	}
	return s.newTokenMailed(ctx, ah.ID, PurposeCloseAccount, closeLinkTTL, func(tx *gorm.DB, event, token string) error {
		return s.mails.CloseLink(tx, event, panel, ah, memberLanguage(ah, panel, lang), link.Origin+"/close-account?token="+token)
	})
}

// CloseLinkToken is a mailed closing link's token and the account it closes; an unknown, spent
// or expired link, or another panel's, is a 400.
func (m *Module) CloseLinkToken(ctx context.Context, panel *web.Panel, token string) (*AccountToken, *AccountHolder, error) {
	return m.svc.liveToken(ctx, panel, PurposeCloseAccount, token)
}

// SpendTokenTx marks a mailed link's token used in the caller's transaction; ErrTokenSpent when
// it was used, or expired, meanwhile.
func (m *Module) SpendTokenTx(tx *gorm.DB, t *AccountToken, now time.Time) error {
	res := tx.Model(&AccountToken{}).Where("id = ? AND used_at IS NULL AND expires_at > ?", t.ID, now).Update("used_at", now)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return ErrTokenSpent
	}
	return nil
}

// EraseTx anonymises the account holder and erases what accounts keeps of the member (the
// metadata, sessions, mailed links and sign-in connections), in the caller's transaction: the
// closing's part here. A second closing finds the account closed (ErrNotFound) and changes nothing.
func (m *Module) EraseTx(tx *gorm.DB, ah *AccountHolder, p *Participant, now time.Time) error {
	anon := "closed-" + ah.ID + "@closed.invalid" // unique, and frees the address for a new account
	res := tx.Model(&AccountHolder{}).Where("id = ? AND status <> ?", ah.ID, StatusClosed).Updates(map[string]any{
		"email": anon, "email_normalized": anon, "password_hash": "", "username": "", "first_name": "", "last_name": "",
		"status": StatusClosed, "email_validated_at": nil, "join_parent_frame_url": "", "updated_at": now,
	})
	if res.Error != nil {
		return fmt.Errorf("anonymise account holder %s: %w", ah.ID, res.Error)
	}
	if res.RowsAffected != 1 {
		return ErrNotFound
	}
	if err := tx.Model(&Participant{ID: p.ID}).Select("Metadata", "IsEligibleToRefer").Updates(&Participant{Metadata: Metadata{}}).Error; err != nil {
		return fmt.Errorf("erase metadata of %s: %w", p.ID, err)
	}
	for _, del := range []struct {
		where string
		id    string
		model any
	}{
		{"participant_id = ?", p.ID, &Session{}},
		{"account_holder_id = ?", ah.ID, &AccountToken{}},
		{"account_holder_id = ?", ah.ID, &OAuthConnection{}},
		{"account_holder_id = ?", ah.ID, &SignInPending{}},
		{"participant_id = ?", p.ID, &SignInAttempt{}},
	} {
		if err := tx.Where(del.where, del.id).Delete(del.model).Error; err != nil {
			return fmt.Errorf("erase %T of %s: %w", del.model, p.ID, err)
		}
	}
	return nil
}

// ForgetLimits clears the rate-limit counters keyed by a closed account's old address, once
// the closing committed; a failure is only logged.
func (m *Module) ForgetLimits(ctx context.Context, panel *web.Panel, before *AccountHolder) {
	for _, key := range []string{"login:acct:" + panel.ID + ":" + before.EmailNormalized, "forgot:acct:" + panel.ID + ":" + before.EmailNormalized} {
		if err := m.svc.limiter.Reset(ctx, key); err != nil {
			m.svc.log.Warn("clear rate limit of a closed account", "panel", panel.Key, "err", err)
		}
	}
}

// MailClosed queues the closing confirmation to the address the account had (before), in lang.
func (m *Module) MailClosed(ctx context.Context, panel *web.Panel, before *AccountHolder, participantID, lang, joinLink string) error {
	return m.svc.mailClosed(ctx, panel, before, participantID, lang, joinLink)
}

// NewMembershipTx makes the account holder a member of another panel, in the caller's
// transaction (a change of instance): the same email, password, names and validation, the
// language when that panel offers it, the username unless a member there has it already, and
// metadata naming the membership it came from (movedFrom).
func (m *Module) NewMembershipTx(tx *gorm.DB, ah *AccountHolder, from *Participant, to *web.Panel, now time.Time) (*AccountHolder, *Participant, error) {
	lang := ah.LanguageCode
	if !to.Offers(lang) {
		lang = to.DefaultLanguage
	}
	nah := &AccountHolder{
		ID: uuid.NewString(), PanelID: to.ID, Email: ah.Email, EmailNormalized: ah.EmailNormalized, PasswordHash: ah.PasswordHash,
		FirstName: ah.FirstName, LastName: ah.LastName, LanguageCode: lang, Status: StatusActive,
		EmailValidatedAt: ah.EmailValidatedAt, CreatedAt: now, UpdatedAt: now, JoinAppName: "change-instance",
	}
	np := &Participant{ID: uuid.NewString(), AccountHolderID: nah.ID, PanelID: to.ID, Metadata: Metadata{"siteId": to.Key, "movedFrom": from.ID}, CreatedAt: now}
	if ah.Username != "" {
		var n int64
		if err := tx.Model(&AccountHolder{}).Where("panel_id = ? AND username <> '' AND lower(username) = lower(?)", to.ID, ah.Username).Count(&n).Error; err != nil {
			return nil, nil, err
		}
		if n == 0 {
			nah.Username = ah.Username
		}
	}
	if err := tx.Create(nah).Error; err != nil {
		return nil, nil, err
	}
	if err := tx.Create(np).Error; err != nil {
		return nil, nil, err
	}
	return nah, np, nil
}

// Issue starts a session of the member (a new membership, signed in at once).
func (m *Module) Issue(ctx context.Context, ah *AccountHolder, p *Participant, client Client) (*Issued, error) {
	return m.svc.issue(ctx, ah, p, client)
}

// NewHandoff mints a hand-off code of the account holder, which opens their panel in the
// browser signed in (HandoffURL).
func (m *Module) NewHandoff(ctx context.Context, holderID string) (string, error) {
	return m.svc.newToken(ctx, holderID, PurposeWidgetHandoff, handoffTTL)
}
