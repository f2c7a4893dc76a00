package accounts

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrNotFound means no row matched (unknown email, token or session).
var ErrNotFound = errors.New("not found")

// ErrEmailTaken means the panel already has an account holder with that email.
var ErrEmailTaken = errors.New("email already registered")

// Store owns every query of the accounts tables.
type Store struct {
	db *gorm.DB
	// joins are other modules' rows read with the session (JoinMember); sessionSQL[mask] is
	// the session query with the joins whose bits the mask sets, one per set of joins a request
	// may want (web.MemberJoin.Wanted).
	joins      []web.MemberJoin
	sessionSQL []string
}

func NewStore(db *gorm.DB) *Store { return &Store{db: db, sessionSQL: sessionQueries(nil)} }

// maxJoins bounds the joins (each doubles the session queries kept).
const maxJoins = 8

// sessionQueries are the session query for every subset of the joins, by bit mask.
func sessionQueries(joins []web.MemberJoin) []string {
	if len(joins) > maxJoins {
		panic(fmt.Sprintf("accounts: %d member joins, at most %d", len(joins), maxJoins))
	}
	out := make([]string, 1<<len(joins))
	for mask := range out {
		var picked []web.MemberJoin
		for i, j := range joins {
			if mask&(1<<i) != 0 {
				picked = append(picked, j)
			}
		}
		out[mask] = sessionQuery(picked)
	}
	return out
}

// JoinsWanted is the mask of the joins this request reads with its session.
func (s *Store) JoinsWanted(c fiber.Ctx) uint {
	var mask uint
	for i := range s.joins {
		if s.joins[i].Wanted(c) {
			mask |= 1 << i
		}
	}
	return mask
}

func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// CreateMember writes the account holder and its participant in one transaction.
func (s *Store) CreateMember(ctx context.Context, ah *AccountHolder, p *Participant) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(ah).Error; err != nil {
			return err
		}
		return tx.Create(p).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrEmailTaken
	}
	if err != nil {
		return fmt.Errorf("create member %s: %w", ah.EmailNormalized, err)
	}
	return nil
}

func (s *Store) HolderByEmail(ctx context.Context, panelID, normalized string) (*AccountHolder, error) {
	var ah AccountHolder
	if err := s.db.WithContext(ctx).Where("panel_id = ? AND email_normalized = ?", panelID, normalized).Take(&ah).Error; err != nil {
		return nil, fmt.Errorf("load account holder by email: %w", notFound(err))
	}
	return &ah, nil
}

func (s *Store) Holder(ctx context.Context, id string) (*AccountHolder, error) {
	var ah AccountHolder
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&ah).Error; err != nil {
		return nil, fmt.Errorf("load account holder %s: %w", id, notFound(err))
	}
	return &ah, nil
}

func (s *Store) ParticipantOf(ctx context.Context, holderID string) (*Participant, error) {
	var p Participant
	if err := s.db.WithContext(ctx).Where("account_holder_id = ?", holderID).Take(&p).Error; err != nil {
		return nil, fmt.Errorf("load participant of %s: %w", holderID, notFound(err))
	}
	return &p, nil
}

func (s *Store) Participant(ctx context.Context, id string) (*Participant, error) {
	var p Participant
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&p).Error; err != nil {
		return nil, fmt.Errorf("load participant %s: %w", id, notFound(err))
	}
	return &p, nil
}

// UpdateHolder writes the named columns of an account holder.
func (s *Store) UpdateHolder(ctx context.Context, id string, fields map[string]any) error {
	fields["updated_at"] = time.Now().UTC()
	if err := s.db.WithContext(ctx).Model(&AccountHolder{}).Where("id = ?", id).Updates(fields).Error; err != nil {
		return fmt.Errorf("update account holder %s: %w", id, err)
	}
	return nil
}

