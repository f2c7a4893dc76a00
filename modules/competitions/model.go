package competitions

import "time"

// Decisions a member may take on a competition invitation (surveys.DecisionEntered and
// surveys.DecisionRejected).
const (
	DecisionEntered  = "entered"
	DecisionRejected = "rejected"
)

// Entry is a member's decision on a competition: entered or rejected, once per member.
type Entry struct {
	CompetitionID string `gorm:"primaryKey"`
	ParticipantID string `gorm:"primaryKey"`
	CampaignID    string
	PanelID       string
	Decision      string
	TransactionID *string // the ledger's record of the entry (entered only)
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

func (Entry) TableName() string { return "competition_entries" }

// DrawRecord is a competition's draw as recorded: the seed that ranked the entrants, who the
// entrants were (their number and digest), and who drew it, when and why.
type DrawRecord struct {
	CompetitionID  string `gorm:"primaryKey"`
	CampaignID     string
	PanelID        string
	Seed           string // 32 bytes, hex
	Entrants       int
	EntrantsDigest string // sha256 hex of the sorted entrant ids joined by "\n"
	Winners        int    // how many winners the competition asked for
	Operator       string
	Reason         string
	Early          bool // drawn before the competition's draw date
	DrawnAt        time.Time
}

func (DrawRecord) TableName() string { return "competition_draws" }

// Winner is one winner of a draw, by rank (1 first), with their prize's ledger entry.
type Winner struct {
	CompetitionID string `gorm:"primaryKey"`
	ParticipantID string `gorm:"primaryKey"`
	Rank          int
	TransactionID *string
}

func (Winner) TableName() string { return "competition_winners" }

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Entry{}, &DrawRecord{}, &Winner{}} }
