package profile

import "time"

// PostalAddress is a member's postal address (profile/postal-address). PostcodeID is the
// panel's postcode it was found as, when the panel has a list of postcodes.
type PostalAddress struct {
	ParticipantID string `gorm:"primaryKey"`
	PanelID       string
	Line1         string
	Line2         string
	City          string
	Region        string
	Postcode      string
	PostcodeID    string
	Country       string
	UpdatedAt     time.Time
}

// Picture is one of a member's profile pictures (the profile lists them as ProfilePic). Key is the SHA-256 of the stored (re-encoded)
// image: its name in storage and in its URL, so the URL is cached for good.
type Picture struct {
	ParticipantID string `gorm:"primaryKey"`
	Key           string `gorm:"primaryKey;column:pic_key"`
	PanelID       string
	ContentType   string
	Width         int
	Height        int
	Bytes         int
	Main          bool // the picture the top bar shows; at most one per member
	CreatedAt     time.Time
}

func (Picture) TableName() string { return "profile_pics" }

// Subscription is which bulk mails a member receives; a member without a row receives all.
type Subscription struct {
	ParticipantID     string `gorm:"primaryKey"`
	SurveyInvitations bool
	Newsletters       bool
	Reminders         bool
	UpdatedAt         time.Time
}

func (Subscription) TableName() string { return "mail_subscriptions" }

// Closure is what remains of a closed account besides its anonymised rows and its ledger.
type Closure struct {
	ParticipantID string `gorm:"primaryKey"`
	PanelID       string
	Reason        string // ReasonClosedByUser or ReasonChangedInstance
	BalanceMinor  int64  // forfeited on closing, moved on a change of panel
	CurrencyCode  string
	MovedTo       *string // the new membership after a change of panel
	ClosedAt      time.Time
}

func (Closure) TableName() string { return "account_closures" }

// Why an account closed. ReasonClosedByUser is the spec's only reasonForClosing (section 5);
// ReasonClosedByOperator is an operator's closing (the console, CloseByOperator).
const (
	ReasonClosedByUser     = "closed-by-user"
	ReasonChangedInstance  = "changed-instance"
	ReasonClosedByOperator = "closed-by-operator"
)

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&PostalAddress{}, &Picture{}, &Subscription{}, &Closure{}} }