// SetMetadata replaces the participant's metadata.
func (s *Store) SetMetadata(ctx context.Context, participantID string, md Metadata) error {
	// Select+Updates with the model goes through the field's JSON serializer; Update with a
	// bare map value would hand the driver a Go map.
	if err := s.db.WithContext(ctx).Model(&Participant{ID: participantID}).Select("Metadata").Updates(&Participant{Metadata: md}).Error; err != nil {
		return fmt.Errorf("update metadata of %s: %w", participantID, err)
	}
	return nil
}

func (s *Store) CreateSession(ctx context.Context, sess *Session) error {
	if err := s.db.WithContext(ctx).Create(sess).Error; err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// SessionByHash returns a live session with its participant and account holder, in one
// query: it runs on every signed-in request, so it scans column by column into the models
// (GORM's reflective Scan of the joined row was a quarter of the feed page's CPU, `make
// profile TARGET=feed`). sessionColumns lists every column of the three models; a test
// holds it to the models' schemas. The joined modules' rows come too (JoinMember): keeps
// put them on the request; joins is the mask of those this request wants (JoinsWanted).
func (s *Store) SessionByHash(ctx context.Context, hash string, now time.Time, joins uint) (*Session, *Participant, *AccountHolder, []func(fiber.Ctx), error) {
	rows, err := s.db.WithContext(ctx).Raw(s.sessionSQL[joins], hash, now).Rows()
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("load session: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("load session: %w", err)
		}
		return nil, nil, nil, nil, fmt.Errorf("load session: %w", ErrNotFound)
	}
	var se Session
	var p Participant
	var h AccountHolder
	var metadata []byte
	var acceptedTerms, emailValidated sql.NullTime
	dest := []any{&se.ID, &se.TokenHash, &se.ParticipantID, &se.CreatedAt, &se.LastSeenAt, &se.ExpiresAt, &se.UserAgent, &se.IP,
		&se.AppName, &se.ParentFrameURL,
		&p.ID, &p.AccountHolderID, &p.PanelID, &metadata, &p.IsEligibleToRefer, &p.CreatedAt,
		&h.ID, &h.PanelID, &h.Email, &h.EmailNormalized, &h.PasswordHash, &h.Username, &h.FirstName, &h.LastName,
		&h.LanguageCode, &h.Status, &acceptedTerms, &emailValidated, &h.CreatedAt, &h.UpdatedAt, &h.JoinAppName, &h.JoinParentFrameURL}
	keeps := make([]func(fiber.Ctx), 0, len(s.joins))
	for i, j := range s.joins {
		if joins&(1<<i) == 0 {
			continue
		}
		d, keep := j.Scan()
		dest = append(dest, d...)
		keeps = append(keeps, keep)
	}
	if err := rows.Scan(dest...); err != nil {
		return nil, nil, nil, nil, fmt.Errorf("load session: %w", err)
	}
	if len(metadata) > 0 && string(metadata) != "null" {
		if err := json.Unmarshal(metadata, &p.Metadata); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("load session: metadata of %s: %w", p.ID, err)
		}
	}
	if acceptedTerms.Valid {
		h.AcceptedTermsAt = &acceptedTerms.Time
	}
	if emailValidated.Valid {
		h.EmailValidatedAt = &emailValidated.Time
	}
	return &se, &p, &h, keeps, nil
}

// sessionColumns are what SessionByHash scans, in its order: the session's, the
// participant's and the account holder's columns, each model's in its field order.
var sessionColumns = map[string][]string{
	"s": {"id", "token_hash", "participant_id", "created_at", "last_seen_at", "expires_at", "user_agent", "ip", "app_name", "parent_frame_url"},
	"p": {"id", "account_holder_id", "panel_id", "metadata", "is_eligible_to_refer", "created_at"},
	"h": {"id", "panel_id", "email", "email_normalized", "password_hash", "username", "first_name", "last_name",
		"language_code", "status", "accepted_terms_at", "email_validated_at", "created_at", "updated_at", "join_app_name", "join_parent_frame_url"},
}

