package offers

import "time"

// ProviderRow is a panel's offers provider, its secrets sealed.
type ProviderRow struct {
	PanelID              string `gorm:"primaryKey"`
	BaseURL              string
	AppID                string
	APIKeySealed         string
	PostbackSecretSealed string
	// CreditCeilingMinor is the most one postback credits at once, in minor units of
	// CreditCeilingCurrency (the panel's when it was set); nil: no ceiling.
	CreditCeilingMinor    *int64
	CreditCeilingCurrency string
	UpdatedAt             time.Time
}

func (ProviderRow) TableName() string { return "offer_providers" }

// MemberRow is a member's sub-id at their panel's provider.
type MemberRow struct {
	ParticipantID string `gorm:"primaryKey"`
	PanelID       string
	SubID         string
	CreatedAt     time.Time
}

func (MemberRow) TableName() string { return "offer_members" }

// Row states.
const (
	StatusPending  = "pending"
	StatusCredited = "credited"
	StatusReversed = "reversed"
)

// Kinds of an offer.
const (
	KindOffer = "offer"
	KindGame  = "game"
)

// Row is one of the member's offers: started, credited or reversed.
type Row struct {
	ID            string `gorm:"primaryKey"`
	ParticipantID string
	PanelID       string
	OfferID       string
	Kind          string
	Name          string
	RewardMinor   int64
	CurrencyCode  string
	Status        string
	ClickID       string
	TransactionID *string
	EntryID       *string
	ReversalID    *string
	StartedAt     *time.Time
	CreditedAt    *time.Time
	ReversedAt    *time.Time
	UpdatedAt     time.Time
}

func (Row) TableName() string { return "offer_rows" }

// PostbackRecord is one postback received, accepted or refused.
type PostbackRecord struct {
	ID            string `gorm:"primaryKey"`
	PanelID       *string
	AppID         string
	TransactionID string
	Status        string
	SubID         string
	Amount        string
	SourceIP      string
	Query         string
	Accepted      bool
	Replay        bool
	Reason        string
	HTTPStatus    int
	CreatedAt     time.Time
}

func (PostbackRecord) TableName() string { return "offer_postbacks" }

// Outcome is the first accepted outcome of a (provider, transaction, status).
type Outcome struct {
	PanelID       string `gorm:"primaryKey"`
	AppID         string `gorm:"primaryKey"`
	TransactionID string `gorm:"primaryKey"`
	Status        string `gorm:"primaryKey"`
	ParticipantID string
	RowID         string
	EntryID       string
	Response      string
	CreatedAt     time.Time
}

func (Outcome) TableName() string { return "offer_transactions" }

// IssueRow is a member's report of an offer completed but not credited.
type IssueRow struct {
	ID            string `gorm:"primaryKey"`
	ParticipantID string
	PanelID       string
	RowID         *string
	OfferID       string
	ClickID       string
	Message       string
	TicketID      string
	ForwardError  string
	ForwardedAt   *time.Time
	CreatedAt     time.Time
}

func (IssueRow) TableName() string { return "offer_issues" }

// Hold states: held for review, then approved (paid) or refused (nothing paid).
const (
	HoldHeld     = "held"
	HoldApproved = "approved"
	HoldRefused  = "refused"
)

// CreditHold is a postback credit above the panel's ceiling, held for an operator's review
// instead of paid: one per (provider, transaction). Approving pays it once, in the
// transaction that resolves it; refusing pays nothing and keeps who refused it and why.
type CreditHold struct {
	ID            string `gorm:"primaryKey"`
	PanelID       string
	AppID         string
	TransactionID string
	ParticipantID string
	OfferID       string
	OfferName     string
	AmountMinor   int64
	CurrencyCode  string
	CeilingMinor  int64 // the ceiling it was held against
	Status        string
	Response      string // the provider's answer, given again to its retries
	EntryID       *string
	ResolvedBy    string
	Reason        string
	ResolvedAt    *time.Time
	CreatedAt     time.Time
}

func (CreditHold) TableName() string { return "offer_credit_holds" }

// Models lists the module's tables for the schema check.
func Models() []any {
	return []any{&ProviderRow{}, &MemberRow{}, &Row{}, &PostbackRecord{}, &Outcome{}, &IssueRow{}, &CreditHold{}}
}
