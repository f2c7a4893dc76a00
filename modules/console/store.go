package console

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrNotFound is a missing operator, session or grant.
var ErrNotFound = errors.New("console: not found")

// Store owns every query of the console's tables.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

func (s *Store) CreateOperator(ctx context.Context, op *Operator) error {
	if err := s.db.WithContext(ctx).Create(op).Error; err != nil {
		return fmt.Errorf("create operator %s: %w", op.Email, err)
	}
	return nil
}

func (s *Store) OperatorByEmail(ctx context.Context, email string) (*Operator, error) {
	return s.operatorWhere(ctx, "email = ?", email)
}

func (s *Store) OperatorByID(ctx context.Context, id string) (*Operator, error) {
	return s.operatorWhere(ctx, "id = ?", id)
}

func (s *Store) operatorWhere(ctx context.Context, where string, arg string) (*Operator, error) {
	var ops []Operator
	if err := s.db.WithContext(ctx).Where(where, arg).Limit(1).Find(&ops).Error; err != nil {
		return nil, fmt.Errorf("find operator: %w", err)
	}
	if len(ops) == 0 {
		return nil, ErrNotFound
	}
	return &ops[0], nil
}

func (s *Store) SetPassword(ctx context.Context, operatorID, hash string) error {
	if err := s.db.WithContext(ctx).Model(&Operator{}).Where("id = ?", operatorID).Update("password_hash", hash).Error; err != nil {
		return fmt.Errorf("set operator password: %w", err)
	}
	return nil
}

// EnrolTOTP sets the operator's secret, with the step of the code that confirmed it spent, and
// replaces their recovery codes, in one transaction.
func (s *Store) EnrolTOTP(ctx context.Context, operatorID, secret string, step int64, codeHashes []string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Model(&Operator{}).Where("id = ?", operatorID).Updates(map[string]any{"totp_secret": secret, "totp_last_step": step}).Error
		if err != nil {
			return fmt.Errorf("enrol totp: %w", err)
		}
		if err := tx.Where("operator_id = ?", operatorID).Delete(&RecoveryCode{}).Error; err != nil {
			return fmt.Errorf("replace recovery codes: %w", err)
		}
		rows := make([]RecoveryCode, len(codeHashes))
		for i, h := range codeHashes {
			rows[i] = RecoveryCode{OperatorID: operatorID, CodeHash: h}
		}
		if err := tx.Create(&rows).Error; err != nil {
			return fmt.Errorf("store recovery codes: %w", err)
		}
		return nil
	})
}

