package mobile

import "time"

// Settings are a panel's mobile verification rules (mobile_settings); a panel without a
// row has DefaultSettings.
type Settings struct {
	PanelID             string `gorm:"primaryKey"`
	RequireVerification bool
	CoolingOffHours     int
	ReverifyAfterDays   int
	DefaultCountry      string // ISO 3166 alpha-2; empty: from the panel's currency
	UpdatedAt           time.Time
}

func (Settings) TableName() string { return "mobile_settings" }

// DefaultSettings are the rules of a panel that set none: verification required, 24 hours
// of cooling-off after a number is first verified, and verifying again after 180 days.
func DefaultSettings(panelID string) Settings {
	return Settings{PanelID: panelID, RequireVerification: true, CoolingOffHours: 24, ReverifyAfterDays: 180}
}

func (s Settings) coolingOff() time.Duration { return time.Duration(s.CoolingOffHours) * time.Hour }
func (s Settings) reverifyAfter() time.Duration {
	return time.Duration(s.ReverifyAfterDays) * 24 * time.Hour
}

// Phone is a member's number on file and verified number (mobile_numbers).
type Phone struct {
	ParticipantID  string `gorm:"primaryKey"`
	PanelID        string
	MobileNumber   string // E.164, the spec's mobileNumber; empty when none
	Country        string
	VerifiedNumber *string    // verifiedMobileNumber
	VerifiedAt     *time.Time // verifiedMobileNumberAt: the last verification
	VerifiedSince  *time.Time // the first verification of VerifiedNumber
	UpdatedAt      time.Time
}

func (Phone) TableName() string { return "mobile_numbers" }

// verified tells whether the number on file is the verified number.
func (p *Phone) verified() bool {
	return p != nil && p.VerifiedNumber != nil && p.MobileNumber != "" && *p.VerifiedNumber == p.MobileNumber
}

// Code is a code sent by SMS: only its HMAC is kept.
type Code struct {
	ID            string `gorm:"primaryKey"`
	ParticipantID string
	Phone         string
	CodeHash      string
	Attempts      int
	ProviderID    string // the SMS provider's message id
	SMSStatus     string `gorm:"column:sms_status"` // SMSQueued, SMSSent or SMSFailed: what became of its text
	CreatedAt     time.Time
	ExpiresAt     time.Time
	UsedAt        *time.Time
}

func (Code) TableName() string { return "mobile_codes" }

// What became of a code's text message (Code.SMSStatus), set by the job that sends it.
const (
	SMSQueued = "queued" // stored with its job; not sent yet
	SMSSent   = "sent"   // the SMS provider took it
	SMSFailed = "failed" // it will never go: the member is told and may ask again
)

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Settings{}, &Phone{}, &Code{}} }
