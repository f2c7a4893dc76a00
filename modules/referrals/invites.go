package referrals

import (
	"context"
	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// JoinPath is the mailed link's path: the join page that names the inviter.
func JoinPath(id string) string { return "/join/invite/" + id }

// Send invites a friend by email on behalf of the member: the abuse rules first (each refusal
// writes nothing), then the invitation is stored and mailed in the member's language.
func (s *Service) Send(ctx context.Context, panel *web.Panel, from Sender, email, message string) (*Referral, error) {
	m := from.Member
	ok, st, err := s.CanRefer(ctx, panel, m)
	if err != nil {
		return nil, err
	}
	if !st.Enabled {
		return nil, web.NotFound()
	}
	if !ok {
		return nil, errNotEligible()
	}
	email = strings.TrimSpace(email)
	var verr *web.Error
	switch {
	case email == "":
		verr = web.Invalid("email", "error.required", nil)
	case !validEmail(email):
		verr = web.Invalid("email", "error.invalid_email", nil)
	}
	message, merr := checkMessage(message)
	if merr != nil {
		if verr == nil {
			verr = merr
		} else {
			verr.Details = append(verr.Details, merr.Details...)
		}
	}
	if verr != nil {
		return nil, verr
	}
	key := NormalizeEmail(email)
	if key == NormalizeEmail(m.Email) {
		// The member's own address, however written (plus tags, Gmail's dots).
		return nil, web.Invalid("email", "error.referral_self", nil).WithCode("self_referral")
	}
	member, err := s.members.IsMember(ctx, panel, email)
	if err != nil {
		return nil, err
	}
	if member {
		return nil, refusal(fiber.StatusConflict, "error.referral_member", "already_member", nil)
	}
	now := s.now().UTC()
	open, err := s.store.OpenTo(ctx, m.ParticipantID, key, now.Add(-st.expiry()))
	if err != nil {
		return nil, err
	}
	if open != nil {
		e := refusal(fiber.StatusConflict, "error.referral_already_invited", "already_invited", nil)
		e.Body = map[string]any{"id": open.ID}
		return nil, e
	}
	if err := s.countSend(ctx, st, m.ParticipantID); err != nil {
		return nil, err
	}
	contact, err := s.members.Contact(ctx, m.ParticipantID)
	if err != nil {
		return nil, err
	}
	r := &Referral{
		ID: uuid.NewString(), PanelID: panel.ID, ReferrerID: m.ParticipantID, Email: email, EmailKey: key, Message: message,
		LanguageCode: from.Lang, SenderKey: digest(NormalizeEmail(m.Email)), SenderDevice: digest(from.Device),
		Sends: 1, SentAt: now, LastSentAt: now,
	}
	// The invitation and its mail in one transaction: no mail without its invitation, no
	// invitation whose mail is lost.
	err = migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		if err := NewStore(tx).CreateReferral(ctx, r); err != nil {
			return err
		}
		return s.mails.Invite(tx, sendEvent(r), panel, r, contact.FirstName, from.Origin+JoinPath(r.ID))
	})
	if err != nil {
		return nil, err
	}
	if _, err := s.MarkEligible(ctx, panel, m); err != nil {
		return nil, err
	}
	return r, nil
}

// countSend counts one mail against the member's daily limit, refusing past it (429).
func (s *Service) countSend(ctx context.Context, st Settings, participantID string) error {
	n, err := s.limiter.Hit(ctx, "referrals:send:"+participantID, sendWindow)
	if err != nil {
		return err
	}
	if n > st.DailyLimit {
		return refusal(fiber.StatusTooManyRequests, "error.referral_daily_limit", "daily_limit_reached", map[string]any{"Max": st.DailyLimit})
	}
	return nil
}

// own returns one of the member's invitations (another member's, or another panel's, is a 404).
func (s *Service) own(ctx context.Context, panel *web.Panel, m *web.Member, id string) (*Referral, error) {
	if _, err := uuid.Parse(id); err != nil {
		return nil, web.NotFound()
	}
	r, err := s.store.Referral(ctx, panel.ID, id)
	if err != nil {
		return nil, err
	}
	if r.ReferrerID != m.ParticipantID {
		return nil, web.NotFound()
	}
	return r, nil
}

func errNotPending(state string) *web.Error {
	return refusal(fiber.StatusConflict, "error.referral_not_pending", "invite_"+state, nil)
}

