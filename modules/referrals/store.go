package referrals

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Store owns every query of the module's tables.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// notFound turns GORM's no row into web.ErrNotFound: a 404 that never tells another panel's
// invitation from none.
func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return web.ErrNotFound
	}
	return err
}

// Settings returns a panel's rules, or the defaults when it has none.
func (s *Store) Settings(ctx context.Context, panelID, currency string) (Settings, error) {
	var rows []Settings
	if err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Limit(1).Find(&rows).Error; err != nil {
		return Settings{}, fmt.Errorf("referral settings of panel %s: %w", panelID, err)
	}
	if len(rows) == 0 {
		return DefaultSettings(panelID, currency), nil
	}
	return rows[0], nil
}

// SaveSettings creates or replaces a panel's rules.
func (s *Store) SaveSettings(ctx context.Context, st Settings) error {
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "panel_id"}}, UpdateAll: true}).Create(&st).Error
	if err != nil {
		return fmt.Errorf("save referral settings of panel %s: %w", st.PanelID, err)
	}
	return nil
}

// DeleteSettings gives a panel the defaults again.
func (s *Store) DeleteSettings(ctx context.Context, panelID string) error {
	if err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Delete(&Settings{}).Error; err != nil {
		return fmt.Errorf("delete referral settings of panel %s: %w", panelID, err)
	}
	return nil
}

// CreateReferral stores a new invitation.
func (s *Store) CreateReferral(ctx context.Context, r *Referral) error {
	if err := s.db.WithContext(ctx).Create(r).Error; err != nil {
		return fmt.Errorf("create referral: %w", err)
	}
	return nil
}

// Referral returns one invitation of a panel (web.ErrNotFound when the panel has none such).
func (s *Store) Referral(ctx context.Context, panelID, id string) (*Referral, error) {
	return referralIn(s.db.WithContext(ctx), panelID, id)
}

func referralIn(db *gorm.DB, panelID, id string) (*Referral, error) {
	var r Referral
	if err := db.Where("id = ? AND panel_id = ?", id, panelID).Take(&r).Error; err != nil {
		return nil, fmt.Errorf("referral %s: %w", id, notFound(err))
	}
	return &r, nil
}

