// Package consolemembers is the operator console's members part (issue 21, part 5): support
// and owners find a panel's members by email, username or participant id, read a member's
// account, participations, ledger, redemptions, mobile, referrals and sessions, and act on it:
// suspend and unsuspend, end sessions, mail the validation link again, and (owners) close the
// account. Every read and action goes through the owning module's small interface below; the
// panel in the path bounds all of it, so another panel's member is a 404.
package consolemembers

import (
	"context"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Accounts is what the part reads and does through the accounts module.
type Accounts interface {
	FindMembers(ctx context.Context, panelID, query string, page, pageSize int) ([]accounts.MemberSummary, bool, error)
	MemberProfile(ctx context.Context, panelID, participantID string) (*accounts.MemberProfile, error)
	MemberSessions(ctx context.Context, panelID, participantID string) ([]accounts.MemberSession, error)
	SuspendMember(ctx context.Context, panelID, participantID string) (accounts.StatusChange, error)
	UnsuspendMember(ctx context.Context, panelID, participantID string) (accounts.StatusChange, error)
	EndMemberSessions(ctx context.Context, panelID, participantID string) (int64, error)
	ResendValidation(ctx context.Context, panel *web.Panel, participantID, origin string) (bool, error)
}

// Closing closes a member's account (the profile module).
type Closing interface {
	CloseByOperator(ctx context.Context, panel *web.Panel, participantID, origin string) (*profile.Closed, bool, error)
}

// Participations are a member's campaign runs (surveys).
type Participations interface {
	MemberParticipations(ctx context.Context, panelID, participantID string, limit int) ([]surveys.MemberParticipation, error)
}

// Campaigns names the campaigns a member took part in.
type Campaigns interface {
	Listings(ctx context.Context, panel *web.Panel, ids []string) (map[string]campaigns.Listing, error)
}

// Ledger is a member's balance and entries (wallet).
type Ledger interface {
	MemberBalances(ctx context.Context, panelID string, participantIDs []string) (map[string]int64, error)
	Balance(ctx context.Context, panel *web.Panel, participantID string) (wallet.Balance, error)
	Transactions(ctx context.Context, participantID string, q wallet.Query) ([]wallet.Entry, bool, error)
}

// Redemptions are a member's redemptions, without payout details.
type Redemptions interface {
	MemberRedemptionSummaries(ctx context.Context, panelID, participantID string, limit int) ([]redemptions.MemberRedemptionSummary, error)
}

// Mobile is a member's mobile status, the number masked.
type Mobile interface {
	MemberMobile(ctx context.Context, panel *web.Panel, participantID string) (mobile.MemberMobile, error)
}

// Referrals are a member's invitations counted.
type Referrals interface {
	MemberReferrals(ctx context.Context, panel *web.Panel, participantID string) (referrals.MemberReferrals, error)
}

// Deps are the modules the part reads and acts through, and the panels.
type Deps struct {
	Accounts       Accounts
	Closing        Closing
	Participations Participations
	Campaigns      Campaigns
	Ledger         Ledger
	Redemptions    Redemptions
	Mobile         Mobile
	Referrals      Referrals
	// Panel resolves a panel by id (its currency, languages and hosts).
	Panel func(ctx context.Context, id string) (*web.Panel, error)
	// Origin is where a panel answers for mailed links (scheme://host[:port]).
	Origin func(c fiber.Ctx, p *web.Panel) string
}

// Part is the members part of the console.
type Part struct {
	d Deps
	m *console.Module
}

func New(d Deps) *Part { return &Part{d: d} }

// Limits of what one page shows.
const (
	searchPageSize = 25
	recentEntries  = 20
	listed         = 50
	maxReason      = 500
	maxQuery       = 200
	maxPage        = 100000
)

// Mount adds the part's pages and API (console.Part).
func (p *Part) Mount(m *console.Module, r, api fiber.Router) {
	p.m = m
	const base = "/console/panels/:panel/members"
	m.PanelPage(r, fiber.MethodGet, base, console.ActionReadMembers, p.searchPage)
	m.PanelPage(r, fiber.MethodGet, base+"/:id", console.ActionReadMembers, p.memberPage)
	m.PanelPage(r, fiber.MethodPost, base+"/:id/suspend", console.ActionSuspendMembers, p.pageAction(actSuspend))
	m.PanelPage(r, fiber.MethodPost, base+"/:id/unsuspend", console.ActionSuspendMembers, p.pageAction(actUnsuspend))
	m.PanelPage(r, fiber.MethodPost, base+"/:id/end-sessions", console.ActionEndSessions, p.pageAction(actEndSessions))
	m.PanelPage(r, fiber.MethodPost, base+"/:id/resend-validation", console.ActionResendMail, p.pageAction(actResend))
	m.PanelPage(r, fiber.MethodPost, base+"/:id/close", console.ActionCloseMembers, p.pageAction(actClose))

	const apiBase = "/panels/:panel/members"
	m.PanelAPI(api, fiber.MethodGet, apiBase, console.ActionReadMembers, p.apiSearch)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/:id", console.ActionReadMembers, p.apiMember)
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/suspend", console.ActionSuspendMembers, p.apiAction(actSuspend))
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/unsuspend", console.ActionSuspendMembers, p.apiAction(actUnsuspend))
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/end-sessions", console.ActionEndSessions, p.apiAction(actEndSessions))
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/resend-validation", console.ActionResendMail, p.apiAction(actResend))
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/:id/close", console.ActionCloseMembers, p.apiAction(actClose))
}

// panel is the full panel of the request's access.
func (p *Part) panel(c fiber.Ctx, a console.PanelAccess) (*web.Panel, error) {
	return p.d.Panel(c.Context(), a.Panel.ID)
}

// notFound maps the modules' "no such member here" to a 404 and a closed account to a 409.
func notFound(err error) error {
	switch {
	case errors.Is(err, accounts.ErrNotFound):
		return fiber.ErrNotFound
	case errors.Is(err, accounts.ErrMemberClosed):
		return errClosed
	}
	return err
}

// errClosed refuses an action on a closed account (the API's 409).
var errClosed = web.Fail(fiber.StatusConflict, "console.members.error.closed", nil).WithCode("member_closed")

// action is one of the member actions, the same for a page's form and the API.
type action int

const (
	actSuspend action = iota
	actUnsuspend
	actEndSessions
	actResend
	actClose
)

// input is what an action is sent: a reason, and for closing the member's email typed again.
type input struct {
	Reason       string `json:"reason"`
	ConfirmEmail string `json:"confirm_email"`
}

// outcome is what an action did, for the notice, the API's answer and the audit log.
type outcome struct {
	Action        string `json:"action"`
	ParticipantID string `json:"uuid"`
	Changed       bool   `json:"changed"`
	Status        string `json:"status"`
	SessionsEnded int64  `json:"sessionsEnded"`
	MailSent      bool   `json:"mailSent"`
	Forfeited     string `json:"balanceForfeited,omitempty"`
	Currency      string `json:"currency_code,omitempty"`
	// Message says what happened (or that nothing changed), as the page's notice does.
	Message string `json:"message"`
	// notice is the locale id of Message.
	notice string
}

// refusal is one field an action refuses, with its message id and data.
type refusal struct {
	field, id string
	data      map[string]any
}

// refusals are why an action was refused, before anything changed: the page shows each beside
// its field, the API answers them as a 400 naming the fields.
type refusals []refusal

func (r refusals) Error() string { return "refused: " + r[0].field }

func (r refusals) web() *web.Error {
	e := web.Invalid(r[0].field, r[0].id, r[0].data)
	for _, f := range r[1:] {
		e.Also(f.field, f.id, f.data)
	}
	return e
}

// plainText tells whether s is text the console takes: valid UTF-8 without control characters
// or bidirectional overrides (the member app's rule at its edge, web/input.go).
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return true
}