// sessionQuery is the session query with the joins' columns after the models' own.
func sessionQuery(joins []web.MemberJoin) string {
	var cols []string
	for _, alias := range []string{"s", "p", "h"} {
		for _, c := range sessionColumns[alias] {
			cols = append(cols, alias+"."+c)
		}
	}
	from := ""
	for _, j := range joins {
		cols = append(cols, j.Columns...)
		from += "\n\t\t\t" + j.From
	}
	return "SELECT " + strings.Join(cols, ", ") + ` FROM sessions s
			JOIN participants p ON p.id = s.participant_id
			JOIN account_holders h ON h.id = p.account_holder_id` + from + `
			WHERE s.token_hash = ? AND s.expires_at > ? LIMIT 1`
}

// TouchSession records activity and slides the idle expiry, never past the absolute one.
func (s *Store) TouchSession(ctx context.Context, id string, now, expires time.Time) error {
	if err := s.db.WithContext(ctx).Model(&Session{}).Where("id = ?", id).Updates(map[string]any{"last_seen_at": now, "expires_at": expires}).Error; err != nil {
		return fmt.Errorf("touch session %s: %w", id, err)
	}
	return nil
}

func (s *Store) DeleteSession(ctx context.Context, id string) error {
	if err := s.db.WithContext(ctx).Where("id = ?", id).Delete(&Session{}).Error; err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

// CreateToken stores a single-use token, replacing the holder's unused ones of the same purpose.
func (s *Store) CreateToken(ctx context.Context, t *AccountToken) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("account_holder_id = ? AND purpose = ? AND used_at IS NULL", t.AccountHolderID, t.Purpose).Delete(&AccountToken{}).Error; err != nil {
			return err
		}
		return tx.Create(t).Error
	})
	if err != nil {
		return fmt.Errorf("create %s token: %w", t.Purpose, err)
	}
	return nil
}

// TokenByHash returns a token of the purpose by its hash, used or not.
func (s *Store) TokenByHash(ctx context.Context, purpose, hash string) (*AccountToken, error) {
	var t AccountToken
	if err := s.db.WithContext(ctx).Where("token_hash = ? AND purpose = ?", hash, purpose).Take(&t).Error; err != nil {
		return nil, fmt.Errorf("load %s token: %w", purpose, notFound(err))
	}
	return &t, nil
}

// ErrTokenSpent means the token was used, or expired, meanwhile.
var ErrTokenSpent = errors.New("token used or expired")

// SpendToken marks a token used and applies the change it authorises, in one transaction:
// of two concurrent uses only one succeeds.
func (s *Store) SpendToken(ctx context.Context, t *AccountToken, now time.Time, apply func(tx *gorm.DB) error) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&AccountToken{}).Where("id = ? AND used_at IS NULL AND expires_at > ?", t.ID, now).Update("used_at", now)
		if res.Error != nil {
			return fmt.Errorf("spend %s token: %w", t.Purpose, res.Error)
		}
		if res.RowsAffected != 1 {
			return ErrTokenSpent
		}
		return apply(tx)
	})
}

// SetPassword replaces the password hash and ends every session of the participant but one.
func (s *Store) SetPassword(ctx context.Context, holderID, participantID, keepSessionID, hash string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&AccountHolder{}).Where("id = ?", holderID).Updates(map[string]any{"password_hash": hash, "updated_at": time.Now().UTC()}).Error; err != nil {
			return fmt.Errorf("set password of %s: %w", holderID, err)
		}
		if err := tx.Where("participant_id = ? AND id <> ?", participantID, keepSessionID).Delete(&Session{}).Error; err != nil {
			return fmt.Errorf("end other sessions of %s: %w", participantID, err)
		}
		return endMailedLinks(tx, holderID, time.Now().UTC())
	})
}

