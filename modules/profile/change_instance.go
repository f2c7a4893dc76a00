package profile

import (
	"context"
	"errors"
	"strings"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Changing instance (spec sections 6 and 7: can-change-instance, change-instance): a member
// moves to another panel of the same instance, one the operator lists in the panel's
// app_settings.change_instance_to. Members belong to one panel, so moving makes a new
// membership there (the same email, password, names and subscriptions) and closes this one the
// way closing does (personal data erased here, ledger kept), all in one transaction.
//
// The balance rule: the whole balance moves with the member when both panels keep the same
// currency (a debit here and a credit there, in that same transaction); between currencies no
// rate is ever applied, so the move waits until the balance is zero (redeemed first).

// Panels finds other panels by key (tenancy, wired in app/server.go); found is false for none.
type Panels interface {
	Panel(ctx context.Context, key string) (p *web.Panel, found bool, err error)
}

// InstanceTarget is a panel the member may move to, and whether their balance allows it now.
type InstanceTarget struct {
	Panel        *web.Panel
	BalanceMoves bool   // same currency: the balance goes along
	Allowed      bool   // BalanceMoves, or nothing to move
	Reason       string // "" or "balance_not_zero"
}

// InstanceTargets are the panels of the member's instance the operator lets members of this
// panel move to, with the member's balance and currency.
func (s *Service) InstanceTargets(ctx context.Context, panel *web.Panel, participantID string) ([]InstanceTarget, int64, error) {
	balance, _, err := s.Balance(ctx, panel, participantID)
	if err != nil {
		return nil, 0, err
	}
	var out []InstanceTarget
	for _, key := range panel.ChangeInstanceTo {
		if s.panels == nil {
			break
		}
		p, found, err := s.panels.Panel(ctx, key)
		if err != nil {
			return nil, 0, err
		}
		if !found || p.ID == panel.ID || p.InstanceID != panel.InstanceID {
			continue // a panel of another instance is never a destination, whatever the file says
		}
		t := InstanceTarget{Panel: p, BalanceMoves: strings.EqualFold(p.CurrencyCode, panel.CurrencyCode)}
		t.Allowed = t.BalanceMoves || balance == 0
		if !t.Allowed {
			t.Reason = "balance_not_zero"
		}
		out = append(out, t)
	}
	return out, balance, nil
}

// Moved is a change of instance done: the member's new membership, signed in (Issued), and a
// hand-off code that opens the new panel in the browser signed in (/widgets/continue).
type Moved struct {
	Panel   *web.Panel
	Issued  *accounts.Issued
	Handoff string
	Moved   int64 // the balance that went along, in minor units
}

func errBalanceNotZero(panel *web.Panel, balance int64) *web.Error {
	return web.Fail(fiber.StatusConflict, "error.change_instance_balance", map[string]any{"Amount": web.MoneyString(balance, panel.CurrencyCode) + " " + panel.CurrencyCode}).
		WithCode("balance_not_zero")
}

// ChangeInstance moves the member to the panel targetKey (a key or uuid of one of
// InstanceTargets), after their password when they have one.
func (s *Service) ChangeInstance(ctx context.Context, panel *web.Panel, m *web.Member, targetKey, password string, client accounts.Client) (*Moved, error) {
	targets, balance, err := s.InstanceTargets(ctx, panel, m.ParticipantID)
	if err != nil {
		return nil, err
	}
	var target *InstanceTarget
	for i := range targets {
		if targetKey != "" && (targets[i].Panel.Key == targetKey || targets[i].Panel.ID == targetKey) {
			target = &targets[i]
		}
	}
	if target == nil {
		return nil, web.NotFound() // unknown, not offered, or another instance's: all the same 404
	}
	if !target.Allowed {
		return nil, errBalanceNotZero(panel, balance)
	}
	ah, err := s.accounts.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return nil, err
	}
	if ah.PasswordHash != "" {
		if err := s.accounts.Reprove(ctx, ah, password); err != nil {
			return nil, err
		}
	}
	if used, err := s.accounts.IsMember(ctx, target.Panel, ah.EmailNormalized); err != nil {
		return nil, err
	} else if used {
		return nil, web.Fail(fiber.StatusConflict, "error.change_instance_email_used", map[string]any{"Panel": target.Panel.Name}).WithCode("email_already_used")
	}
	old, err := s.accounts.ParticipantOf(ctx, ah.ID)
	if err != nil {
		return nil, err
	}
	pics, err := s.store.Pictures(ctx, old.ID)
	if err != nil {
		return nil, err
	}
	sub, err := s.store.Subscription(ctx, old.ID)
	if err != nil {
		return nil, err
	}
	before := *ah
	to := target.Panel
	now := s.now().UTC()
	var nah *accounts.AccountHolder
	var np *accounts.Participant
	moved := &Moved{Panel: to}
	err = migrations.InTx(ctx, s.store.db, func(tx *gorm.DB) error {
		bal, currency, err := s.balanceTx(tx, old.ID)
		if err != nil {
			return err
		}
		if bal > 0 && !strings.EqualFold(currency, to.CurrencyCode) {
			return errBalanceNotZero(panel, bal) // credited meanwhile in a currency that cannot move
		}
		// The same person, names and password there; the username goes along unless a member
		// there has it already.
		if nah, np, err = s.accounts.NewMembershipTx(tx, ah, old, to, now); err != nil {
			return err
		}
		nsub := sub
		nsub.ParticipantID, nsub.UpdatedAt = np.ID, now
		if err := tx.Create(&nsub).Error; err != nil {
			return err
		}
		moved.Moved = 0
		if bal > 0 {
			if moved.Moved, err = s.ledger.TransferTx(tx, panel, old.ID, to, np.ID, "change-instance:"+old.ID,
				"Moved to "+to.Name, "Moved from "+panel.Name); err != nil {
				return err
			}
		}
		movedTo := np.ID
		return s.eraseTx(ctx, tx, ah, old, &Closure{
			ParticipantID: old.ID, PanelID: panel.ID, Reason: ReasonChangedInstance, BalanceMinor: moved.Moved,
			CurrencyCode: panel.CurrencyCode, MovedTo: &movedTo, ClosedAt: now,
		})
	})
	var werr *web.Error
	switch {
	case errors.As(err, &werr):
		return nil, err
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return nil, web.Fail(fiber.StatusConflict, "error.change_instance_email_used", map[string]any{"Panel": to.Name}).WithCode("email_already_used")
	case errors.Is(err, ErrNotFound):
		return nil, web.NotFound()
	case err != nil:
		return nil, err
	}
	s.afterErase(ctx, panel, &before, pics)
	if moved.Issued, err = s.accounts.Issue(ctx, nah, np, client); err != nil {
		return nil, err
	}
	if moved.Handoff, err = s.accounts.NewHandoff(ctx, nah.ID); err != nil {
		return nil, err
	}
	return moved, nil
}