func reasonRefusal(in input) []refusal {
	r := strings.TrimSpace(in.Reason)
	switch {
	case !plainText(r):
		return []refusal{{"reason", "error.bad_characters", nil}}
	case r == "":
		return []refusal{{"reason", "console.members.error.reason_required", nil}}
	case len([]rune(r)) > maxReason:
		return []refusal{{"reason", "console.members.error.reason_long", map[string]any{"Max": maxReason}}}
	}
	return nil
}

// do runs an action on a panel's member, audits what changed (before → after) and says what
// happened. Every action is idempotent: a second one finds nothing to change and says so.
func (p *Part) do(c fiber.Ctx, a console.PanelAccess, act action, pid string, in input) (outcome, error) {
	ctx := c.Context()
	out := outcome{ParticipantID: pid}
	panelID := a.Panel.ID
	prof, err := p.d.Accounts.MemberProfile(ctx, panelID, pid)
	if err != nil {
		return out, notFound(err)
	}
	out.Status = prof.Status
	reason := strings.TrimSpace(in.Reason)
	switch act {
	case actSuspend, actUnsuspend:
		if r := reasonRefusal(in); r != nil {
			return out, refusals(r)
		}
		change := p.d.Accounts.SuspendMember
		out.Action, out.notice = "member.suspend", "console.members.done.suspended"
		if act == actUnsuspend {
			change = p.d.Accounts.UnsuspendMember
			out.Action, out.notice = "member.unsuspend", "console.members.done.unsuspended"
		}
		ch, err := change(ctx, panelID, pid)
		if err != nil {
			return out, notFound(err)
		}
		out.Changed, out.Status, out.SessionsEnded = ch.Changed, ch.After, ch.SessionsEnded
		if !ch.Changed {
			out.notice = map[action]string{actSuspend: "console.members.done.already_suspended", actUnsuspend: "console.members.done.already_active"}[act]
		}
		if ch.Changed || ch.SessionsEnded > 0 {
			after := map[string]any{"status": ch.After, "reason": reason}
			if act == actSuspend {
				after["sessions_ended"] = ch.SessionsEnded
			}
			if err := p.m.Audit(c, panelID, out.Action, pid, map[string]any{"status": ch.Before}, after); err != nil {
				return out, err
			}
		}
	case actEndSessions:
		out.Action = "member.end_sessions"
		n, err := p.d.Accounts.EndMemberSessions(ctx, panelID, pid)
		if err != nil {
			return out, notFound(err)
		}
		out.SessionsEnded, out.Changed = n, n > 0
		out.notice = "console.members.done.sessions_ended"
		if n == 0 {
			out.notice = "console.members.done.no_sessions"
			break
		}
		if err := p.m.Audit(c, panelID, out.Action, pid, map[string]any{"sessions": n}, map[string]any{"sessions": 0}); err != nil {
			return out, err
		}
	case actResend:
		out.Action = "member.resend_validation"
		panel, err := p.panel(c, a)
		if err != nil {
			return out, err
		}
		sent, err := p.d.Accounts.ResendValidation(ctx, panel, pid, p.d.Origin(c, panel))
		if err != nil {
			return out, notFound(err)
		}
		out.MailSent, out.Changed = sent, sent
		out.notice = "console.members.done.mail_sent"
		if !sent {
			out.notice = "console.members.done.already_validated"
			break
		}
		if err := p.m.Audit(c, panelID, out.Action, pid, map[string]any{"email_validated": false}, map[string]any{"validation_mail": "sent"}); err != nil {
			return out, err
		}
	case actClose:
		out.Action = "member.close"
		if prof.Status == accounts.StatusClosed {
			out.notice = "console.members.done.already_closed"
			return out, nil
		}
		refused := reasonRefusal(in)
		if !plainText(in.ConfirmEmail) || accounts.NormalizeEmail(in.ConfirmEmail) == "" || accounts.NormalizeEmail(in.ConfirmEmail) != accounts.NormalizeEmail(prof.Email) {
			refused = append(refused, refusal{"confirm_email", "console.members.error.confirm_email", nil})
		}
		if refused != nil {
			return out, refusals(refused)
		}
		panel, err := p.panel(c, a)
		if err != nil {
			return out, err
		}
		balance, err := p.d.Ledger.Balance(ctx, panel, pid)
		if err != nil {
			return out, err
		}
		closed, changed, err := p.d.Closing.CloseByOperator(ctx, panel, pid, p.d.Origin(c, panel))
		if err != nil {
			return out, notFound(err)
		}
		out.Changed, out.Status = changed, accounts.StatusClosed
		out.Forfeited, out.Currency = web.MoneyString(closed.Forfeited, closed.Currency), closed.Currency
		out.notice = "console.members.done.closed"
		if !changed {
			out.notice = "console.members.done.already_closed"
			break
		}
		err = p.m.Audit(c, panelID, out.Action, pid,
			map[string]any{"status": prof.Status, "balance": web.MoneyString(balance.Minor, balance.Currency)},
			map[string]any{"status": accounts.StatusClosed, "forfeited": out.Forfeited, "currency_code": out.Currency, "reason": reason})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
