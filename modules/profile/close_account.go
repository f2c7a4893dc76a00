package profile

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/profile"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Closing an account (spec sections 1, 5 and 7): the member proves it is them again (their
// password, or, without one, a link mailed to them), and in one transaction the balance is
// forfeited through the ledger, every session ends and their personal data is erased or
// anonymised here and in every module that registered an Eraser. The ledger's entries stay (the
// books must still add up); account_closures records why and what was forfeited. The email is
// freed, so its owner can join again as a new member.

// Eraser erases a module's personal data of a member inside the closing transaction (mobile:
// phone numbers; referrals: invitee emails). An error undoes the whole closing.
type Eraser func(ctx context.Context, tx *gorm.DB, participantID string) error

// OnClose registers an Eraser; call it while wiring the app.
func (m *Module) OnClose(e Eraser) { m.svc.erasers = append(m.svc.erasers, e) }

// Ledger is what the module needs of the wallet (wired in app/server.go): the member's balance,
// and emptying it inside the module's own transaction, under the wallet's lock.
type Ledger interface {
	Balance(ctx context.Context, panel *web.Panel, participantID string) (minor int64, currency string, err error)
	BalanceTx(tx *gorm.DB, participantID string) (minor int64, currency string, err error)
	// ForfeitTx debits the whole balance (a manual entry with key and title); it returns what
	// it took, 0 when there was nothing.
	ForfeitTx(tx *gorm.DB, panel *web.Panel, participantID, key, title string) (int64, error)
	// TransferTx moves the whole balance from one member to another in the same currency: a
	// debit of one and a credit of the other, each with its key and title.
	TransferTx(tx *gorm.DB, from *web.Panel, fromID string, to *web.Panel, toID, key, titleOut, titleIn string) (int64, error)
}

// CloseProof is how the member proves it is them: their password, or a mailed link's token.
type CloseProof struct {
	Password string
	Token    string
}

// ErrCloseLinkNeeded means the member has no password and brought no mailed link: the caller
// offers to mail one (RequestCloseLink).
var ErrCloseLinkNeeded = errors.New("a member without a password closes through a mailed link")

// Closed is what a closing did, for the confirmation.
type Closed struct {
	Forfeited int64
	Currency  string
}

func errClosingReason() *web.Error {
	return web.Invalid("reasonForClosing", "error.closing_reason", map[string]any{"Reason": ReasonClosedByUser}).WithCode("closing_reason")
}

