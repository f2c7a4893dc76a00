package surveys

import (
	"context"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Respondent is who answers a campaign, as the engine sees them. A member's run is kept as
// their participation and a completion is paid (Payer); a visitor in onboarding, who is not
// a member yet, walks a campaign instead (Walk): nothing is stored, nothing is paid and no
// participant row is needed until onboarding makes them a member.
type Respondent interface {
	// Person is who they are to the audience rule: their participant id ("" for a visitor),
	// language and profile fields.
	Person() campaigns.Person
}

// Member is a panel member as a respondent.
type Member campaigns.Person

// Person is the member as the audience rule sees them.
func (m Member) Person() campaigns.Person { return campaigns.Person(m) }

// Payment is a completion to pay: the campaign's reward to the member, once.
type Payment struct {
	Panel         *web.Panel
	ParticipantID string
	CampaignID    string
	Title         string // the campaign's name in the member's language
	RewardMinor   int64
	Currency      string
	Competition   bool
}

// Payer credits a member's completion inside the engine's transaction (the wallet), so a
// completion and its payment commit together or not at all.
type Payer interface {
	PayCompletion(tx *gorm.DB, p Payment) error
}

// WelcomeDone records in the member's profile that they completed the welcome campaign.
type WelcomeDone func(ctx context.Context, participantID string) error
