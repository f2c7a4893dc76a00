// Package console is the operator console: a tenant's staff sign in on the console host
// (never a panel's domain) and act on the panels their grants name. This slice holds operators,
// their sessions and TOTP, per-panel roles and the append-only audit log (issue 21, part 1).
package console

import "time"

// Operator is one of a tenant's staff: apart from members, with their own sessions.
type Operator struct {
	ID           string `gorm:"primaryKey"`
	Email        string
	PasswordHash string
	// TOTPSecret is the enrolled RFC 6238 secret (base32), "" until the operator enrols.
	TOTPSecret string `gorm:"column:totp_secret"`
	// TOTPLastStep is the time step of the last code accepted (0: none); no code of that step or
	// an earlier one is accepted again (RFC 6238 §5.2).
	TOTPLastStep int64 `gorm:"column:totp_last_step"`
	CreatedAt    time.Time
}

// Grant gives an operator one role on one panel; an operator may hold several.
type Grant struct {
	OperatorID string `gorm:"primaryKey"`
	PanelID    string `gorm:"primaryKey"`
	Role       Role   `gorm:"primaryKey"`
	CreatedAt  time.Time
}

func (Grant) TableName() string { return "operator_grants" }

// Session stages: a password alone reaches StageTOTP (or StageEnrol where TOTP is required and
// missing); only StageFull may act.
const (
	StageTOTP  = "totp"
	StageEnrol = "enrol"
	StageFull  = "full"
)

// Session is a signed-in operator's session, found by the SHA-256 of its cookie's token.
type Session struct {
	TokenHash  string `gorm:"primaryKey"`
	OperatorID string
	Stage      string
	// PendingTOTPSecret is a secret shown for enrolment and not yet confirmed by a code.
	PendingTOTPSecret string `gorm:"column:pending_totp_secret"`
	CreatedAt         time.Time
	LastSeenAt        time.Time
	ExpiresAt         time.Time // the absolute end; idleness ends it sooner
}

func (Session) TableName() string { return "operator_sessions" }

// RecoveryCode is one single-use code, kept as its SHA-256 only.
type RecoveryCode struct {
	OperatorID string `gorm:"primaryKey"`
	CodeHash   string `gorm:"primaryKey"`
	UsedAt     *time.Time
}

func (RecoveryCode) TableName() string { return "operator_recovery_codes" }

// AuditEntry is one console write: who, when, on which panel, what, and before → after (JSON).
type AuditEntry struct {
	ID            string `gorm:"primaryKey"` // UUIDv7, ordered by time
	At            time.Time
	OperatorID    string
	OperatorEmail string
	PanelID       string
	Action        string
	Target        string
	BeforeJSON    string `gorm:"column:before_json"`
	AfterJSON     string `gorm:"column:after_json"`
}

func (AuditEntry) TableName() string { return "console_audit" }

// Models are the console's GORM models, for the schema check.
func Models() []any {
	return []any{&Operator{}, &Grant{}, &Session{}, &RecoveryCode{}, &AuditEntry{}, &APIToken{}}
}