// CloseAccount closes the account of holderID on the panel, after its proof. reason must be the
// spec's closed-by-user. The confirmation goes to the address the account had, in lang.
func (s *Service) CloseAccount(ctx context.Context, panel *web.Panel, holderID, reason string, proof CloseProof, lang string, link accounts.Link) (*Closed, error) {
	if reason != ReasonClosedByUser {
		return nil, errClosingReason()
	}
	ah, err := s.openHolder(ctx, panel, holderID)
	if err != nil {
		return nil, err
	}
	var token *accounts.AccountToken
	switch {
	case proof.Token != "":
		t, tah, err := s.accounts.CloseLinkToken(ctx, panel, proof.Token)
		if err != nil {
			return nil, err
		}
		if tah.ID != ah.ID {
			return nil, web.Fail(fiber.StatusBadRequest, "error.close_link_invalid", nil).WithCode("token_invalid")
		}
		token = t
	case ah.PasswordHash == "":
		return nil, ErrCloseLinkNeeded
	default:
		if err := s.accounts.Reprove(ctx, ah, proof.Password); err != nil {
			return nil, err
		}
	}
	p, err := s.accounts.ParticipantOf(ctx, ah.ID)
	if err != nil {
		return nil, err
	}
	pics, err := s.store.Pictures(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	before := *ah // the address and name the confirmation goes to, erased below
	closed := &Closed{}
	now := s.now().UTC()
	err = migrations.InTx(ctx, s.store.db, func(tx *gorm.DB) error {
		if token != nil {
			if err := s.accounts.SpendTokenTx(tx, token, now); err != nil {
				return err
			}
		}
		var err error
		closed.Forfeited, err = s.forfeit(tx, panel, p.ID)
		if err != nil {
			return err
		}
		closed.Currency = panel.CurrencyCode
		return s.eraseTx(ctx, tx, ah, p, &Closure{
			ParticipantID: p.ID, PanelID: panel.ID, Reason: ReasonClosedByUser, BalanceMinor: closed.Forfeited,
			CurrencyCode: panel.CurrencyCode, ClosedAt: now,
		})
	})
	switch {
	case errors.Is(err, accounts.ErrTokenSpent):
		return nil, web.Fail(fiber.StatusBadRequest, "error.close_link_invalid", nil).WithCode("token_invalid")
	case errors.Is(err, ErrNotFound):
		return nil, web.NotFound() // closed by another request meanwhile
	case err != nil:
		return nil, err
	}
	s.afterErase(ctx, panel, &before, pics)
	if err := s.accounts.MailClosed(ctx, panel, &before, p.ID, web.ResolveLanguage(panel, lang, before.LanguageCode), link.Origin+"/join"); err != nil {
		// The account is closed either way; a lost confirmation must not say otherwise.
		s.log.Warn("closing confirmation not sent", "panel", panel.Key, "err", err)
	}
	return closed, nil
}

// forfeit empties the member's balance through the ledger when it has one.
func (s *Service) forfeit(tx *gorm.DB, panel *web.Panel, participantID string) (int64, error) {
	if s.ledger == nil {
		return 0, nil
	}
	return s.ledger.ForfeitTx(tx, panel, participantID, "close:"+participantID, "Balance forfeited: account closed")
}

// eraseTx anonymises the account holder and erases the member's personal data through
// accounts, in this module and in every registered Eraser's, ending every session, and records
// the closure. A second closing finds the account closed (ErrNotFound) and changes nothing.
func (s *Service) eraseTx(ctx context.Context, tx *gorm.DB, ah *accounts.AccountHolder, p *accounts.Participant, closure *Closure) error {
	if err := s.accounts.EraseTx(tx, ah, p, closure.ClosedAt); err != nil {
		return err
	}
	if err := eraseTx(tx, p.ID); err != nil {
		return err
	}
	for _, erase := range s.erasers {
		if err := erase(ctx, tx, p.ID); err != nil {
			return fmt.Errorf("erase personal data of %s: %w", p.ID, err)
		}
	}
	if err := tx.Create(closure).Error; err != nil {
		return fmt.Errorf("record closure of %s: %w", p.ID, err)
	}
	return nil
}

// afterErase removes what lives outside the database once the closing committed: picture files
// nobody else has, and the rate-limit counters keyed by the old address.
func (s *Service) afterErase(ctx context.Context, panel *web.Panel, before *accounts.AccountHolder, pics []Picture) {
	for _, pic := range pics {
		s.dropUnused(ctx, panel.ID, pic.Key)
	}
	s.accounts.ForgetLimits(ctx, panel, before)
}

// CloseLink is the account a mailed closing link closes, for its page; an unknown, spent or
// expired link is a 400.
func (s *Service) CloseLink(ctx context.Context, panel *web.Panel, token string) (*accounts.AccountHolder, *accounts.Participant, error) {
	_, ah, err := s.accounts.CloseLinkToken(ctx, panel, token)
	if err != nil {
		return nil, nil, err
	}
	if ah.Status == accounts.StatusClosed {
		return nil, nil, web.Fail(fiber.StatusBadRequest, "error.close_link_invalid", nil).WithCode("token_invalid")
	}
	p, err := s.accounts.ParticipantOf(ctx, ah.ID)
	return ah, p, err
}

// Balance is the member's balance as the settings page shows it before closing.
func (s *Service) Balance(ctx context.Context, panel *web.Panel, participantID string) (int64, string, error) {
	if s.ledger == nil {
		return 0, "", nil
	}
	return s.ledger.Balance(ctx, panel, participantID)
}

// closeRequest is the close-account payload: always reasonForClosing closed-by-user (spec
// section 5), with the password, or a mailed link's token.
type closeRequest struct {
	ReasonForClosing string `json:"reasonForClosing"`
	Password         string `json:"password"`
	Token            string `json:"token"`
}

// POST /ah/api/v1/close-account. A member without a password who brings no token is mailed the
// link (202 {"mailed": true}).
func (m *Module) apiCloseAccount(c fiber.Ctx) error {
	var in closeRequest
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	panel, member := web.PanelOf(c), web.MemberOf(c)
	closed, err := m.svc.CloseAccount(c.Context(), panel, member.AccountHolderID, in.ReasonForClosing,
		CloseProof{Password: in.Password, Token: in.Token}, web.LocaleOf(c), m.link(c))
	if errors.Is(err, ErrCloseLinkNeeded) {
		if err := m.accounts.RequestCloseLink(c.Context(), panel, member, web.LocaleOf(c), m.link(c)); err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"mailed": true})
	}
	if err != nil {
		return err
	}
	m.kit.ClearCookie(c, accounts.TokenCookie)
	web.SetMember(c, nil)
	return c.JSON(fiber.Map{
		"success": true, "reasonForClosing": ReasonClosedByUser,
		"balanceForfeited": web.MoneyString(closed.Forfeited, closed.Currency), "currency_code": closed.Currency,
	})
}

