package consolemembers

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The JSON API's shapes (modules/apidocs/openapi/console-members.yaml): money is a decimal
// string in major units beside its currency code; times are RFC 3339 in UTC, null when none.

type memberJSON struct {
	UUID     string `json:"uuid"`
	Email    string `json:"email"`
	Username string `json:"username"`
	Status   string `json:"status"`
	JoinedAt string `json:"joinedAt"`
	Balance  string `json:"balance"`
	Currency string `json:"currency_code"`
}

type searchJSON struct {
	Members  []memberJSON `json:"members"`
	Page     int          `json:"page"`
	PageSize int          `json:"pageSize"`
	More     bool         `json:"more"`
}

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func isoOrNil(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := iso(*t)
	return &s
}

// GET /console/api/panels/:panel/members?q=&page=
func (p *Part) apiSearch(c fiber.Ctx, a console.PanelAccess) error {
	q, page := strings.TrimSpace(c.Query("q")), 1
	if raw := c.Query("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxPage || raw != strconv.Itoa(n) {
			return web.Invalid("page", "console.members.error.page", map[string]any{"Max": maxPage})
		}
		page = n
	}
	rows, more, balances, err := p.search(c, a, q, page, searchPageSize)
	if err != nil {
		return err
	}
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	out := searchJSON{Members: make([]memberJSON, 0, len(rows)), Page: page, PageSize: searchPageSize, More: more}
	for _, r := range rows {
		out.Members = append(out.Members, memberJSON{
			UUID: r.ParticipantID, Email: r.Email, Username: r.Username, Status: r.Status, JoinedAt: iso(r.JoinedAt),
			Balance: balances[r.ParticipantID], Currency: panel.CurrencyCode,
		})
	}
	return c.JSON(out)
}

type profileJSON struct {
	UUID             string  `json:"uuid"`
	FirstName        string  `json:"firstName"`
	LastName         string  `json:"lastName"`
	Email            string  `json:"email"`
	EmailValidated   bool    `json:"emailValidated"`
	EmailValidatedAt *string `json:"emailValidatedAt"`
	Username         string  `json:"username"`
	LanguageCode     string  `json:"languageCode"`
	Status           string  `json:"status"`
	JoinedAt         string  `json:"joinedAt"`
	LastLoginAt      *string `json:"lastLoginAt"`
}

type participationJSON struct {
	CampaignID string  `json:"campaignUuid"`
	Campaign   string  `json:"campaign"`
	Status     string  `json:"status"`
	SeenAt     *string `json:"seenAt"`
	StartedAt  *string `json:"startedAt"`
	FinishedAt *string `json:"finishedAt"`
}

type entryJSON struct {
	UUID         string `json:"transactionUuid"`
	CreatedAt    string `json:"createdAt"`
	Origin       string `json:"origin"`
	Title        string `json:"title"`
	Amount       string `json:"amount"`
	BalanceAfter string `json:"balanceAfter"`
	Currency     string `json:"currency_code"`
}

type ledgerJSON struct {
	Balance  string      `json:"balance"`
	Currency string      `json:"currency_code"`
	Entries  []entryJSON `json:"entries"`
}

type redemptionJSON struct {
	UUID      string `json:"uuid"`
	Option    string `json:"option"`
	Kind      string `json:"kind"`
	Status    string `json:"status"`
	Amount    string `json:"amount"`
	Net       string `json:"net"`
	Currency  string `json:"currency_code"`
	CreatedAt string `json:"createdAt"`
}

type mobileJSON struct {
	Status       string  `json:"status"`
	Verified     bool    `json:"verified"`
	MaskedNumber *string `json:"maskedNumber"`
	VerifiedAt   *string `json:"verifiedAt"`
}

type referralsJSON struct {
	Sent     int  `json:"invitesSent"`
	Accepted int  `json:"invitesAccepted"`
	Pending  int  `json:"invitesPending"`
	Invited  bool `json:"invited"`
}

type sessionJSON struct {
	CreatedAt  string `json:"createdAt"`
	LastSeenAt string `json:"lastSeenAt"`
	ExpiresAt  string `json:"expiresAt"`
	Device     string `json:"device"`
	Network    string `json:"network"`
	App        string `json:"app"`
}

