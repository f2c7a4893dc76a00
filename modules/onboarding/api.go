package onboarding

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// campaignJSON is an onboarding campaign in the panel host's API (spec section 3, Campaign and
// "Onboarding campaign: guid, is_final_onboarding_campaign, thank_you").
type campaignJSON struct {
	ID                        string         `json:"id"`
	GUID                      string         `json:"guid"`
	Type                      string         `json:"type"`
	Name                      string         `json:"name"`
	Description               string         `json:"description"`
	Language                  string         `json:"language"`
	CampaignStatus            string         `json:"campaign_status"`
	Reward                    string         `json:"reward"`
	CurrencyCode              string         `json:"currency_code"`
	EstimatedMinutes          int            `json:"estimated_minutes"`
	IsFinalOnboardingCampaign bool           `json:"is_final_onboarding_campaign"`
	Invitation                invitationJSON `json:"invitation"`
	ThankYou                  thankYouJSON   `json:"thank_you"`
	OpensAt                   *time.Time     `json:"opens_at"`
	ClosesAt                  *time.Time     `json:"closes_at"`
}

type invitationJSON struct {
	Name            string `json:"name"`
	QuestionsLength int    `json:"questionsLength"`
}

type thankYouJSON struct {
	IsFinalOnboardingCampaign bool `json:"is_final_onboarding_campaign"`
}

func toCampaignJSON(st *State, l *campaigns.Listing, lang string) campaignJSON {
	name := l.Names.In(lang, l.DefaultLanguage)
	status := campaigns.StatusNew
	if st.Completed(l.ID) {
		status = campaigns.StatusCompleted
	}
	return campaignJSON{
		ID: l.ID, GUID: l.ID, Type: l.Type, Name: name, Description: l.Descriptions.In(lang, l.DefaultLanguage), Language: l.LanguageFor(lang),
		CampaignStatus: status, Reward: web.MoneyString(l.RewardMinor, l.CurrencyCode), CurrencyCode: l.CurrencyCode,
		EstimatedMinutes: l.EstimatedMinutes, IsFinalOnboardingCampaign: l.IsFinalOnboarding,
		Invitation: invitationJSON{Name: name, QuestionsLength: l.QuestionCount},
		ThankYou:   thankYouJSON{IsFinalOnboardingCampaign: l.IsFinalOnboarding}, OpensAt: l.OpensAt, ClosesAt: l.ClosesAt,
	}
}

// panelHost is the onboarding of a panel host call: the path's panel must be this host's, and
// the caller must have an onboarding (its cookie, or a member's token: spec "a token from the
// user profile is set before these calls").
func (m *Module) panelHost(c fiber.Ctx) (*State, error) {
	if c.Params("panelUuid") != web.PanelOf(c).ID {
		return nil, web.NotFound()
	}
	st, ok, err := m.onboardingOf(c)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errMissing()
	}
	return st, nil
}

// GET /panel/{panelUuid}/onboarding/campaigns → {data: [campaign]}
func (m *Module) apiCampaigns(c fiber.Ctx) error {
	st, err := m.panelHost(c)
	if err != nil {
		return err
	}
	all, err := m.campaignsOf(c)
	if err != nil {
		return err
	}
	list := listed(st, all)
	out := make([]campaignJSON, 0, len(list))
	for i := range list {
		out = append(out, toCampaignJSON(st, &list[i], web.LocaleOf(c)))
	}
	return c.JSON(fiber.Map{"data": out})
}