// closed ends the browser's session after a closing and says so on the login page.
func (m *Module) closed(c fiber.Ctx) error {
	m.kit.ClearCookie(c, accounts.TokenCookie)
	web.SetMember(c, nil)
	m.kit.FlashNext(c, "success", "flash.account_closed")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/login")
}

// closeConfirmed: the page's forms ask the member to tick that they understand what closing
// forfeits; the API's callers show it themselves.
func closeConfirmed(c fiber.Ctx) error {
	if c.FormValue("confirm") == "" {
		return web.Invalid("confirm", "error.close_confirm_required", nil)
	}
	return nil
}

// POST /settings/close-account {password, reasonForClosing, confirm}
func (m *Module) settingsCloseAccount(c fiber.Ctx) error {
	panel, member := web.PanelOf(c), web.MemberOf(c)
	err := closeConfirmed(c)
	if err == nil {
		_, err = m.svc.CloseAccount(c.Context(), panel, member.AccountHolderID, c.FormValue("reasonForClosing"),
			CloseProof{Password: c.FormValue("password")}, web.LocaleOf(c), m.link(c))
	}
	if errors.Is(err, ErrCloseLinkNeeded) {
		return m.settingsCloseLink(c)
	}
	if err != nil {
		return m.settingsFailed(c, err, sectionClose, nil)
	}
	return m.closed(c)
}

// POST /settings/close-account/mail: a member without a password gets the closing link.
func (m *Module) settingsCloseLink(c fiber.Ctx) error {
	if err := m.accounts.RequestCloseLink(c.Context(), web.PanelOf(c), web.MemberOf(c), web.LocaleOf(c), m.link(c)); err != nil {
		return m.settingsFailed(c, err, sectionClose, nil)
	}
	m.kit.FlashNext(c, "success", "flash.close_link_sent")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#close")
}

// GET /close-account?token=: the mailed link's page (open to all: the link is the proof). It
// shows the balance that closing forfeits before the member confirms.
func (m *Module) closeLinkPage(c fiber.Ctx) error {
	return m.renderCloseLink(c, c.Query("token"), nil)
}

// POST /close-account {token, reasonForClosing, confirm}
func (m *Module) closeLinkSubmit(c fiber.Ctx) error {
	token := c.FormValue("token")
	ah, _, err := m.svc.CloseLink(c.Context(), web.PanelOf(c), token)
	if err == nil {
		err = closeConfirmed(c)
	}
	if err == nil {
		_, err = m.svc.CloseAccount(c.Context(), web.PanelOf(c), ah.ID, c.FormValue("reasonForClosing"), CloseProof{Token: token}, web.LocaleOf(c), m.link(c))
	}
	if err != nil {
		return m.renderCloseLink(c, token, err)
	}
	if member := web.MemberOf(c); member != nil && member.AccountHolderID != ah.ID {
		return c.Redirect().Status(fiber.StatusSeeOther).To("/feed") // someone else's account, closed from this browser
	}
	return m.closed(c)
}

// maskEmail shows enough of an address for its owner to recognise it: d***@example.com.
func maskEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		return "***"
	}
	return local[:1] + "***@" + domain
}

