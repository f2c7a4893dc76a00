package wallet

import "time"

// Origin is where a transaction came from (spec: campaign, redeem, manual; and offer, an
// offers provider's credits, their reversals and the recoveries of what a reversal left owed).
type Origin string

const (
	OriginCampaign Origin = "campaign"
	OriginRedeem   Origin = "redeem"
	OriginManual   Origin = "manual"
	OriginOffer    Origin = "offer"
)

// Wallet is a member's cached balance, open offer debt and entry counter. The balance is
// always the sum of the member's entries' amounts and the debt the sum of their debts; every
// movement updates them in one transaction. A debt is only ever open on a zero balance.
type Wallet struct {
	ParticipantID string `gorm:"primaryKey"`
	PanelID       string
	CurrencyCode  string
	BalanceMinor  int64
	OwedMinor     int64
	EntryCount    int64
	SeenSeq       int64
	UpdatedAt     time.Time
}

// Entry is one ledger entry: a signed amount in minor units of the panel's currency.
type Entry struct {
	ID            string `gorm:"primaryKey"` // transactionUuid
	ParticipantID string
	Seq           int64
	PanelID       string
	AmountMinor   int64
	CurrencyCode  string
	BalanceAfter  int64
	// DebtMinor is what the entry adds to the member's offer debt (a reversal the balance
	// could not cover) or, negative, repays of it (a recovery); 0 on every other entry.
	DebtMinor    int64
	ReversesID   *string // a reversal: the credit it takes back
	Origin       Origin
	Competition  bool
	CampaignID   *string
	RedemptionID *string
	Title        string
	Reason       string
	Operator     string
	NaturalKey   *string
	CreatedAt    time.Time
}

func (Entry) TableName() string { return "ledger_entries" }

// Month is how many entries of each kind a member has in a calendar month (UTC).
type Month struct {
	ParticipantID string `gorm:"primaryKey"`
	Year          int    `gorm:"primaryKey"`
	Month         int    `gorm:"primaryKey"`
	Entries       int
	Competitions  int
	Redemptions   int
	CreditedMinor int64
	DebitedMinor  int64
}

func (Month) TableName() string { return "ledger_months" }

// TransactionReport is a member's report that a transaction is wrong.
type TransactionReport struct {
	ID            string `gorm:"primaryKey"`
	ParticipantID string
	TransactionID string
	CampaignID    *string
	ReasonCode    string
	ReasonText    string
	CreatedAt     time.Time
}

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Wallet{}, &Entry{}, &Month{}, &TransactionReport{}} }
