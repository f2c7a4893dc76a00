package referrals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// Blades are the dismissible cards at the top of the feed (GET user/blades): a friend joined
// through the member's invitation; the member joined through a friend's (thank them); an
// invitation of theirs has waited a while (send it again); their mobile is not verified;
// they have no postal address. What they need of this module's tables comes with the session
// (MemberJoin), so the feed makes no query for them (docs/contributing.md, Server cost).

// Blade kinds, which are also the start of their ids.
const (
	BladeFriendJoined    = "friend-joined"    // friend-joined.<referral id>, to the referrer
	BladeThankReferrer   = "thank-referrer"   // thank-referrer.<referral id>, to the friend who joined
	BladeInviteWaiting   = "invite-waiting"   // invite-waiting.<referral id>, to the referrer
	BladeVerifyMobile    = "verify-mobile"    // the member's mobile is not verified
	BladeCompleteAddress = "complete-address" // the member has no postal address
)

// How long a card stays: a joined friend's cards for 30 days after they joined; a waiting
// invitation's card once it has waited 3 days since it was last sent (until it expires).
const (
	bladeFreshFor = 30 * 24 * time.Hour
	waitingAfter  = 3 * 24 * time.Hour
)

// Blade is one card as the module decides it; pages and the API word it.
type Blade struct {
	ID          string
	Kind        string
	ReferralID  string // the invitation it is about ("" for mobile and address)
	Name        string // the friend's name (friend-joined) or the referrer's (thank-referrer)
	Email       string // the friend's address (invite-waiting)
	RewardMinor int64  // the reward paid (friend-joined), 0 when none yet
	Since       time.Time
}

// bladeRow is what the session reads for the cards.
type bladeRow struct {
	friendID, friendName sql.NullString
	friendReward         sql.NullInt64
	friendRewarded       sql.NullTime
	friendAccepted       sql.NullTime
	thankID, thankName   sql.NullString
	thankAccepted        sql.NullTime
	waitID, waitEmail    sql.NullString
	waitSent             sql.NullTime
	mobileGone, addrGone sql.NullInt64
}

func (b *bladeRow) dest() []any {
	return []any{&b.friendID, &b.friendName, &b.friendReward, &b.friendRewarded, &b.friendAccepted,
		&b.thankID, &b.thankName, &b.thankAccepted, &b.waitID, &b.waitEmail, &b.waitSent, &b.mobileGone, &b.addrGone}
}

// bladeColumns and bladeFrom are the session's part of the cards: the newest accepted
// invitation of the member's whose card they did not dismiss, the invitation they joined
// through until they thanked or dismissed it, their newest pending invitation (not dismissed),
// and whether they dismissed the mobile and address cards. Each is one indexed row.
var bladeColumns = []string{
	"rfj.id", "rfj.invitee_name", "rfj.reward_minor", "rfj.rewarded_at", "rfj.accepted_at",
	"rtr.id", "rtr.referrer_name", "rtr.accepted_at",
	"riw.id", "riw.email", "riw.last_sent_at",
	"CASE WHEN EXISTS (SELECT 1 FROM blade_dismissals bd WHERE bd.participant_id = p.id AND bd.blade_id = '" + BladeVerifyMobile + "') THEN 1 ELSE 0 END",
	"CASE WHEN EXISTS (SELECT 1 FROM blade_dismissals bd WHERE bd.participant_id = p.id AND bd.blade_id = '" + BladeCompleteAddress + "') THEN 1 ELSE 0 END",
}

