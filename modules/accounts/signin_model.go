package accounts

import "time"

// OAuthConnection links a provider identity to an account holder of one panel: an entry of the
// profile's oauthConnections.
type OAuthConnection struct {
	PanelID         string `gorm:"primaryKey"`
	Provider        string `gorm:"primaryKey"`
	Subject         string `gorm:"primaryKey"`
	AccountHolderID string
	Email           string
	CreatedAt       time.Time
}

func (OAuthConnection) TableName() string { return "oauth_connections" }

// Why a sign-in was sent to its provider.
const (
	intentSignIn  = "sign_in" // sign in, or join when the identity is new
	intentConnect = "connect" // a signed-in member adds the network to their connections
)

// SignInAttempt is a sign-in sent to a provider and not back yet; its id is the hash of the
// state, spent on return.
type SignInAttempt struct {
	ID            string `gorm:"primaryKey"`
	PanelID       string
	Provider      string
	Intent        string
	Nonce         string
	Verifier      string
	BrowserHash   string
	ParticipantID *string
	Redirect      string
	CreatedAt     time.Time
	ExpiresAt     time.Time
}

// SignInPending is a provider identity back from its provider that is not linked yet: its
// email matched an account (AccountHolderID set: linked once that password is entered), or
// it needs an email to join.
type SignInPending struct {
	ID              string `gorm:"primaryKey"`
	PanelID         string
	Provider        string
	Subject         string
	Email           string
	EmailVerified   bool
	Name            string
	AccountHolderID *string
	Redirect        string
	// UserID is the public id of an identity waiting in onboarding (the spec's userId, in the
	// /onboarding address); Onboarding says it waits there rather than for an email.
	UserID     string
	Onboarding bool
	CreatedAt  time.Time
	ExpiresAt  time.Time
}

func (SignInPending) TableName() string { return "sign_in_pending" }
