package referrals

import (
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The account host calls (spec section 7), under /ah/api/v1/ with the member's pp-token.
// Money is a decimal string with its currency_code (ARCHITECTURE.md); times are RFC 3339 UTC.

// inviteJSON is an invitation in the referrals calls.
type inviteJSON struct {
	ID         string     `json:"id"`
	Email      string     `json:"email"`
	Message    string     `json:"message"`
	Status     string     `json:"status"` // pending, accepted, archived
	Sends      int        `json:"sends"`
	SentAt     time.Time  `json:"sentAt"`
	LastSentAt time.Time  `json:"lastSentAt"`
	ExpiresAt  *time.Time `json:"expiresAt"` // pending: when it is archived unless sent again
	AcceptedAt *time.Time `json:"acceptedAt"`
	ArchivedAt *time.Time `json:"archivedAt"`
	// ArchivedReason: "member" (archived by the member), "expired", "closed"; "" unless archived.
	ArchivedReason  string  `json:"archivedReason"`
	FriendName      string  `json:"friendName"` // the friend's first name once they joined
	Reward          *string `json:"reward"`     // the reward paid for it, null until paid
	CurrencyCode    string  `json:"currency_code"`
	TransactionUUID *string `json:"transactionUuid"` // the reward's ledger entry
}

func (m *Module) inviteJSON(panel *web.Panel, st Settings, inv Invite) inviteJSON {
	out := inviteJSON{
		ID: inv.ID, Email: inv.Email, Message: inv.Message, Status: inv.State, Sends: inv.Sends, SentAt: inv.SentAt.UTC(),
		LastSentAt: inv.LastSentAt.UTC(), AcceptedAt: utc(inv.AcceptedAt), ArchivedAt: utc(inv.ArchivedAt),
		ArchivedReason: inv.ArchivedReason, FriendName: inv.InviteeName, CurrencyCode: panel.CurrencyCode, TransactionUUID: inv.TransactionID,
	}
	if inv.State == StatePending {
		at := inv.LastSentAt.Add(st.expiry()).UTC()
		out.ExpiresAt = &at
	}
	if inv.RewardedAt != nil {
		r := web.MoneyString(inv.RewardMinor, panel.CurrencyCode)
		out.Reward = &r
	}
	return out
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// sender is the signed-in member sending from this request.
func (m *Module) sender(c fiber.Ctx) Sender {
	member := web.MemberOf(c)
	return Sender{
		Member: member, Lang: web.ResolveLanguage(web.PanelOf(c), web.LocaleOf(c), member.LanguageCode),
		Device: m.device(c), Origin: m.origin(c),
	}
}

// POST referrals/send {email, message?}: 201 with the invitation.
func (m *Module) apiSend(c fiber.Ctx) error {
	var in struct {
		Email   string `json:"email"`
		Message string `json:"message"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	panel := web.PanelOf(c)
	r, err := m.svc.Send(c.Context(), panel, m.sender(c), in.Email, in.Message)
	if err != nil {
		return err
	}
	return m.answerInvite(c, fiber.StatusCreated, r)
}

// POST referrals/resend/{id}: the invitation, sent again.
func (m *Module) apiResend(c fiber.Ctx) error {
	r, err := m.svc.Resend(c.Context(), web.PanelOf(c), m.sender(c), c.Params("id"))
	if err != nil {
		return err
	}
	return m.answerInvite(c, fiber.StatusOK, r)
}

func (m *Module) answerInvite(c fiber.Ctx, status int, r *Referral) error {
	panel := web.PanelOf(c)
	st, err := m.svc.Settings(c.Context(), panel)
	if err != nil {
		return err
	}
	inv := Invite{Referral: *r}
	inv.State, inv.ArchivedReason, inv.ArchivedAt = r.State(st, m.svc.now().UTC())
	return c.Status(status).JSON(m.inviteJSON(panel, st, inv))
}

// GET referrals/stats: {sent, accepted, pending, archived, earned, currency_code}.
func (m *Module) apiStats(c fiber.Ctx) error {
	panel, member := web.PanelOf(c), web.MemberOf(c)
	if err := m.svc.Settle(c.Context(), panel, member.ParticipantID); err != nil {
		return err
	}
	s, err := m.svc.Stats(c.Context(), panel, member)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{
		"sent": s.Sent, "accepted": s.Accepted, "pending": s.Pending, "archived": s.Archived,
		"earned": web.MoneyString(s.EarnedMinor, s.Currency), "currency_code": s.Currency,
	})
}

// GET referrals/pending-invites, accepted-invites, archived-invites?orderBy=: the member's
// invitations in that state (at most 500, newest first; archived ones by orderBy).
func (m *Module) apiInvites(state string) fiber.Handler {
	return func(c fiber.Ctx) error {
		panel := web.PanelOf(c)
		list, err := m.svc.Invites(c.Context(), panel, web.MemberOf(c), state, c.Query("orderBy"))
		if err != nil {
			return err
		}
		st, err := m.svc.Settings(c.Context(), panel)
		if err != nil {
			return err
		}
		out := make([]inviteJSON, 0, len(list))
		for _, inv := range list {
			out = append(out, m.inviteJSON(panel, st, inv))
		}
		return c.JSON(out)
	}
}

// bladeJSON is a feed card in GET user/blades, worded in the member's language.
type bladeJSON struct {
	ID          string           `json:"id"`
	Type        string           `json:"type"`
	Title       string           `json:"title"`
	Text        string           `json:"text"`
	Dismissible bool             `json:"dismissible"`
	Link        *bladeLinkJSON   `json:"link"`
	Action      *bladeActionJSON `json:"action"`
}

type bladeLinkJSON struct {
	Href  string `json:"href"`
	Label string `json:"label"`
}

type bladeActionJSON struct {
	Name   string `json:"name"` // thank-referrer, resend
	Method string `json:"method"`
	Href   string `json:"href"`
	Label  string `json:"label"`
}

// GET user/blades: the member's cards.
func (m *Module) apiBlades(c fiber.Ctx) error {
	list, err := m.worded(c)
	if err != nil {
		return err
	}
	out := make([]bladeJSON, 0, len(list))
	for _, w := range list {
		b := bladeJSON{ID: w.ID, Type: w.Kind, Title: w.Title, Text: w.Text, Dismissible: true}
		if w.LinkHref != "" {
			b.Link = &bladeLinkJSON{Href: w.LinkHref, Label: w.LinkLabel}
		}
		switch w.Kind {
		case BladeThankReferrer:
			b.Action = &bladeActionJSON{Name: "thank-referrer", Method: fiber.MethodPost, Href: "/ah/api/v1/blades/" + w.ID + "/thank-referrer", Label: w.ActionLabel}
		case BladeInviteWaiting:
			b.Action = &bladeActionJSON{Name: "resend", Method: fiber.MethodPost, Href: "/ah/api/v1/referrals/resend/" + w.ReferralID, Label: w.ActionLabel}
		}
		out = append(out, b)
	}
	return c.JSON(out)
}

// POST blades/{id}/dismiss
func (m *Module) apiDismiss(c fiber.Ctx) error {
	id := c.Params("id")
	if err := m.svc.Dismiss(c.Context(), web.PanelOf(c), web.MemberOf(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"id": id, "dismissed": true})
}

// POST blades/{id}/thank-referrer: mails the referrer a thank-you, once.
func (m *Module) apiThank(c fiber.Ctx) error {
	id := c.Params("id")
	if _, err := m.svc.ThankReferrer(c.Context(), web.PanelOf(c), web.MemberOf(c), id, m.origin(c)); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"id": id, "thanked": true})
}

// affiliateJSON is a partner code in the affiliates calls.
type affiliateJSON struct {
	Code         string `json:"code"`
	Partner      string `json:"partner"`
	Bonus        string `json:"bonus"`
	CurrencyCode string `json:"currency_code"`
	// Accepted: the member came through this partner; Available: they may still accept it
	// (they came through no partner yet).
	Accepted        bool    `json:"accepted"`
	Available       bool    `json:"available"`
	TransactionUUID *string `json:"transactionUuid"`
}

func affiliateOut(a *AffiliateInvite) affiliateJSON {
	return affiliateJSON{
		Code: a.Code, Partner: a.Partner, Bonus: web.MoneyString(a.BonusMinor, a.CurrencyCode), CurrencyCode: a.CurrencyCode,
		Accepted: a.Accepted, Available: !a.Accepted && !a.Elsewhere, TransactionUUID: a.TransactionID,
	}
}

// GET affiliates/invite/{code}: the partner and its bonus.
func (m *Module) apiAffiliate(c fiber.Ctx) error {
	a, err := m.svc.DescribeAffiliate(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, c.Params("code"))
	if err != nil {
		return err
	}
	return c.JSON(affiliateOut(a))
}

// POST affiliates/invite/{code}/accept: attributes the member to the partner and pays its
// bonus, once (the same code again answers the same; another code is 409 already_attributed).
func (m *Module) apiAffiliateAccept(c fiber.Ctx) error {
	a, err := m.svc.AcceptAffiliate(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, c.Params("code"), web.LocaleOf(c))
	if err != nil {
		return err
	}
	return c.JSON(affiliateOut(a))
}