const bladeFrom = `LEFT JOIN referrals rfj ON rfj.id = (SELECT r.id FROM referrals r WHERE r.referrer_id = p.id AND r.accepted_at IS NOT NULL
				AND NOT EXISTS (SELECT 1 FROM blade_dismissals bd WHERE bd.participant_id = p.id AND bd.blade_id = '` + BladeFriendJoined + `.' || r.id)
				ORDER BY r.accepted_at DESC LIMIT 1)
			LEFT JOIN referrals rtr ON rtr.invitee_id = p.id AND rtr.thanked_at IS NULL
				AND NOT EXISTS (SELECT 1 FROM blade_dismissals bd WHERE bd.participant_id = p.id AND bd.blade_id = '` + BladeThankReferrer + `.' || rtr.id)
			LEFT JOIN referrals riw ON riw.id = (SELECT r.id FROM referrals r WHERE r.referrer_id = p.id AND r.accepted_at IS NULL AND r.archived_at IS NULL
				AND NOT EXISTS (SELECT 1 FROM blade_dismissals bd WHERE bd.participant_id = p.id AND bd.blade_id = '` + BladeInviteWaiting + `.' || r.id)
				ORDER BY r.last_sent_at DESC LIMIT 1)`

type bladesKey struct{}

// bladesPath is the blades API; the feed page at /feed shows the same cards.
const bladesPath = "/ah/api/v1/user/blades"

// ShowsBlades tells whether the request shows the member's cards: the feed page and the blades
// API. The rows the cards need are read with the session there, and only there.
func ShowsBlades(c fiber.Ctx) bool { return c.Path() == "/feed" || c.Path() == bladesPath }

// MemberJoin reads the cards' rows with the session of the requests that show them
// (web.MemberJoin, ShowsBlades).
func (m *Module) MemberJoin() web.MemberJoin {
	return web.MemberJoin{
		Columns: bladeColumns,
		From:    bladeFrom,
		When:    ShowsBlades,
		Scan: func() ([]any, func(fiber.Ctx)) {
			row := &bladeRow{}
			return row.dest(), func(c fiber.Ctx) { c.Locals(bladesKey{}, row) }
		},
	}
}