// Resend mails a pending invitation again: once a day per invitation (modules/ratelimit), and
// counted against the member's daily limit. It moves the invitation's expiry on.
func (s *Service) Resend(ctx context.Context, panel *web.Panel, from Sender, id string) (*Referral, error) {
	m := from.Member
	r, err := s.own(ctx, panel, m, id)
	if err != nil {
		return nil, err
	}
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return nil, err
	}
	if !st.Enabled {
		return nil, web.NotFound()
	}
	now := s.now().UTC()
	if state, _, _ := r.State(st, now); state != StatePending {
		return nil, errNotPending(state)
	}
	n, err := s.limiter.Hit(ctx, "referrals:resend:"+r.ID, resendWindow)
	if err != nil {
		return nil, err
	}
	if n > 1 {
		return nil, refusal(fiber.StatusTooManyRequests, "error.referral_resend_too_soon", "resend_too_soon", nil)
	}
	if err := s.countSend(ctx, st, m.ParticipantID); err != nil {
		return nil, err
	}
	contact, err := s.members.Contact(ctx, m.ParticipantID)
	if err != nil {
		return nil, err
	}
	err = migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		ok, err := NewStore(tx).Resent(ctx, r.ID, now, now.Add(-st.expiry()))
		if err != nil {
			return err
		}
		if !ok {
			return errNotPending(StateArchived) // accepted or archived meanwhile
		}
		fresh, err := referralIn(tx, panel.ID, r.ID) // its count of sends names this send
		if err != nil {
			return err
		}
		r.Sends, r.LastSentAt = fresh.Sends, now
		return s.mails.Invite(tx, sendEvent(r), panel, r, contact.FirstName, from.Origin+JoinPath(r.ID))
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Archive archives one of the member's pending invitations: its link stops working.
func (s *Service) Archive(ctx context.Context, panel *web.Panel, m *web.Member, id string) error {
	r, err := s.own(ctx, panel, m, id)
	if err != nil {
		return err
	}
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	if state, _, _ := r.State(st, now); state != StatePending {
		return errNotPending(state)
	}
	ok, err := s.store.Archive(ctx, r.ID, ArchivedByMember, now, now.Add(-st.expiry()))
	if err != nil {
		return err
	}
	if !ok {
		return errNotPending(StateArchived)
	}
	return nil
}

// Invite is an invitation as the member sees it.
type Invite struct {
	Referral
	State          string
	ArchivedReason string
	ArchivedAt     *time.Time
}

// OrderBy values of the archived list: a field, "-" first for the reverse order.
var archivedOrders = map[string]bool{"archivedAt": true, "-archivedAt": true, "sentAt": true, "-sentAt": true, "email": true, "-email": true}

// DefaultArchivedOrder is the archived list's order when none is asked for: the most recently
// archived first.
const DefaultArchivedOrder = "-archivedAt"

// Invites lists the member's invitations in a state, newest first; the archived ones in
// orderBy's order ("" for the default).
func (s *Service) Invites(ctx context.Context, panel *web.Panel, m *web.Member, state, orderBy string) ([]Invite, error) {
	if state == StateArchived {
		if orderBy == "" {
			orderBy = DefaultArchivedOrder
		}
		if !archivedOrders[orderBy] {
			return nil, web.Invalid("orderBy", "error.referral_order", map[string]any{"Values": "archivedAt, sentAt, email"})
		}
	}
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	rows, err := s.store.ByState(ctx, panel.ID, m.ParticipantID, state, now.Add(-st.expiry()))
	if err != nil {
		return nil, err
	}
	out := make([]Invite, 0, len(rows))
	for _, r := range rows {
		inv := Invite{Referral: r}
		inv.State, inv.ArchivedReason, inv.ArchivedAt = r.State(st, now)
		out = append(out, inv)
	}
	if state == StateArchived {
		sortArchived(out, orderBy)
	}
	return out, nil
}

func sortArchived(list []Invite, orderBy string) {
	field, desc := strings.TrimPrefix(orderBy, "-"), strings.HasPrefix(orderBy, "-")
	less := func(a, b Invite) int {
		switch field {
		case "sentAt":
			return a.SentAt.Compare(b.SentAt)
		case "email":
			return strings.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email))
		}
		return a.ArchivedAt.Compare(*b.ArchivedAt)
	}
	sort.SliceStable(list, func(i, j int) bool {
		c := less(list[i], list[j])
		if desc {
			c = -c
		}
		if c == 0 {
			return list[i].ID < list[j].ID
		}
		return c < 0
	})
}

// Summary is the member's referral stats: invitations sent, accepted, pending and archived,
// and the rewards earned in the panel's currency.
type Summary struct {
	Sent, Accepted, Pending, Archived int
	EarnedMinor                       int64
	Currency                          string
}

// Stats counts the member's invitations.
func (s *Service) Stats(ctx context.Context, panel *web.Panel, m *web.Member) (Summary, error) {
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return Summary{}, err
	}
	c, err := s.store.Stats(ctx, panel.ID, m.ParticipantID, s.now().UTC().Add(-st.expiry()))
	if err != nil {
		return Summary{}, err
	}
	return Summary{Sent: c.Sent, Accepted: c.Accepted, Pending: c.Pending, Archived: c.Sent - c.Accepted - c.Pending,
		EarnedMinor: c.EarnedMinor, Currency: panel.CurrencyCode}, nil
}

// sendEvent names one send of an invitation: its id and the count of sends it makes.
func sendEvent(r *Referral) string { return "referral:" + r.ID + ":send:" + strconv.Itoa(r.Sends) }
