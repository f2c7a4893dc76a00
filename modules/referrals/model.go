package referrals

import "time"

// Settings are a panel's referral rules (referral_settings); a panel without a row has
// DefaultSettings.
type Settings struct {
	PanelID      string `gorm:"primaryKey"`
	Enabled      bool
	RewardMinor  int64  // paid to the referrer, in CurrencyCode; 0: no reward
	CurrencyCode string // the panel's currency when the reward was set
	RewardWhen   string // RewardOnWelcome or RewardOnJoin
	// RequireWelcome and RequireValidatedEmail are the eligibility rule: a member may refer
	// once every condition set holds (none set: every member may).
	RequireWelcome        bool
	RequireValidatedEmail bool
	ExpiryDays            int // an invitation not accepted this long after it was last sent is archived
	DailyLimit            int // invitations (first sends and resends) a member may send a day
	UpdatedAt             time.Time
}

func (Settings) TableName() string { return "referral_settings" }

// When a referral's reward is paid.
const (
	RewardOnWelcome = "welcome_completed" // the friend completed the welcome campaign
	RewardOnJoin    = "joined"            // the friend joined
)

// Defaults of a panel that sets nothing.
const (
	DefaultExpiryDays = 30
	DefaultDailyLimit = 10
)

// DefaultSettings are the rules of a panel without a row: referrals on, no reward, eligible
// once the welcome campaign is completed and the email validated, 30 days, 10 a day.
func DefaultSettings(panelID, currency string) Settings {
	return Settings{
		PanelID: panelID, Enabled: true, CurrencyCode: currency, RewardWhen: RewardOnWelcome,
		RequireWelcome: true, RequireValidatedEmail: true, ExpiryDays: DefaultExpiryDays, DailyLimit: DefaultDailyLimit,
	}
}

func (s Settings) expiry() time.Duration { return time.Duration(s.ExpiryDays) * 24 * time.Hour }

// Referral is a member's invitation of a friend (an "invite"). Its state is read from its
// times (State), never stored.
type Referral struct {
	ID             string `gorm:"primaryKey"` // the :inviteId of /join/invite/:inviteId
	PanelID        string
	ReferrerID     string
	Email          string // the friend's address as typed; "" once erased
	EmailKey       string // Email normalised by the self-referral rule (NormalizeEmail)
	Message        string // the referrer's own words, "" for none
	LanguageCode   string // the mails' language: the referrer's
	SenderKey      string // sha256 of the referrer's normalised email
	SenderDevice   string // sha256 of the referrer's device cookie, "" when none
	Sends          int
	SentAt         time.Time
	LastSentAt     time.Time
	InviteeID      *string // the member who joined through it
	InviteeName    string  // their first name, as they gave it at joining
	ReferrerName   string  // the referrer's first name when the friend joined (their thank-you card)
	AcceptedAt     *time.Time
	ArchivedAt     *time.Time
	ArchivedReason string // ArchivedByMember, ArchivedClosed; "" unless archived_at is set
	RewardMinor    int64
	RewardedAt     *time.Time
	TransactionID  *string // the reward's ledger entry
	ThankedAt      *time.Time
}

// Why an invitation was archived by hand (an invitation past its expiry reads as archived
// without a row change: State).
const (
	ArchivedByMember = "member" // the referrer archived it
	ArchivedClosed   = "closed" // the referrer closed their account
	ArchivedExpired  = "expired"
)

// The states of an invitation (spec section 3: pending, accepted, archived).
const (
	StatePending  = "pending"
	StateAccepted = "accepted"
	StateArchived = "archived"
)

// State is the invitation's state at now under the panel's expiry: accepted once a friend
// joined through it, archived when archived or when it was last sent more than the expiry ago,
// else pending. With the reason and the time it was archived.
func (r *Referral) State(s Settings, now time.Time) (state, reason string, archivedAt *time.Time) {
	switch {
	case r.AcceptedAt != nil:
		return StateAccepted, "", nil
	case r.ArchivedAt != nil:
		return StateArchived, r.ArchivedReason, r.ArchivedAt
	case !now.Before(r.LastSentAt.Add(s.expiry())):
		at := r.LastSentAt.Add(s.expiry())
		return StateArchived, ArchivedExpired, &at
	}
	return StatePending, "", nil
}

// Dismissal is a feed card (blade) a member dismissed.
type Dismissal struct {
	ParticipantID string `gorm:"primaryKey"`
	BladeID       string `gorm:"primaryKey"`
	DismissedAt   time.Time
}

func (Dismissal) TableName() string { return "blade_dismissals" }

// Affiliate is a partner's code: members it brings are attributed to the partner and get
// BonusMinor (once).
type Affiliate struct {
	ID           string `gorm:"primaryKey"`
	PanelID      string
	Code         string // upper case
	Partner      string
	BonusMinor   int64
	CurrencyCode string
	Operator     string
	CreatedAt    time.Time
}

// AffiliateMember is the partner a member came through, once and for good.
type AffiliateMember struct {
	ParticipantID string `gorm:"primaryKey"`
	PanelID       string
	AffiliateID   string
	Via           string // ViaJoin, ViaAccept
	AttributedAt  time.Time
	TransactionID *string // the bonus's ledger entry
}

// How a member came to a partner.
const (
	ViaJoin   = "join"   // joined with the partner's code
	ViaAccept = "accept" // accepted it as a member
)

// Models lists the module's tables for the schema check.
func Models() []any {
	return []any{&Settings{}, &Referral{}, &Dismissal{}, &Affiliate{}, &AffiliateMember{}}
}
