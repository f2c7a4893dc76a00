package campaigns

import "time"

// Campaign is a campaign of one panel. Definition holds the authored document; the other
// columns copy what the feed filters and sorts on, so the feed never decodes definitions.
type Campaign struct {
	ID               string `gorm:"primaryKey"` // the campaign uuid (guid)
	PanelID          string
	Type             string
	DefaultLanguage  string
	Names            Text `gorm:"serializer:json"`
	Descriptions     Text `gorm:"serializer:json"`
	RewardMinor      int64
	CurrencyCode     string
	EstimatedMinutes int
	QuestionCount    int
	IsWelcome        bool
	IsCompetition    bool
	// IsOnboarding: answered in onboarding, before membership, and listed nowhere else;
	// IsFinalOnboarding: completing it ends onboarding.
	IsOnboarding      bool
	IsFinalOnboarding bool
	Priority          int
	OpensAt           *time.Time
	ClosesAt          *time.Time
	PublishedAt       time.Time // opens_at, or the first import: the feed's recency order
	// AudienceLanguages is ",en,es," for a campaign targeted at those languages, "" for all:
	// a LIKE test keeps language targeting in SQL on every dialect.
	AudienceLanguages string
	// ProfileTargeting are the targeting conditions on profile fields, checked per member.
	ProfileTargeting []Condition `gorm:"serializer:json"`
	// QuotaFull: a quota without conditions is full, so no one new may take the campaign.
	QuotaFull bool
	// FullAudiences are the profile conditions of full quotas that only test profile fields:
	// a member matching any of them no longer sees the campaign.
	FullAudiences   [][]Condition `gorm:"serializer:json"`
	SurveyThemeGUID string
	Definition      Definition `gorm:"serializer:json"`
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// CampaignQuota counts the completes towards one quota of a campaign.
type CampaignQuota struct {
	CampaignID string `gorm:"primaryKey"`
	QuotaID    string `gorm:"primaryKey"`
	LimitCount int
	Completes  int
	Conditions []Condition `gorm:"serializer:json"`
}

// A person's campaign_status in a campaign (spec section 3): new and started, then the spec's
// terminal statuses. The survey engine keeps each member's; the audience rule reads it.
const (
	StatusNew          = "new"
	StatusStarted      = "started"
	StatusCompleted    = "completed"
	StatusScreened     = "screened"
	StatusQuotaFull    = "quota_full"
	StatusQualified    = "qualified"
	StatusDisqualified = "disqualified"
	StatusSkipped      = "skipped"
	StatusUnavailable  = "unavailable"
	StatusExpired      = "expired"
	StatusSuppressed   = "suppressed"
)

// TerminalStatuses are the spec's terminal campaign statuses: the campaign is over for the person.
var TerminalStatuses = []string{StatusCompleted, StatusScreened, StatusQuotaFull, StatusQualified, StatusDisqualified, StatusSkipped, StatusUnavailable, StatusExpired, StatusSuppressed}

// IsTerminal tells whether a status ends the member's participation.
func IsTerminal(status string) bool {
	for _, s := range TerminalStatuses {
		if s == status {
			return true
		}
	}
	return false
}

// Models lists the module's tables for the schema check.
func Models() []any {
	return []any{&Campaign{}, &CampaignQuota{}, &CampaignSource{}}
}

// TableName: GORM would say campaign_quota (its inflector treats quota as uncountable).
func (CampaignQuota) TableName() string { return "campaign_quotas" }