type memberPageJSON struct {
	Profile        profileJSON         `json:"profile"`
	Participations []participationJSON `json:"participations"`
	Ledger         ledgerJSON          `json:"ledger"`
	Redemptions    []redemptionJSON    `json:"redemptions"`
	Mobile         mobileJSON          `json:"mobile"`
	Referrals      referralsJSON       `json:"referrals"`
	Sessions       []sessionJSON       `json:"sessions"`
}

// GET /console/api/panels/:panel/members/:id
func (p *Part) apiMember(c fiber.Ctx, a console.PanelAccess) error {
	v, err := p.load(c, a, c.Params("id"))
	if err != nil {
		return err
	}
	prof := v.profile
	out := memberPageJSON{
		Profile: profileJSON{
			UUID: prof.ParticipantID, FirstName: prof.FirstName, LastName: prof.LastName, Email: prof.Email,
			EmailValidated: prof.EmailValidatedAt != nil, EmailValidatedAt: isoOrNil(prof.EmailValidatedAt), Username: prof.Username,
			LanguageCode: prof.LanguageCode, Status: prof.Status, JoinedAt: iso(prof.JoinedAt), LastLoginAt: isoOrNil(prof.LastLoginAt),
		},
		Participations: []participationJSON{},
		Ledger:         ledgerJSON{Balance: web.MoneyString(v.balance.Minor, v.balance.Currency), Currency: v.balance.Currency, Entries: []entryJSON{}},
		Redemptions:    []redemptionJSON{},
		Mobile:         mobileJSON{Status: v.mobile.Status, Verified: v.mobile.Verified, VerifiedAt: isoOrNil(v.mobile.VerifiedAt)},
		Referrals:      referralsJSON{Sent: v.referrals.Sent, Accepted: v.referrals.Accepted, Pending: v.referrals.Pending, Invited: v.referrals.Invited},
		Sessions:       []sessionJSON{},
	}
	if v.mobile.MaskedNumber != "" {
		out.Mobile.MaskedNumber = &v.mobile.MaskedNumber
	}
	for _, r := range v.participations {
		out.Participations = append(out.Participations, participationJSON{CampaignID: r.CampaignID, Campaign: r.Name, Status: r.Status,
			SeenAt: isoOrNil(r.SeenAt), StartedAt: isoOrNil(r.StartedAt), FinishedAt: isoOrNil(r.FinishedAt)})
	}
	for _, e := range v.entries {
		out.Ledger.Entries = append(out.Ledger.Entries, entryJSON{UUID: e.ID, CreatedAt: iso(e.CreatedAt), Origin: string(e.Origin), Title: entryTitle(e),
			Amount: web.MoneyString(e.AmountMinor, e.CurrencyCode), BalanceAfter: web.MoneyString(e.BalanceAfter, e.CurrencyCode), Currency: e.CurrencyCode})
	}
	for _, r := range v.redemptions {
		out.Redemptions = append(out.Redemptions, redemptionJSON{UUID: r.ID, Option: r.OptionID, Kind: string(r.Kind), Status: string(r.Status),
			Amount: web.MoneyString(r.AmountMinor, r.CurrencyCode), Net: web.MoneyString(r.NetMinor, r.CurrencyCode), Currency: r.CurrencyCode, CreatedAt: iso(r.CreatedAt)})
	}
	for _, s := range v.sessions {
		out.Sessions = append(out.Sessions, sessionJSON{CreatedAt: iso(s.CreatedAt), LastSeenAt: iso(s.LastSeenAt), ExpiresAt: iso(s.ExpiresAt),
			Device: s.Device, Network: s.Network, App: s.AppName})
	}
	return c.JSON(out)
}

// apiAction runs an action from a JSON call; a body is optional where nothing is asked for.
func (p *Part) apiAction(act action) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		var in input
		if len(c.Body()) > 0 {
			if err := web.DecodeJSON(c, &in); err != nil {
				return err
			}
		}
		out, err := p.do(c, a, act, c.Params("id"), in)
		var refused refusals
		if errors.As(err, &refused) {
			return refused.web()
		}
		if err != nil {
			return err
		}
		out.Message = p.m.T(c, out.notice, map[string]any{"Count": out.SessionsEnded})
		return c.JSON(out)
	}
}