// bladeRowOf reads the cards' rows of a member on their own (a request that did not read them
// with the session).
func (s *Store) bladeRowOf(ctx context.Context, participantID string) (*bladeRow, error) {
	row := &bladeRow{}
	q := "SELECT " + strings.Join(bladeColumns, ", ") + " FROM participants p " + bladeFrom + " WHERE p.id = ?"
	err := s.db.WithContext(ctx).Raw(q, participantID).Row().Scan(row.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return &bladeRow{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("blades of %s: %w", participantID, err)
	}
	return row, nil
}

// Conditions is what other modules say of the member for the mobile and address cards.
type Conditions struct {
	MobileStatus string // the mobile module's eligibleToRedeem ("" when unknown)
	// HasAddress reports whether the member has a postal address (nil: no such card).
	HasAddress func() (bool, error)
}

// needsMobile are the eligibleToRedeem values that ask the member to verify their mobile.
var needsMobile = map[string]bool{"not-verified": true, "not-verified-mobile": true, "reverify": true}

// blades decides the member's cards, newest concern first.
func (s *Service) blades(st Settings, row *bladeRow, cond Conditions, now time.Time) ([]Blade, error) {
	var out []Blade
	fresh := func(t sql.NullTime) bool { return t.Valid && now.Sub(t.Time) < bladeFreshFor }
	if st.Enabled {
		if row.thankID.Valid && fresh(row.thankAccepted) {
			out = append(out, Blade{ID: BladeThankReferrer + "." + row.thankID.String, Kind: BladeThankReferrer, ReferralID: row.thankID.String,
				Name: row.thankName.String, Since: row.thankAccepted.Time})
		}
		if row.friendID.Valid && fresh(row.friendAccepted) {
			b := Blade{ID: BladeFriendJoined + "." + row.friendID.String, Kind: BladeFriendJoined, ReferralID: row.friendID.String,
				Name: row.friendName.String, Since: row.friendAccepted.Time}
			if row.friendRewarded.Valid {
				b.RewardMinor = row.friendReward.Int64
			}
			out = append(out, b)
		}
		if row.waitID.Valid && row.waitSent.Valid {
			waited := now.Sub(row.waitSent.Time)
			if waited >= waitingAfter && waited < st.expiry() {
				out = append(out, Blade{ID: BladeInviteWaiting + "." + row.waitID.String, Kind: BladeInviteWaiting, ReferralID: row.waitID.String,
					Email: row.waitEmail.String, Since: row.waitSent.Time})
			}
		}
	}
	if row.mobileGone.Int64 == 0 && needsMobile[cond.MobileStatus] {
		out = append(out, Blade{ID: BladeVerifyMobile, Kind: BladeVerifyMobile})
	}
	if row.addrGone.Int64 == 0 && cond.HasAddress != nil {
		has, err := cond.HasAddress()
		if err != nil {
			return nil, err
		}
		if !has {
			out = append(out, Blade{ID: BladeCompleteAddress, Kind: BladeCompleteAddress})
		}
	}
	return out, nil
}

// parseBladeID splits a blade id into its kind and the invitation it names ("" for mobile
// and address); ok false for anything else.
func parseBladeID(id string) (kind, ref string, ok bool) {
	switch id {
	case BladeVerifyMobile, BladeCompleteAddress:
		return id, "", true
	}
	kind, ref, found := strings.Cut(id, ".")
	if !found {
		return "", "", false
	}
	switch kind {
	case BladeFriendJoined, BladeThankReferrer, BladeInviteWaiting:
	default:
		return "", "", false
	}
	if _, err := uuid.Parse(ref); err != nil {
		return "", "", false
	}
	return kind, ref, true
}

// bladeReferral is the invitation a card names, when the card is the member's to act on: the
// referrer's for friend-joined and invite-waiting, the friend's for thank-referrer.
func (s *Service) bladeReferral(ctx context.Context, panel *web.Panel, m *web.Member, kind, ref string) (*Referral, error) {
	r, err := s.store.Referral(ctx, panel.ID, ref)
	if err != nil {
		return nil, err
	}
	mine := r.ReferrerID == m.ParticipantID
	if kind == BladeThankReferrer {
		mine = r.InviteeID != nil && *r.InviteeID == m.ParticipantID
	}
	if !mine {
		return nil, web.NotFound()
	}
	return r, nil
}

// Dismiss hides one of the member's cards for good (again: nothing changes). An id that is not
// one of their cards is a 404.
func (s *Service) Dismiss(ctx context.Context, panel *web.Panel, m *web.Member, id string) error {
	kind, ref, ok := parseBladeID(id)
	if !ok {
		return web.NotFound()
	}
	if ref != "" {
		if _, err := s.bladeReferral(ctx, panel, m, kind, ref); err != nil {
			return err
		}
	}
	return s.store.Dismiss(ctx, m.ParticipantID, id, s.now().UTC())
}

// ThankReferrer mails the friend who invited the member a thank-you, once (a second time is a
// 409 already_thanked); the card goes with it.
// origin is the scheme://host of the mail's link to the referrer's referrals page.
func (s *Service) ThankReferrer(ctx context.Context, panel *web.Panel, m *web.Member, id, origin string) (string, error) {
	kind, ref, ok := parseBladeID(id)
	if !ok || kind != BladeThankReferrer {
		return "", web.NotFound()
	}
	r, err := s.bladeReferral(ctx, panel, m, kind, ref)
	if err != nil {
		return "", err
	}
	referrer, err := s.members.Contact(ctx, r.ReferrerID)
	if err != nil {
		return "", err
	}
	if referrer.Status == accounts.StatusClosed || referrer.Email == "" {
		return "", refusal(fiber.StatusGone, "error.referral_referrer_gone", "referrer_gone", nil)
	}
	friend, err := s.members.Contact(ctx, m.ParticipantID)
	if err != nil {
		return "", err
	}
	// The thank-you and its mail in one transaction (one mail per invitation's thanks).
	err = migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		thanked, err := NewStore(tx).Thanked(ctx, r.ID, m.ParticipantID, s.now().UTC())
		if err != nil {
			return err
		}
		if !thanked {
			return refusal(fiber.StatusConflict, "error.referral_already_thanked", "already_thanked", nil)
		}
		return s.mails.Thanks(tx, "referral:"+r.ID+":thanks", panel, referrer, strings.TrimSpace(friend.FirstName), origin+PagePath)
	})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(referrer.FirstName), nil
}