// ReferralOfInvitee returns the invitation a member joined through, or nil.
func (s *Store) ReferralOfInvitee(ctx context.Context, participantID string) (*Referral, error) {
	var rows []Referral
	if err := s.db.WithContext(ctx).Where("invitee_id = ?", participantID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("referral of invitee %s: %w", participantID, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

// OpenTo returns a member's invitation to a normalised address that is still pending at
// cutoff (sent after it), or nil.
func (s *Store) OpenTo(ctx context.Context, referrerID, emailKey string, cutoff time.Time) (*Referral, error) {
	var rows []Referral
	err := s.db.WithContext(ctx).Where("referrer_id = ? AND email_key = ? AND accepted_at IS NULL AND archived_at IS NULL AND last_sent_at > ?", referrerID, emailKey, cutoff).
		Limit(1).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("open referral to %s: %w", emailKey, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

// Stats are a member's invitations counted: every one sent, accepted, pending at the cutoff,
// and the rewards paid.
type Stats struct {
	Sent, Accepted, Pending int
	EarnedMinor             int64
}

// Stats counts a member's invitations; pending ones were last sent after cutoff.
func (s *Store) Stats(ctx context.Context, panelID, referrerID string, cutoff time.Time) (Stats, error) {
	var st Stats
	err := s.db.WithContext(ctx).Raw(`SELECT COUNT(*) AS sent, COUNT(accepted_at) AS accepted,
		COALESCE(SUM(CASE WHEN accepted_at IS NULL AND archived_at IS NULL AND last_sent_at > ? THEN 1 ELSE 0 END), 0) AS pending,
		COALESCE(SUM(CASE WHEN rewarded_at IS NOT NULL THEN reward_minor ELSE 0 END), 0) AS earned_minor
		FROM referrals WHERE panel_id = ? AND referrer_id = ?`, cutoff, panelID, referrerID).Scan(&st).Error
	if err != nil {
		return Stats{}, fmt.Errorf("referral stats of %s: %w", referrerID, err)
	}
	return st, nil
}

// maxListed bounds each list of a member's invitations (newest first).
const maxListed = 500

// ByState lists a member's invitations in a state at the cutoff (pending: last sent after it),
// newest first: pending by last send, accepted by acceptance, archived by last send.
func (s *Store) ByState(ctx context.Context, panelID, referrerID, state string, cutoff time.Time) ([]Referral, error) {
	q := s.db.WithContext(ctx).Where("panel_id = ? AND referrer_id = ?", panelID, referrerID)
	switch state {
	case StatePending:
		q = q.Where("accepted_at IS NULL AND archived_at IS NULL AND last_sent_at > ?", cutoff).Order("last_sent_at DESC, id")
	case StateAccepted:
		q = q.Where("accepted_at IS NOT NULL").Order("accepted_at DESC, id")
	case StateArchived:
		q = q.Where("accepted_at IS NULL AND (archived_at IS NOT NULL OR last_sent_at <= ?)", cutoff).Order("last_sent_at DESC, id")
	default:
		return nil, fmt.Errorf("referrals: unknown state %q", state)
	}
	var out []Referral
	if err := q.Limit(maxListed).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("%s referrals of %s: %w", state, referrerID, err)
	}
	return out, nil
}

// Resent counts another send of a pending invitation (pending at cutoff); false when it is not
// pending any more.
func (s *Store) Resent(ctx context.Context, id string, now, cutoff time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Referral{}).
		Where("id = ? AND accepted_at IS NULL AND archived_at IS NULL AND last_sent_at > ?", id, cutoff).
		Updates(map[string]any{"sends": gorm.Expr("sends + 1"), "last_sent_at": now})
	if res.Error != nil {
		return false, fmt.Errorf("resend referral %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// Archive archives a pending invitation (pending at cutoff) for a reason; false when it is
// not pending any more.
func (s *Store) Archive(ctx context.Context, id, reason string, now, cutoff time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Referral{}).
		Where("id = ? AND accepted_at IS NULL AND archived_at IS NULL AND last_sent_at > ?", id, cutoff).
		Updates(map[string]any{"archived_at": now, "archived_reason": reason})
	if res.Error != nil {
		return false, fmt.Errorf("archive referral %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// Accept records that a member joined through a pending invitation (pending at cutoff), in the
// caller's transaction; false when it was accepted, archived or expired meanwhile.
func acceptIn(tx *gorm.DB, id, inviteeID, inviteeName, referrerName string, now, cutoff time.Time) (bool, error) {
	res := tx.Model(&Referral{}).
		Where("id = ? AND accepted_at IS NULL AND archived_at IS NULL AND last_sent_at > ?", id, cutoff).
		Updates(map[string]any{"invitee_id": inviteeID, "invitee_name": inviteeName, "referrer_name": referrerName, "accepted_at": now})
	if res.Error != nil {
		return false, fmt.Errorf("accept referral %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// claimReward marks an accepted invitation rewarded with amount, in the caller's transaction;
// false when it was rewarded already (by a concurrent completion, say).
func claimReward(tx *gorm.DB, id string, amount int64, now time.Time) (bool, error) {
	res := tx.Model(&Referral{}).Where("id = ? AND accepted_at IS NOT NULL AND rewarded_at IS NULL", id).
		Updates(map[string]any{"rewarded_at": now, "reward_minor": amount})
	if res.Error != nil {
		return false, fmt.Errorf("reward referral %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// rewardEntry records the reward's ledger entry.
func rewardEntry(tx *gorm.DB, id, entryID string) error {
	if err := tx.Model(&Referral{}).Where("id = ?", id).Update("transaction_id", entryID).Error; err != nil {
		return fmt.Errorf("record reward of referral %s: %w", id, err)
	}
	return nil
}

// Thanked marks that the friend thanked the referrer, once; false when they had already.
func (s *Store) Thanked(ctx context.Context, id, inviteeID string, now time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Referral{}).Where("id = ? AND invitee_id = ? AND thanked_at IS NULL", id, inviteeID).Update("thanked_at", now)
	if res.Error != nil {
		return false, fmt.Errorf("thank for referral %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// Dismiss records that a member dismissed a blade (again: nothing changes).
func (s *Store) Dismiss(ctx context.Context, participantID, bladeID string, now time.Time) error {
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&Dismissal{ParticipantID: participantID, BladeID: bladeID, DismissedAt: now}).Error
	if err != nil {
		return fmt.Errorf("dismiss blade %s: %w", bladeID, err)
	}
	return nil
}

// CreateAffiliate stores a new partner code; ErrCodeTaken when the panel has the code.
func (s *Store) CreateAffiliate(ctx context.Context, a *Affiliate) error {
	err := s.db.WithContext(ctx).Create(a).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrCodeTaken
	}
	if err != nil {
		return fmt.Errorf("create affiliate %s: %w", a.Code, err)
	}
	return nil
}

// ErrCodeTaken means the panel already has an affiliate code.
var ErrCodeTaken = errors.New("the panel already has this affiliate code")

// AffiliateByCode returns a panel's partner code (upper case), web.ErrNotFound when none.
func (s *Store) AffiliateByCode(ctx context.Context, panelID, code string) (*Affiliate, error) {
	var a Affiliate
	if err := s.db.WithContext(ctx).Where("panel_id = ? AND code = ?", panelID, code).Take(&a).Error; err != nil {
		return nil, fmt.Errorf("affiliate %s: %w", code, notFound(err))
	}
	return &a, nil
}

// AffiliateListing is a partner code with the members it brought.
type AffiliateListing struct {
	Affiliate
	Members int
}

// Affiliates lists a panel's partner codes by code, with how many members each brought.
func (s *Store) Affiliates(ctx context.Context, panelID string) ([]AffiliateListing, error) {
	var out []AffiliateListing
	err := s.db.WithContext(ctx).Raw(`SELECT a.*, (SELECT COUNT(*) FROM affiliate_members m WHERE m.affiliate_id = a.id) AS members
		FROM affiliates a WHERE a.panel_id = ? ORDER BY a.code`, panelID).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("affiliates of panel %s: %w", panelID, err)
	}
	return out, nil
}

// Attribution returns the partner a member came through, or nil.
func (s *Store) Attribution(ctx context.Context, participantID string) (*AffiliateMember, error) {
	return attributionIn(s.db.WithContext(ctx), participantID)
}

func attributionIn(db *gorm.DB, participantID string) (*AffiliateMember, error) {
	var rows []AffiliateMember
	if err := db.Where("participant_id = ?", participantID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("affiliate of %s: %w", participantID, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}