// renderCloseLink shows the mailed link's page: the link refused, or the account it closes with
// the balance it forfeits; failure is a refused confirmation to show on the form.
func (m *Module) renderCloseLink(c fiber.Ctx, token string, failure error) error {
	panel := web.PanelOf(c)
	props := views.CloseLinkProps{Token: token}
	ah, p, err := m.svc.CloseLink(c.Context(), panel, token)
	if err != nil {
		var e *web.Error
		if !errors.As(err, &e) || e.Status >= 500 {
			return err
		}
		props.Token, props.Invalid = "", e.ToAPI(m.kit.Tr(c)).Message
		return m.kit.Render(c, e.Status, views.CloseLink(props))
	}
	props.Email = maskEmail(ah.Email)
	balance, _, err := m.svc.Balance(c.Context(), panel, p.ID)
	if err != nil {
		return err
	}
	props.Balance, props.HasBalance = web.FormatMoney(balance, panel.CurrencyCode, web.LocaleOf(c)), balance > 0
	status := fiber.StatusOK
	if failure != nil {
		if ferr := m.formFailure(c, failure, &props.Form); ferr != nil {
			return ferr
		}
		status = c.Response().StatusCode()
	}
	return m.kit.Render(c, status, views.CloseLink(props))
}

// CloseByOperator closes a panel's member's account as the member's own closing does, in one
// transaction: the balance is forfeited through the ledger (the same entry key, so it is taken
// once), every session ends, and accounts, this module and every registered Eraser erase the
// member's personal data; the closure records ReasonClosedByOperator. The member is told by mail
// (origin: where the panel answers). Closing a closed account changes nothing (changed false).
// A member of another panel is ErrNotFound (the operator console's members part).
func (m *Module) CloseByOperator(ctx context.Context, panel *web.Panel, participantID, origin string) (closed *Closed, changed bool, err error) {
	ah, p, err := m.svc.memberOf(ctx, panel.ID, participantID)
	if err != nil {
		return nil, false, err
	}
	if ah.Status == accounts.StatusClosed {
		return &Closed{Currency: panel.CurrencyCode}, false, nil
	}
	pics, err := m.svc.store.Pictures(ctx, p.ID)
	if err != nil {
		return nil, false, err
	}
	before := *ah
	closed = &Closed{Currency: panel.CurrencyCode}
	now := m.svc.now().UTC()
	err = migrations.InTx(ctx, m.svc.store.db, func(tx *gorm.DB) error {
		var err error
		if closed.Forfeited, err = m.svc.forfeit(tx, panel, p.ID); err != nil {
			return err
		}
		return m.svc.eraseTx(ctx, tx, ah, p, &Closure{
			ParticipantID: p.ID, PanelID: panel.ID, Reason: ReasonClosedByOperator, BalanceMinor: closed.Forfeited,
			CurrencyCode: panel.CurrencyCode, ClosedAt: now,
		})
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return &Closed{Currency: panel.CurrencyCode}, false, nil // closed by another request meanwhile
	case err != nil:
		return nil, false, err
	}
	m.svc.afterErase(ctx, panel, &before, pics)
	if m.baseURL != "" {
		origin = m.baseURL
	}
	if err := m.accounts.MailClosed(ctx, panel, &before, p.ID, web.ResolveLanguage(panel, "", before.LanguageCode), origin+"/join"); err != nil {
		m.svc.log.Warn("closing confirmation not sent", "panel", panel.Key, "err", err)
	}
	return closed, true, nil
}

// openHolder is the account holder of holderID when it is of the panel and not closed; any
// other is not found (a link or proof names no account of another panel, nor a closed one).
func (s *Service) openHolder(ctx context.Context, panel *web.Panel, holderID string) (*accounts.AccountHolder, error) {
	ah, err := s.accounts.Holder(ctx, holderID)
	if errors.Is(err, ErrNotFound) {
		return nil, web.NotFound()
	}
	if err != nil {
		return nil, err
	}
	if ah.PanelID != panel.ID || ah.Status == accounts.StatusClosed {
		return nil, web.NotFound()
	}
	return ah, nil
}