// SpendTOTPStep records step as the operator's last accepted TOTP step, in one statement that
// holds only while no later or equal step was accepted: true when it did (the code signs in),
// false for a step already spent or older than one spent, however many requests try at once.
func (s *Store) SpendTOTPStep(ctx context.Context, operatorID string, step int64) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Operator{}).Where("id = ? AND totp_last_step < ?", operatorID, step).Update("totp_last_step", step)
	if res.Error != nil {
		return false, fmt.Errorf("spend totp step of operator %s: %w", operatorID, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// UseRecoveryCode spends one unused code; false when there is none with that hash.
func (s *Store) UseRecoveryCode(ctx context.Context, operatorID, codeHash string, at time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&RecoveryCode{}).
		Where("operator_id = ? AND code_hash = ? AND used_at IS NULL", operatorID, codeHash).Update("used_at", at)
	if res.Error != nil {
		return false, fmt.Errorf("use recovery code: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

func (s *Store) UnusedRecoveryCodes(ctx context.Context, operatorID string) (int64, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&RecoveryCode{}).Where("operator_id = ? AND used_at IS NULL", operatorID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count recovery codes: %w", err)
	}
	return n, nil
}

// AddGrant gives a role; false when the operator already held it there.
func (s *Store) AddGrant(ctx context.Context, g Grant) (bool, error) {
	res := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&g)
	if res.Error != nil {
		return false, fmt.Errorf("grant %s on %s: %w", g.Role, g.PanelID, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// RemoveGrant takes a role away; false when there was no such grant.
func (s *Store) RemoveGrant(ctx context.Context, g Grant) (bool, error) {
	res := s.db.WithContext(ctx).Where("operator_id = ? AND panel_id = ? AND role = ?", g.OperatorID, g.PanelID, g.Role).Delete(&Grant{})
	if res.Error != nil {
		return false, fmt.Errorf("remove grant: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// GrantsOf are an operator's grants on every panel.
func (s *Store) GrantsOf(ctx context.Context, operatorID string) ([]Grant, error) {
	var out []Grant
	if err := s.db.WithContext(ctx).Where("operator_id = ?", operatorID).Order("panel_id, role").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("grants of operator: %w", err)
	}
	return out, nil
}

// PanelGrant is a grant with its operator's email, for a panel's operators page.
type PanelGrant struct {
	OperatorID string
	Email      string
	Role       Role
	CreatedAt  time.Time
}

func (s *Store) GrantsOn(ctx context.Context, panelID string) ([]PanelGrant, error) {
	var out []PanelGrant
	err := s.db.WithContext(ctx).Table("operator_grants g").
		Select("g.operator_id, o.email, g.role, g.created_at").
		Joins("JOIN operators o ON o.id = g.operator_id").
		Where("g.panel_id = ?", panelID).Order("o.email, g.role").Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("grants on panel: %w", err)
	}
	return out, nil
}

func (s *Store) CountRole(ctx context.Context, panelID string, role Role) (int64, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&Grant{}).Where("panel_id = ? AND role = ?", panelID, role).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count %s grants: %w", role, err)
	}
	return n, nil
}

func (s *Store) CreateSession(ctx context.Context, sess *Session) error {
	if err := s.db.WithContext(ctx).Create(sess).Error; err != nil {
		return fmt.Errorf("create operator session: %w", err)
	}
	return nil
}

func (s *Store) SessionByHash(ctx context.Context, hash string) (*Session, error) {
	var out []Session
	if err := s.db.WithContext(ctx).Where("token_hash = ?", hash).Limit(1).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("find operator session: %w", err)
	}
	if len(out) == 0 {
		return nil, ErrNotFound
	}
	return &out[0], nil
}

// TouchSession moves the idle clock on; written at most once a minute per session.
func (s *Store) TouchSession(ctx context.Context, hash string, at time.Time) error {
	if err := s.db.WithContext(ctx).Model(&Session{}).Where("token_hash = ?", hash).Update("last_seen_at", at).Error; err != nil {
		return fmt.Errorf("touch operator session: %w", err)
	}
	return nil
}

func (s *Store) SetPendingTOTP(ctx context.Context, hash, secret string) error {
	if err := s.db.WithContext(ctx).Model(&Session{}).Where("token_hash = ?", hash).Update("pending_totp_secret", secret).Error; err != nil {
		return fmt.Errorf("keep pending totp secret: %w", err)
	}
	return nil
}

func (s *Store) DeleteSession(ctx context.Context, hash string) error {
	if err := s.db.WithContext(ctx).Where("token_hash = ?", hash).Delete(&Session{}).Error; err != nil {
		return fmt.Errorf("delete operator session: %w", err)
	}
	return nil
}

// DeleteExpiredSessions removes sessions past their absolute end or idle since before idleSince.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now, idleSince time.Time) (int64, error) {
	res := s.db.WithContext(ctx).Where("expires_at <= ? OR last_seen_at <= ?", now, idleSince).Delete(&Session{})
	if res.Error != nil {
		return 0, fmt.Errorf("delete expired operator sessions: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// AppendAudit adds one entry, through tx when the entry belongs to a write's transaction (nil:
// on its own). The log has no update or delete: this is its only write.
func (s *Store) AppendAudit(ctx context.Context, tx *gorm.DB, e *AuditEntry) error {
	if tx == nil {
		tx = s.db
	}
	if err := tx.WithContext(ctx).Create(e).Error; err != nil {
		return fmt.Errorf("append audit entry %s: %w", e.Action, err)
	}
	return nil
}

// AuditFilter picks entries: those of the panels named, plus the panel-less ones (login,
// logout) of one operator; newest first, at most Limit (0: all).
type AuditFilter struct {
	PanelIDs   []string
	OperatorID string
	Limit      int
}

func (s *Store) Audit(ctx context.Context, f AuditFilter) ([]AuditEntry, error) {
	q := s.db.WithContext(ctx).Model(&AuditEntry{})
	switch {
	case len(f.PanelIDs) > 0 && f.OperatorID != "":
		q = q.Where("panel_id IN ? OR (panel_id = '' AND operator_id = ?)", f.PanelIDs, f.OperatorID)
	case len(f.PanelIDs) > 0:
		q = q.Where("panel_id IN ?", f.PanelIDs)
	case f.OperatorID != "":
		q = q.Where("panel_id = '' AND operator_id = ?", f.OperatorID)
	default:
		return nil, nil
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var out []AuditEntry
	if err := q.Order("id DESC").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	return out, nil
}
