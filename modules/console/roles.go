package console

import "slices"

// Role is what an operator may do on one panel (issue 21, part 1).
type Role string

const (
	RoleOwner   Role = "owner"   // everything, including operators
	RoleEditor  Role = "editor"  // campaigns and previews
	RoleFinance Role = "finance" // redemptions, ledger, competitions
	RoleSupport Role = "support" // members read-only, suspend, resend mails
)

// Roles lists every role, in the order pages show them.
var Roles = []Role{RoleOwner, RoleEditor, RoleFinance, RoleSupport}

// ParseRole reads a role's name; ok is false for anything else.
func ParseRole(s string) (Role, bool) {
	r := Role(s)
	return r, slices.Contains(Roles, r)
}

// Action is something an operator does on a panel.
type Action string

const (
	ActionView            Action = "view"             // see the panel at all
	ActionManageOperators Action = "operators.manage" // list, add and remove the panel's operators
	ActionReadAudit       Action = "audit.read"
	ActionEditCampaigns   Action = "campaigns.edit"
	ActionPreview         Action = "campaigns.preview"
	ActionRedemptions     Action = "redemptions.manage"
	ActionLedger          Action = "ledger.adjust"
	ActionCompetitions    Action = "competitions.manage"
	ActionReadMembers     Action = "members.read"
	ActionSuspendMembers  Action = "members.suspend"
	ActionResendMail      Action = "members.resend_mail"
	ActionEndSessions     Action = "members.end_sessions"
	ActionCloseMembers    Action = "members.close"             // owners only: it forfeits a balance
	ActionEditPanel       Action = "panel.edit"                // owners only: settings, theme, credentials
	ActionRevealPayout    Action = "redemptions.reveal_payout" // a member's payout details, audited
	ActionReadResults     Action = "results.read"              // campaigns' summaries, cross-tabs and free-text answers
	ActionReadResponses   Action = "results.responses"         // respondents' answers one by one: member data, audited
	ActionManageWebhooks  Action = "webhooks.manage"           // owners only: the panel's webhooks and their deliveries
)

// Actions lists every action, for API token scopes.
var Actions = []Action{
	ActionView, ActionManageOperators, ActionReadAudit, ActionEditPanel, ActionEditCampaigns, ActionPreview,
	ActionReadResults, ActionReadResponses,
	ActionRedemptions, ActionRevealPayout, ActionLedger, ActionCompetitions,
	ActionReadMembers, ActionSuspendMembers, ActionEndSessions, ActionResendMail, ActionCloseMembers,
	ActionManageWebhooks,
}

// roleActions are the role meanings; the owner may do everything.
var roleActions = map[Role][]Action{
	RoleEditor:  {ActionView, ActionEditCampaigns, ActionPreview, ActionReadResults, ActionReadResponses},
	RoleFinance: {ActionView, ActionRedemptions, ActionRevealPayout, ActionLedger, ActionCompetitions},
	RoleSupport: {ActionView, ActionReadMembers, ActionSuspendMembers, ActionEndSessions, ActionResendMail, ActionReadResponses},
}

// RolesAllow tells whether an operator holding roles on a panel may do action there.
func RolesAllow(roles []Role, action Action) bool {
	for _, r := range roles {
		if r == RoleOwner || slices.Contains(roleActions[r], action) {
			return true
		}
	}
	return false
}
