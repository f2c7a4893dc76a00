package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrAlreadyLinked means the provider identity belongs to another account holder of the panel.
var ErrAlreadyLinked = errors.New("provider identity linked to another account")

// ErrLastSignIn means the connection is the account holder's only way to sign in.
var ErrLastSignIn = errors.New("only way to sign in")

func (s *Store) CreateAttempt(ctx context.Context, a *SignInAttempt) error {
	db := s.db.WithContext(ctx)
	// Attempts nobody came back from are cleared as new ones are made.
	if err := db.Where("expires_at < ?", a.CreatedAt).Delete(&SignInAttempt{}).Error; err != nil {
		return fmt.Errorf("clear expired sign-in attempts: %w", err)
	}
	if err := db.Create(a).Error; err != nil {
		return fmt.Errorf("save sign-in attempt: %w", err)
	}
	return nil
}

// SpendAttempt removes and returns a live attempt; a second return with the same state finds
// nothing (ErrNotFound), even when both arrive at once.
func (s *Store) SpendAttempt(ctx context.Context, id string, now time.Time) (*SignInAttempt, error) {
	var a SignInAttempt
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("id = ? AND expires_at > ?", id, now).Take(&a).Error; err != nil {
			return notFound(err)
		}
		res := tx.Where("id = ?", id).Delete(&SignInAttempt{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &a, nil
}

func (s *Store) CreatePending(ctx context.Context, p *SignInPending) error {
	db := s.db.WithContext(ctx)
	if err := db.Where("expires_at < ?", p.CreatedAt).Delete(&SignInPending{}).Error; err != nil {
		return fmt.Errorf("clear expired pending sign-ins: %w", err)
	}
	if err := db.Create(p).Error; err != nil {
		return fmt.Errorf("save pending sign-in: %w", err)
	}
	return nil
}

func (s *Store) Pending(ctx context.Context, id, panelID string, now time.Time) (*SignInPending, error) {
	var p SignInPending
	if err := s.db.WithContext(ctx).Where("id = ? AND panel_id = ? AND expires_at > ?", id, panelID, now).Take(&p).Error; err != nil {
		return nil, notFound(err)
	}
	return &p, nil
}

// SetPendingHolder points a pending identity at the account it is to be linked to.
func (s *Store) SetPendingHolder(ctx context.Context, id, holderID string) error {
	return s.db.WithContext(ctx).Model(&SignInPending{}).Where("id = ?", id).Update("account_holder_id", holderID).Error
}

// SetPendingLink points a pending identity at the account it is to be linked to, and says where
// linking returns to.
func (s *Store) SetPendingLink(ctx context.Context, id, holderID, redirect string) error {
	return s.db.WithContext(ctx).Model(&SignInPending{}).Where("id = ?", id).
		Updates(map[string]any{"account_holder_id": holderID, "redirect": redirect}).Error
}

func (s *Store) DeletePending(ctx context.Context, id string) error {
	return s.db.WithContext(ctx).Where("id = ?", id).Delete(&SignInPending{}).Error
}

// ConnectionBySubject finds who a provider identity signs in as on a panel.
func (s *Store) ConnectionBySubject(ctx context.Context, panelID, provider, subject string) (*OAuthConnection, error) {
	var c OAuthConnection
	if err := s.db.WithContext(ctx).Where("panel_id = ? AND provider = ? AND subject = ?", panelID, provider, subject).Take(&c).Error; err != nil {
		return nil, notFound(err)
	}
	return &c, nil
}

// Connections are the networks an account holder has connected (the profile's oauthConnections).
func (s *Store) Connections(ctx context.Context, holderID string) ([]string, error) {
	var out []string
	if err := s.db.WithContext(ctx).Model(&OAuthConnection{}).Where("account_holder_id = ?", holderID).Order("provider").Pluck("provider", &out).Error; err != nil {
		return nil, fmt.Errorf("load connections of %s: %w", holderID, err)
	}
	return out, nil
}

// Connect links a provider identity to an account holder. Linking it again to the same holder
// changes nothing; an identity of another holder is ErrAlreadyLinked; a holder's earlier
// identity of the same provider is replaced (one per network).
func (s *Store) Connect(ctx context.Context, conn *OAuthConnection) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return connectIn(tx, conn) })
}

func connectIn(tx *gorm.DB, conn *OAuthConnection) error {
	var existing OAuthConnection
	err := tx.Where("panel_id = ? AND provider = ? AND subject = ?", conn.PanelID, conn.Provider, conn.Subject).Take(&existing).Error
	switch {
	case err == nil && existing.AccountHolderID == conn.AccountHolderID:
		return nil
	case err == nil:
		return ErrAlreadyLinked
	case !errors.Is(err, gorm.ErrRecordNotFound):
		return fmt.Errorf("load connection: %w", err)
	}
	if err := tx.Where("account_holder_id = ? AND provider = ?", conn.AccountHolderID, conn.Provider).Delete(&OAuthConnection{}).Error; err != nil {
		return fmt.Errorf("replace connection: %w", err)
	}
	if err := tx.Create(conn).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return ErrAlreadyLinked // another request linked it first
		}
		return fmt.Errorf("save connection: %w", err)
	}
	return nil
}

// Disconnect removes an account holder's connection to a network, unless it is their only way
// to sign in (no password and no other connection). The holder row is locked so that two
// disconnects at once cannot both pass the check.
func (s *Store) Disconnect(ctx context.Context, holderID, provider string) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var ah AccountHolder
		q := tx.Where("id = ?", holderID)
		if tx.Dialector.Name() == "postgres" {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Take(&ah).Error; err != nil {
			return notFound(err)
		}
		var others int64
		if err := tx.Model(&OAuthConnection{}).Where("account_holder_id = ? AND provider <> ?", holderID, provider).Count(&others).Error; err != nil {
			return err
		}
		if ah.PasswordHash == "" && others == 0 {
			return ErrLastSignIn
		}
		return tx.Where("account_holder_id = ? AND provider = ?", holderID, provider).Delete(&OAuthConnection{}).Error
	})
}

// CreateMemberWith writes a new account holder, its participant and its first provider
// identity in one transaction.
func (s *Store) CreateMemberWith(ctx context.Context, ah *AccountHolder, p *Participant, conn *OAuthConnection) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(ah).Error; err != nil {
			return err
		}
		if err := tx.Create(p).Error; err != nil {
			return err
		}
		return connectIn(tx, conn)
	})
	switch {
	case errors.Is(err, ErrAlreadyLinked):
		return err
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return ErrEmailTaken
	case err != nil:
		return fmt.Errorf("create member %s with %s: %w", ah.EmailNormalized, conn.Provider, err)
	}
	return nil
}
