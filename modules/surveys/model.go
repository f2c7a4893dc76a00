package surveys

import "time"

// Participation is one member's run of one campaign and their standing with it: seen,
// hidden, started, finished (campaign_status), where they are and how they rated it.
type Participation struct {
	ID            string `gorm:"primaryKey"`
	PanelID       string
	CampaignID    string
	ParticipantID string
	Status        string // campaigns.StatusNew until started; then the spec's campaign statuses
	SeenAt        *time.Time
	HiddenAt      *time.Time
	StartedAt     *time.Time
	FinishedAt    *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	// The engine's place: the question to answer next and how many were answered.
	CurrentQuestion *string
	Answered        int
	QuotaID         *string // the quota a complete counted towards
	Rating          *int
	RatingComment   *string
	RatedAt         *time.Time
	Language        *string // the language the member answered in (set at start)
}

// Answer is a member's answer to one question, the VALUE of ARCHITECTURE.md "Answers" as JSON.
type Answer struct {
	ParticipationID string `gorm:"primaryKey"`
	QuestionID      string `gorm:"primaryKey"`
	Seq             int
	Value           string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// ResultCount is one figure of a campaign's counted results (result_counts; result_counts.go).
type ResultCount struct {
	CampaignID string `gorm:"primaryKey"`
	ByQuestion string `gorm:"primaryKey"`
	Kind       string `gorm:"primaryKey"`
	ByValue    string `gorm:"primaryKey"`
	QuestionID string `gorm:"primaryKey"`
	Value      string `gorm:"primaryKey"`
	Shard      int    `gorm:"primaryKey"`
	N          int64
}

// ResultCountsThrough is how far a campaign's counts go: the runs that ended before it.
type ResultCountsThrough struct {
	CampaignID     string `gorm:"primaryKey"`
	CountedThrough time.Time
}

// TableName is result_counts_through (not GORM's plural).
func (ResultCountsThrough) TableName() string { return "result_counts_through" }

// Models lists the module's tables for the schema check.
func Models() []any {
	return []any{&Participation{}, &Answer{}, &ResultCount{}, &ResultCountsThrough{}}
}
