package accounts

import (
	"time"
)

// AccountHolder is a person's account on one panel (tenants never share members).
type AccountHolder struct {
	ID               string `gorm:"primaryKey"` // the profile's guid
	PanelID          string
	Email            string
	EmailNormalized  string
	PasswordHash     string
	Username         string
	FirstName        string
	LastName         string
	LanguageCode     string
	Status           string // active, suspended, closed
	AcceptedTermsAt  *time.Time
	EmailValidatedAt *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time
	// JoinAppName and JoinParentFrameURL are where the member joined: the app that asked
	// (X-App-Name) and the page that framed the join widget (parentFrameUrl).
	JoinAppName        string
	JoinParentFrameURL string
}

const (
	StatusActive    = "active"
	StatusSuspended = "suspended"
	StatusClosed    = "closed"
)

// Participant is the account holder's membership of the panel: what earns, answers and redeems.
type Participant struct {
	ID                string `gorm:"primaryKey"` // the profile's ppUuid
	AccountHolderID   string
	PanelID           string
	Metadata          Metadata `gorm:"serializer:json"`
	IsEligibleToRefer bool
	CreatedAt         time.Time
}

// Metadata is the profile's free-form metadata (siteId, welcomeCampaignCompleted, ...).
type Metadata map[string]any

// Session is a signed-in device. Only the hash of its pp-token is stored.
type Session struct {
	ID            string `gorm:"primaryKey"`
	TokenHash     string
	ParticipantID string
	CreatedAt     time.Time
	LastSeenAt    time.Time
	ExpiresAt     time.Time
	UserAgent     string
	IP            string
	// AppName is the app that signed in (X-App-Name: web, widget, ...); ParentFrameURL the page
	// that framed the login widget (the login payload's parentFrameUrl).
	AppName        string
	ParentFrameURL string
}

// AccountToken is a single-use token mailed to the account holder (password reset, email validation).
type AccountToken struct {
	ID              string `gorm:"primaryKey"`
	TokenHash       string
	AccountHolderID string
	Purpose         string
	ExpiresAt       time.Time
	UsedAt          *time.Time
	CreatedAt       time.Time
}

const (
	PurposePasswordReset   = "password_reset"
	PurposeEmailValidation = "email_validation"
	// PurposeWidgetHandoff is a widget's hand-off code: a member signed in inside another
	// site's frame opens the panel itself (widgets.go).
	PurposeWidgetHandoff = "widget_handoff"
	// PurposeCloseAccount is the mailed link a member without a password closes their account with.
	PurposeCloseAccount = "close_account"
)

// Models lists the module's tables for the schema check.
func Models() []any {
	return []any{
		&AccountHolder{}, &Participant{}, &Session{}, &AccountToken{},
		&OAuthConnection{}, &SignInAttempt{}, &SignInPending{},
	}
}