// balanceTx is the member's balance under the wallet's lock; 0 without a ledger.
func (s *Service) balanceTx(tx *gorm.DB, participantID string) (int64, string, error) {
	if s.ledger == nil {
		return 0, "", nil
	}
	return s.ledger.BalanceTx(tx, participantID)
}

// targetJSON is one panel of can-change-instance.
type targetJSON struct {
	UUID         string `json:"uuid"`
	Key          string `json:"key"`
	Name         string `json:"name"`
	CurrencyCode string `json:"currency_code"`
	BalanceMoves bool   `json:"balanceMoves"`
	Allowed      bool   `json:"allowed"`
	Reason       string `json:"reason"`
}

// GET /ah/api/v1/can-change-instance: whether the member may move now, and where to.
func (m *Module) apiCanChangeInstance(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	targets, balance, err := m.svc.InstanceTargets(c.Context(), panel, web.MemberOf(c).ParticipantID)
	if err != nil {
		return err
	}
	out := make([]targetJSON, 0, len(targets))
	can := false
	for _, t := range targets {
		out = append(out, targetJSON{UUID: t.Panel.ID, Key: t.Panel.Key, Name: t.Panel.Name, CurrencyCode: t.Panel.CurrencyCode, BalanceMoves: t.BalanceMoves, Allowed: t.Allowed, Reason: t.Reason})
		can = can || t.Allowed
	}
	return c.JSON(fiber.Map{
		"canChangeInstance": can, "balance": web.MoneyString(balance, panel.CurrencyCode), "currency_code": panel.CurrencyCode, "panels": out,
	})
}

// POST /ah/api/v1/change-instance {panelKey (or panelUuid), password}: the new membership's
// pp-token and profile, where it is served, and the address that opens it signed in.
func (m *Module) apiChangeInstance(c fiber.Ctx) error {
	var in struct {
		PanelKey  string `json:"panelKey"`
		PanelUUID string `json:"panelUuid"`
		Password  string `json:"password"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	target := in.PanelKey
	if target == "" {
		target = in.PanelUUID
	}
	if target == "" {
		return web.Invalid("panelKey", "error.required", nil)
	}
	moved, err := m.svc.ChangeInstance(c.Context(), web.PanelOf(c), web.MemberOf(c), target, in.Password, accounts.ClientOf(c))
	if err != nil {
		return err
	}
	m.kit.ClearCookie(c, accounts.TokenCookie) // this panel's session ended with its membership
	origin := m.kit.PanelOrigin(c, moved.Panel)
	c.Set(fiber.HeaderCacheControl, "no-store") // it carries the new session's token
	return c.JSON(fiber.Map{
		"ppToken": moved.Issued.Token, "panelKey": moved.Panel.Key, "instanceUrl": origin,
		"continueUrl": origin + accounts.HandoffURL(moved.Handoff), "moved": web.MoneyString(moved.Moved, moved.Panel.CurrencyCode),
		"currency_code": moved.Panel.CurrencyCode,
	})
}

// POST /settings/change-instance {panelKey, instancePassword}: off to the new panel, signed in.
func (m *Module) settingsChangeInstance(c fiber.Ctx) error {
	moved, err := m.svc.ChangeInstance(c.Context(), web.PanelOf(c), web.MemberOf(c), c.FormValue("panelKey"), c.FormValue("instancePassword"), accounts.ClientOf(c))
	if err != nil {
		return m.settingsFailed(c, err, sectionInstance, map[string]string{"panelKey": c.FormValue("panelKey")})
	}
	m.kit.ClearCookie(c, accounts.TokenCookie)
	web.SetMember(c, nil)
	return c.Redirect().Status(fiber.StatusSeeOther).To(m.kit.PanelOrigin(c, moved.Panel) + accounts.HandoffURL(moved.Handoff))
}
