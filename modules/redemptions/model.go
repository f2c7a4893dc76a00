package redemptions

import "time"

// Kind is how an option pays out.
type Kind string

const (
	KindPayPal  Kind = "paypal"
	KindBank    Kind = "bank"
	KindVoucher Kind = "voucher"
)

// Status is where a redemption is in its lifecycle: pending -> approved -> paid, and
// pending or approved -> rejected (refunded).
type Status string

const (
	StatusPending  Status = "pending"
	StatusApproved Status = "approved"
	StatusPaid     Status = "paid"
	StatusRejected Status = "rejected"
)

// Statuses in lifecycle order.
var Statuses = []Status{StatusPending, StatusApproved, StatusPaid, StatusRejected}

// Option is one of a panel's ways to redeem (an entry of the spec's redemptions/settings).
type Option struct {
	PanelID      string `gorm:"primaryKey"`
	ID           string `gorm:"primaryKey"` // stable: paypal, bank, amazon-voucher
	Kind         Kind
	Names        Text `gorm:"serializer:json"`
	Descriptions Text `gorm:"serializer:json"`
	MinimumMinor int64
	FeeMinor     int64
	Enabled      bool
	Position     int
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

func (Option) TableName() string { return "redemption_options" }

// PayoutDetails are a member's sealed PayPal email or bank account (one row per kind).
type PayoutDetails struct {
	ParticipantID string `gorm:"primaryKey"`
	Kind          Kind   `gorm:"primaryKey"`
	PanelID       string
	Sealed        string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

func (PayoutDetails) TableName() string { return "payout_details" }

// Redemption is a member's request to be paid out, debited from the ledger when recorded.
type Redemption struct {
	ID                string `gorm:"primaryKey"`
	PanelID           string
	ParticipantID     string
	OptionID          string
	Kind              Kind
	Status            Status
	AmountMinor       int64 // debited from the balance
	FeeMinor          int64 // kept
	NetMinor          int64 // paid out
	CurrencyCode      string
	DestinationMasked string // JSON of Destination, masked
	DestinationSealed string // the whole destination, for operators
	IdempotencyKey    string
	RequestHash       string
	EntryID           string  // the ledger debit
	RefundEntryID     *string // the ledger credit of a rejection
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Event is one change of a redemption's status.
type Event struct {
	ID           string `gorm:"primaryKey"`
	RedemptionID string
	FromStatus   Status // empty for the request itself
	ToStatus     Status
	Operator     string
	Reason       string
	CreatedAt    time.Time
}

func (Event) TableName() string { return "redemption_events" }

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Option{}, &PayoutDetails{}, &Redemption{}, &Event{}} }