// GET /panel/{panelUuid}/onboarding/campaigns/{campaignUuid} → {data: campaign}
func (m *Module) apiCampaign(c fiber.Ctx) error {
	st, err := m.panelHost(c)
	if err != nil {
		return err
	}
	l, err := m.campaign(c, c.Params("campaignUuid"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": toCampaignJSON(st, l, web.LocaleOf(c))})
}

// GET /panel/{panelUuid}/onboarding/campaigns/{campaignUuid}/go → {data: go result}
func (m *Module) apiGo(c fiber.Ctx) error {
	st, err := m.panelHost(c)
	if err != nil {
		return err
	}
	_, res, err := m.atCampaign(c, st)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": surveys.GoJSON(res)})
}

// POST /panel/{panelUuid}/onboarding/campaigns/{campaignUuid}/{questionUuid} with
// {"data": {"answer": VALUE}} → {data: go result}. A new answer to the same question replaces
// the earlier one.
func (m *Module) apiAnswer(c fiber.Ctx) error {
	var in struct {
		Data json.RawMessage `json:"data"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	st, err := m.panelHost(c)
	if err != nil {
		return err
	}
	id := c.Params("campaignUuid")
	if _, err := m.campaign(c, id); err != nil {
		return err
	}
	if len(in.Data) == 0 || string(in.Data) == "null" {
		return web.Literal(fiber.StatusBadRequest, surveys.AnswerNullMessage)
	}
	raw, err := surveys.DecodeAnswerBody(in.Data)
	if err != nil {
		return err
	}
	res, err := m.answer(c, st, id, c.Params("questionUuid"), raw)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"data": surveys.GoJSON(res)})
}

// stateJSON is the spec's Onboarding data as the web app API returns it.
type stateJSON struct {
	PanelUUID              string       `json:"panelUuid"`
	Provider               string       `json:"provider,omitempty"`
	UserID                 string       `json:"userId,omitempty"`
	Email                  string       `json:"email,omitempty"`
	CompletedCampaignUUIDs []string     `json:"completedCampaignUuids"`
	Answers                []Answer     `json:"answers"`
	UserProfile            *profileJSON `json:"userProfile,omitempty"`
	Completed              bool         `json:"completed"`
}

// profileJSON is the spec's userProfile of a member's onboarding (its token stays with the
// member: the server keeps the onboarding, so no client needs it back).
type profileJSON struct {
	LanguageCode string `json:"languageCode"`
	PanelKey     string `json:"panelKey"`
}

func (m *Module) toStateJSON(c fiber.Ctx, st *State) stateJSON {
	out := stateJSON{
		PanelUUID: st.PanelID, Provider: st.Provider, UserID: st.UserID, Email: st.Email,
		CompletedCampaignUUIDs: st.CompletedCampaigns, Answers: st.Answers, Completed: st.CompletedAt != nil,
	}
	if out.CompletedCampaignUUIDs == nil {
		out.CompletedCampaignUUIDs = []string{}
	}
	if out.Answers == nil {
		out.Answers = []Answer{}
	}
	if st.ForMember() {
		out.UserProfile = &profileJSON{LanguageCode: web.LocaleOf(c), PanelKey: web.PanelOf(c).Key}
		if mem := web.MemberOf(c); mem != nil && out.Email == "" {
			out.Email = mem.Email
		}
	} else if out.Email == "" {
		if w, err := m.accounts.WaitingIdentity(c, st.Provider, st.UserID); err == nil {
			out.Email = w.Email
		}
	}
	return out
}

// GET /api/v1/onboarding[?provider=&userId=]: this browser's onboarding data ({} when it has
// none). provider and userId start it, as on the page.
func (m *Module) apiOnboarding(c fiber.Ctx) error {
	var st *State
	var err error
	if provider, userID := c.Query("provider"), c.Query("userId"); provider != "" && userID != "" && web.MemberOf(c) == nil {
		st, err = m.begin(c, provider, userID, c.Query("redirect"))
	} else {
		st, err = m.current(c)
	}
	if err != nil {
		return err
	}
	if st == nil {
		return c.JSON(fiber.Map{})
	}
	return c.JSON(m.toStateJSON(c, st))
}

// completedIn is POST /api/v1/onboarding/completed's body: the spec's onboarding data. The
// server keeps the answers and completed campaigns itself, so those lists are not taken from
// the client; the keys must name this onboarding. email is this API's addition for an identity
// whose provider gave none.
type completedIn struct {
	PanelUUID              string          `json:"panelUuid"`
	Provider               string          `json:"provider"`
	UserID                 string          `json:"userId"`
	CompletedCampaignUUIDs []string        `json:"completedCampaignUuids"`
	Answers                json.RawMessage `json:"answers"`
	UserProfile            *struct {
		PanelKey     string `json:"panelKey"`
		LanguageCode string `json:"languageCode"`
	} `json:"userProfile"`
	Email string `json:"email"`
}

// completedResult is the spec's onboardingCompletedResult, with the new session's token.
type completedResult struct {
	Email     string `json:"email"`
	PanelUUID string `json:"panelUuid"`
	Provider  string `json:"provider,omitempty"`
	UserID    string `json:"userId,omitempty"`
	PPToken   string `json:"ppToken,omitempty"`
}

// POST /api/v1/onboarding/completed: ends the onboarding (the member is made and signed in).
// email_already_used comes back as its code.
func (m *Module) apiCompleted(c fiber.Ctx) error {
	var in completedIn
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	st, err := m.current(c)
	if err != nil {
		return err
	}
	if st == nil {
		return errMissing()
	}
	panel := web.PanelOf(c)
	var verr *web.Error
	add := func(field string) {
		if verr == nil {
			verr = web.Invalid(field, "error.onboarding_mismatch", nil)
		} else {
			verr.Also(field, "error.onboarding_mismatch", nil)
		}
	}
	if in.PanelUUID != panel.ID {
		add("panelUuid")
	}
	if st.ForMember() {
		if in.UserProfile != nil && in.UserProfile.PanelKey != "" && in.UserProfile.PanelKey != panel.Key {
			add("userProfile.panelKey")
		}
	} else if in.Provider != st.Provider || in.UserID != st.UserID {
		add("userId")
	}
	if verr != nil {
		return verr
	}
	token, err := m.complete(c, st, in.Email)
	if err != nil {
		return err
	}
	return c.JSON(completedResult{Email: st.Email, PanelUUID: panel.ID, Provider: st.Provider, UserID: st.UserID, PPToken: token})
}

// POST /api/v1/onboarding/resend {provider, userId, email}: the validation mail again, for the
// member this browser's onboarding made.
func (m *Module) apiResend(c fiber.Ctx) error {
	var in struct {
		Provider string `json:"provider"`
		UserID   string `json:"userId"`
		Email    string `json:"email"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	st, err := m.current(c)
	if err != nil {
		return err
	}
	member := web.MemberOf(c)
	if st == nil || st.CompletedAt == nil || member == nil || st.ParticipantID == nil || *st.ParticipantID != member.ParticipantID {
		return errMissing()
	}
	if in.Provider != st.Provider || in.UserID != st.UserID || accounts.NormalizeEmail(in.Email) != accounts.NormalizeEmail(member.Email) {
		return web.Invalid("email", "error.onboarding_mismatch", nil)
	}
	if err := m.accounts.RequestValidationFor(c, member); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "email": strings.TrimSpace(member.Email)})
}
