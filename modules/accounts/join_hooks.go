package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// What accounts does for the referrals module (modules/referrals), which follows how members
// come to join: by a friend's invitation (/join/invite/:inviteId) or a partner's code
// (/join?affiliate=CODE). The join page asks it what to show; every way of joining (the form,
// the register API, a provider, onboarding) asks it first whether the sign-up may happen and
// tells it afterwards who joined. It also reads what it needs of members here, never their
// tables, and sets the profile's isEligibleToRefer.

// DeviceCookie is a long-lived random value the referrals module sets in the browser of a member
// who invites friends: a sign-up through an invitation from that same browser is the inviter
// signing themselves up (a self-referral).
const DeviceCookie = "device"

// The join page keeps the invitation or partner code it was opened with in these cookies, so
// that a sign-up through a provider (which returns elsewhere) or onboarding still carries it.
const (
	inviteCookie    = "join-invite"
	affiliateCookie = "join-affiliate"
	joinCookieAge   = 24 * 60 * 60 // seconds: a day, as long as an onboarding may take
)

// joinRefRE is what an invitation id or partner code may look like; anything else is ignored.
var joinRefRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Invitation is what the join page shows of an invitation.
type Invitation struct {
	InviterName string // the inviter's first name, "" when they gave none
	Email       string // the address it was sent to (the form's email)
	Expired     bool   // archived or already used: the page says so, and joining links nothing
}

// Partner is what the join page shows of a partner's (affiliate's) code.
type Partner struct {
	Name  string
	Bonus string // the sign-up bonus formatted in the visitor's language, "" for none
}

// Joined is a sign-up: before it is made (CheckJoin, ParticipantID empty) and once it is.
type Joined struct {
	ParticipantID   string
	AccountHolderID string
	Email           string
	FirstName       string
	LanguageCode    string
	EmailValidated  bool
	InviteID        string // the invitation it came through, "" for none
	Affiliate       string // the partner code it came with, "" for none
	Device          string // the browser's DeviceCookie, "" for none
}

// JoinHooks is what accounts asks of the referrals module about sign-ups.
type JoinHooks interface {
	// Invitation describes an invitation of the panel for the join page (nil: none such).
	Invitation(ctx context.Context, panel *web.Panel, inviteID, lang string) (*Invitation, error)
	// Partner describes a partner code of the panel for the join page (nil: none such).
	Partner(ctx context.Context, panel *web.Panel, code, lang string) (*Partner, error)
	// CheckJoin may refuse a sign-up before it is made, with a *web.Error (a self-referral).
	CheckJoin(ctx context.Context, panel *web.Panel, j Joined) error
	// Joined hears of a new member. Its failure is logged: the member has joined either way.
	Joined(ctx context.Context, panel *web.Panel, j Joined) error
}

// SetJoinHooks plugs in the referrals module (it is built after accounts).
func (m *Module) SetJoinHooks(h JoinHooks) { m.svc.joinHooks = h }

// joinRef keeps a value that may be an invitation id or partner code, or "".
func joinRef(v string) string {
	if joinRefRE.MatchString(v) {
		return v
	}
	return ""
}

// joinOf is the sign-up in, for the hooks.
func joinOf(ah *AccountHolder, p *Participant, client Client, inviteID, affiliate string) Joined {
	j := Joined{
		Email: ah.Email, FirstName: ah.FirstName, LanguageCode: ah.LanguageCode, EmailValidated: ah.EmailValidatedAt != nil,
		InviteID: joinRef(inviteID), Affiliate: joinRef(affiliate), Device: client.Device,
	}
	if j.InviteID == "" {
		j.InviteID = joinRef(client.Invite)
	}
	if j.Affiliate == "" {
		j.Affiliate = joinRef(client.Affiliate)
	}
	if p != nil {
		j.ParticipantID, j.AccountHolderID = p.ID, ah.ID
	}
	return j
}

// checkJoin asks the hooks whether a sign-up may happen.
func (s *Service) checkJoin(ctx context.Context, panel *web.Panel, j Joined) error {
	if s.joinHooks == nil || (j.InviteID == "" && j.Affiliate == "") {
		return nil
	}
	return s.joinHooks.CheckJoin(ctx, panel, j)
}

// joined tells the hooks of a new member; the member has joined whatever they answer.
func (s *Service) joined(ctx context.Context, panel *web.Panel, j Joined) {
	if s.joinHooks == nil {
		return
	}
	if err := s.joinHooks.Joined(ctx, panel, j); err != nil {
		s.log.Error("accounts: the join hooks failed; the member has joined", "panel", panel.Key, "participant", j.ParticipantID, "err", err)
	}
}