// endMailedLinks spends every unused password-reset and email-validation link of an account
// holder, on the caller's transaction: a new password ends whatever an older mail could still
// do (someone who read the mailbox once must not keep a way in).
func endMailedLinks(tx *gorm.DB, holderID string, at time.Time) error {
	err := tx.Model(&AccountToken{}).
		Where("account_holder_id = ? AND purpose IN ? AND used_at IS NULL", holderID, []string{PurposePasswordReset, PurposeEmailValidation}).
		Update("used_at", at).Error
	if err != nil {
		return fmt.Errorf("end mailed links of %s: %w", holderID, err)
	}
	return nil
}

// PanelOfParticipant tells which panel a participant belongs to, on the caller's connection
// or transaction (the wallet checks it inside the transaction that opens a member's wallet).
func PanelOfParticipant(db *gorm.DB, participantID string) (string, error) {
	var panelIDs []string
	if err := db.Model(&Participant{}).Where("id = ?", participantID).Limit(1).Pluck("panel_id", &panelIDs).Error; err != nil {
		return "", fmt.Errorf("load panel of participant %s: %w", participantID, err)
	}
	if len(panelIDs) == 0 {
		return "", fmt.Errorf("participant %s: %w", participantID, ErrNotFound)
	}
	return panelIDs[0], nil
}

// ErrUsernameTaken means another account holder of the panel has the username, in any case.
var ErrUsernameTaken = errors.New("username taken")

// SetUsername gives the account holder a username no other account holder of the panel has,
// whatever its case; the unique index (panel_id, lower(username)) settles two at once.
func (s *Store) SetUsername(ctx context.Context, panelID, holderID, username string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&AccountHolder{}).Where("panel_id = ? AND id <> ? AND username <> '' AND lower(username) = lower(?)", panelID, holderID, username).
			Count(&n).Error; err != nil {
			return fmt.Errorf("look up username: %w", err)
		}
		if n > 0 {
			return ErrUsernameTaken
		}
		return tx.Model(&AccountHolder{}).Where("id = ?", holderID).Updates(map[string]any{"username": username, "updated_at": time.Now().UTC()}).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrUsernameTaken
	}
	if err != nil && !errors.Is(err, ErrUsernameTaken) {
		return fmt.Errorf("set username of %s: %w", holderID, err)
	}
	return err
}

// UpdateMetadata changes the participant's metadata with fn while holding the row, so a change
// made at the same moment (the welcome campaign's flag) is never lost.
func (s *Store) UpdateMetadata(ctx context.Context, participantID string, fn func(md Metadata) error) error {
	return migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		var p Participant
		q := tx.Where("id = ?", participantID)
		if migrations.DialectOf(tx) == migrations.Postgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Take(&p).Error; err != nil {
			return fmt.Errorf("load participant %s: %w", participantID, notFound(err))
		}
		md := p.Metadata
		if md == nil {
			md = Metadata{}
		}
		if err := fn(md); err != nil {
			return err
		}
		return tx.Model(&Participant{ID: participantID}).Select("Metadata").Updates(&Participant{Metadata: md}).Error
	})
}

// ActiveMember is an active account holder of a panel with their participant id.
type ActiveMember struct {
	AccountHolder
	ParticipantID string
}

// ActiveMembers is a page of the panel's active account holders, by id after the last one of
// the previous page (the profile module's bulk mail picks those subscribed).
func (s *Store) ActiveMembers(ctx context.Context, panelID, after string, limit int) ([]ActiveMember, error) {
	var out []ActiveMember
	err := s.db.WithContext(ctx).Table("account_holders AS h").Select("h.*, p.id AS participant_id").
		Joins("JOIN participants p ON p.account_holder_id = h.id").
		Where("h.panel_id = ? AND h.status = ? AND h.id > ?", panelID, StatusActive, after).
		Order("h.id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("load active members of panel %s: %w", panelID, err)
	}
	return out, nil
}
