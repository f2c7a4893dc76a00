package signinconfig

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// SignInProvider is one identity provider a panel offers (google, facebook, twitter), with its
// secrets sealed (web.Sealer) and bound to the panel and provider.
type SignInProvider struct {
	PanelID              string `gorm:"primaryKey"`
	Provider             string `gorm:"primaryKey"`
	ClientID             string
	ClientSecretSealed   string
	Issuer               string
	AuthURL              string
	TokenURL             string
	APIURL               string `gorm:"column:api_url"`
	ConsumerKey          string
	ConsumerSecretSealed string
	Position             int
	UpdatedAt            time.Time
}

// CaptchaSetting is a panel's captcha: its provider, keys (secret sealed) and when it is asked for.
type CaptchaSetting struct {
	PanelID       string `gorm:"primaryKey"`
	Kind          string
	SiteKey       string
	SecretSealed  string
	VerifyURL     string
	MinScore      float64
	Mode          string
	AfterFailures int
	UpdatedAt     time.Time
}

// Store owns every query of the module's tables: sign_in_providers and captcha_settings.
type Store struct{ db *gorm.DB }

// SignInProviders are a panel's providers in display order.
func (s *Store) SignInProviders(ctx context.Context, panelID string) ([]SignInProvider, error) {
	var rows []SignInProvider
	if err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Order("position, provider").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load sign-in providers of %s: %w", panelID, err)
	}
	return rows, nil
}

// Captcha is a panel's captcha setting; nil when it has none.
func (s *Store) Captcha(ctx context.Context, panelID string) (*CaptchaSetting, error) {
	var row CaptchaSetting
	err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load captcha of %s: %w", panelID, err)
	}
	return &row, nil
}

// ReplaceSignIn makes a panel's providers and captcha exactly these, in one transaction.
func (s *Store) ReplaceSignIn(ctx context.Context, panelID string, providers []SignInProvider, cs *CaptchaSetting) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("panel_id = ?", panelID).Delete(&SignInProvider{}).Error; err != nil {
			return fmt.Errorf("clear sign-in providers of %s: %w", panelID, err)
		}
		if len(providers) > 0 {
			if err := tx.Create(&providers).Error; err != nil {
				return fmt.Errorf("save sign-in providers of %s: %w", panelID, err)
			}
		}
		if err := tx.Where("panel_id = ?", panelID).Delete(&CaptchaSetting{}).Error; err != nil {
			return fmt.Errorf("clear captcha of %s: %w", panelID, err)
		}
		if cs != nil {
			if err := tx.Create(cs).Error; err != nil {
				return fmt.Errorf("save captcha of %s: %w", panelID, err)
			}
		}
		return nil
	})
}