// joinExtras puts on the join page what the invitation or partner code it was opened with
// says, and keeps them (cookies) for a sign-up through a provider or onboarding.
func (m *Module) joinExtras(c fiber.Ctx, props *views.FormProps) error {
	panel, lang := web.PanelOf(c), web.LocaleOf(c)
	if id := joinRef(props.InviteID); id != "" && m.svc.joinHooks != nil {
		inv, err := m.svc.joinHooks.Invitation(c.Context(), panel, id, lang)
		if err != nil {
			return err
		}
		if inv != nil {
			props.Invitation = &views.JoinInvitation{InviterName: inv.InviterName, Expired: inv.Expired}
			if !inv.Expired {
				m.kit.SetCookie(c, &fiber.Cookie{Name: inviteCookie, Value: id, MaxAge: joinCookieAge})
				if props.Values == nil {
					props.Values = map[string]string{}
				}
				if props.Values["email"] == "" {
					props.Values["email"] = inv.Email
				}
			}
		}
	}
	if code := joinRef(props.Affiliate); code != "" && m.svc.joinHooks != nil {
		p, err := m.svc.joinHooks.Partner(c.Context(), panel, code, lang)
		if err != nil {
			return err
		}
		if p == nil {
			props.Affiliate = ""
		} else {
			props.Partner = &views.JoinPartner{Name: p.Name, Bonus: p.Bonus}
			m.kit.SetCookie(c, &fiber.Cookie{Name: affiliateCookie, Value: code, MaxAge: joinCookieAge})
		}
	}
	return nil
}

// Contact is what another module may read of a member to write to them and to apply its rules.
type Contact struct {
	ParticipantID     string
	PanelID           string
	Email             string
	FirstName         string
	LanguageCode      string
	Status            string
	EmailValidated    bool
	WelcomeCompleted  bool
	IsEligibleToRefer bool
}

// Contact reads a member by participant id (ErrNotFound when there is none).
func (m *Module) Contact(ctx context.Context, participantID string) (*Contact, error) {
	var row struct {
		ID                string
		PanelID           string
		Metadata          string
		IsEligibleToRefer bool
		Email             string
		FirstName         string
		LanguageCode      string
		Status            string
		EmailValidated    bool
	}
	err := m.svc.store.db.WithContext(ctx).Table("participants AS p").
		Select("p.id, p.panel_id, p.metadata, p.is_eligible_to_refer, h.email, h.first_name, h.language_code, h.status, h.email_validated_at IS NOT NULL AS email_validated").
		Joins("JOIN account_holders h ON h.id = p.account_holder_id").Where("p.id = ?", participantID).Take(&row).Error
	if err != nil {
		return nil, fmt.Errorf("contact of %s: %w", participantID, notFound(err))
	}
	var md Metadata
	if row.Metadata != "" && row.Metadata != "null" {
		if err := json.Unmarshal([]byte(row.Metadata), &md); err != nil {
			return nil, fmt.Errorf("contact of %s: metadata: %w", participantID, err)
		}
	}
	welcome, _ := md["welcomeCampaignCompleted"].(bool)
	return &Contact{
		ParticipantID: row.ID, PanelID: row.PanelID, Email: row.Email, FirstName: row.FirstName, LanguageCode: row.LanguageCode,
		Status: row.Status, EmailValidated: row.EmailValidated, WelcomeCompleted: welcome, IsEligibleToRefer: row.IsEligibleToRefer,
	}, nil
}

// IsMember tells whether an email (as accounts compares them: trimmed, lower case) has an
// account on the panel.
func (m *Module) IsMember(ctx context.Context, panel *web.Panel, email string) (bool, error) {
	_, err := m.svc.store.HolderByEmail(ctx, panel.ID, NormalizeEmail(email))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotFound):
		return false, nil
	}
	return false, err
}

// SetEligibleToRefer marks the member eligible to refer (the profile's isEligibleToRefer),
// once: the referrals module decides by its panel's rule.
func (m *Module) SetEligibleToRefer(ctx context.Context, participantID string) error {
	return setEligibleToRefer(m.svc.store.db.WithContext(ctx), participantID)
}

func setEligibleToRefer(db *gorm.DB, participantID string) error {
	err := db.Model(&Participant{}).Where("id = ? AND is_eligible_to_refer = ?", participantID, false).Update("is_eligible_to_refer", true).Error
	if err != nil {
		return fmt.Errorf("mark %s eligible to refer: %w", participantID, err)
	}
	return nil
}
