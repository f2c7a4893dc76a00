package consolemembers

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	memberviews "github.com/canvass/canvass/views/console/members"
	"github.com/gofiber/fiber/v3"
)

// when is a time as the console shows it (console.When).
var when = console.When

func at(t time.Time) string { return when(&t) }

func money(minor int64, currency string) string {
	return web.MoneyString(minor, currency) + " " + currency
}

// pageOf reads ?page= (1 when absent or not a page number).
func pageOf(c fiber.Ctx) int {
	n, err := strconv.Atoi(c.Query("page"))
	if err != nil || n < 1 || n > maxPage {
		return 1
	}
	return n
}

// The labels of the modules' codes, by code: a code not listed shows as itself.
var (
	statusIDs = map[string]string{
		accounts.StatusActive: "console.members.status.active", accounts.StatusSuspended: "console.members.status.suspended",
		accounts.StatusClosed: "console.members.status.closed",
	}
	runIDs = map[string]string{
		campaigns.StatusNew: "console.members.run.new", campaigns.StatusStarted: "console.members.run.started",
		campaigns.StatusCompleted: "console.members.run.completed", campaigns.StatusScreened: "console.members.run.screened",
		campaigns.StatusQuotaFull: "console.members.run.quota_full", campaigns.StatusQualified: "console.members.run.qualified",
		campaigns.StatusDisqualified: "console.members.run.disqualified", campaigns.StatusSkipped: "console.members.run.skipped",
		campaigns.StatusUnavailable: "console.members.run.unavailable", campaigns.StatusExpired: "console.members.run.expired",
		campaigns.StatusSuppressed: "console.members.run.suppressed",
	}
	redemptionIDs = map[string]string{
		string(redemptions.StatusPending): "console.members.redemption.pending", string(redemptions.StatusApproved): "console.members.redemption.approved",
		string(redemptions.StatusPaid): "console.members.redemption.paid", string(redemptions.StatusRejected): "console.members.redemption.rejected",
	}
	originIDs = map[string]string{
		string(wallet.OriginCampaign): "console.members.origin.campaign", string(wallet.OriginRedeem): "console.members.origin.redeem",
		string(wallet.OriginManual): "console.members.origin.manual", string(wallet.OriginOffer): "console.members.origin.offer",
	}
	mobileIDs = map[string]string{
		mobile.StatusNotVerified: "console.members.mobile.not_verified", mobile.StatusPending: "console.members.mobile.pending",
		mobile.StatusVerified: "console.members.mobile.verified",
	}
)

func (p *Part) label(c fiber.Ctx, ids map[string]string, code string) string {
	id, ok := ids[code]
	if !ok {
		return code
	}
	return p.m.T(c, id, nil)
}

func (p *Part) status(c fiber.Ctx, s string) string { return p.label(c, statusIDs, s) }

// GET /console/panels/:panel/members?q=&page=
func (p *Part) searchPage(c fiber.Ctx, a console.PanelAccess) error {
	q, page := strings.TrimSpace(c.Query("q")), pageOf(c)
	if r := []rune(q); len(r) > maxQuery {
		q = string(r[:maxQuery]) // a page shows what it searched; the API refuses instead
	}
	props := memberviews.SearchProps{Shell: p.m.Shell(c), PanelKey: a.Panel.Key, PanelName: a.Panel.Name, Query: q, Page: page}
	if !plainText(q) {
		props.Query, props.Error = "", p.m.T(c, "error.bad_characters", nil)
		return p.m.Render(c, fiber.StatusUnprocessableEntity, memberviews.Search(props))
	}
	rows, more, balances, err := p.search(c, a, q, page, searchPageSize)
	if err != nil {
		return err
	}
	base := "/console/panels/" + a.Panel.Key + "/members"
	for _, r := range rows {
		props.Rows = append(props.Rows, memberviews.MemberRow{
			Href: base + "/" + url.PathEscape(r.ParticipantID), Email: r.Email, Username: r.Username, Status: p.status(c, r.Status),
			Joined: at(r.JoinedAt), Balance: balances[r.ParticipantID],
		})
	}
	link := func(n int) string {
		v := url.Values{"page": {strconv.Itoa(n)}}
		if q != "" {
			v.Set("q", q)
		}
		return base + "?" + v.Encode()
	}
	if page > 1 {
		props.PrevURL = link(page - 1)
	}
	if more {
		props.NextURL = link(page + 1)
	}
	return p.m.Render(c, fiber.StatusOK, memberviews.Search(props))
}

// search is a page of the panel's members with their balances formatted.
func (p *Part) search(c fiber.Ctx, a console.PanelAccess, q string, page, size int) ([]accounts.MemberSummary, bool, map[string]string, error) {
	switch {
	case !plainText(q):
		return nil, false, nil, web.Invalid("q", "error.bad_characters", nil)
	case len([]rune(q)) > maxQuery:
		return nil, false, nil, web.Invalid("q", "console.members.error.query_long", nil)
	}
	rows, more, err := p.d.Accounts.FindMembers(c.Context(), a.Panel.ID, q, page, size)
	if err != nil {
		return nil, false, nil, err
	}
	panel, err := p.panel(c, a)
	if err != nil {
		return nil, false, nil, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ParticipantID
	}
	minor, err := p.d.Ledger.MemberBalances(c.Context(), a.Panel.ID, ids)
	if err != nil {
		return nil, false, nil, err
	}
	out := make(map[string]string, len(rows))
	for _, id := range ids {
		out[id] = web.MoneyString(minor[id], panel.CurrencyCode)
	}
	return rows, more, out, nil
}

// view is everything the member page and the API show of a member.
type view struct {
	panel          *web.Panel
	profile        *accounts.MemberProfile
	participations []run
	balance        wallet.Balance
	entries        []wallet.Entry
	redemptions    []redemptions.MemberRedemptionSummary
	mobile         mobile.MemberMobile
	referrals      referralsView
	sessions       []accounts.MemberSession
}

// run is one participation with its campaign's name.
type run struct {
	CampaignID string
	Name       string
	Status     string
	SeenAt     *time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

type referralsView struct {
	Sent, Accepted, Pending int
	Invited                 bool
}

// load reads a panel's member from every module; a member the panel does not have is a 404.
func (p *Part) load(c fiber.Ctx, a console.PanelAccess, pid string) (*view, error) {
	ctx := c.Context()
	prof, err := p.d.Accounts.MemberProfile(ctx, a.Panel.ID, pid)
	if err != nil {
		return nil, notFound(err)
	}
	v := &view{profile: prof}
	if v.panel, err = p.panel(c, a); err != nil {
		return nil, err
	}
	runs, err := p.d.Participations.MemberParticipations(ctx, a.Panel.ID, pid, listed)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = r.CampaignID
	}
	listings, err := p.d.Campaigns.Listings(ctx, v.panel, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		name := r.CampaignID
		if l, ok := listings[r.CampaignID]; ok {
			name = l.Names.In(v.panel.DefaultLanguage, l.DefaultLanguage)
		}
		v.participations = append(v.participations, run{CampaignID: r.CampaignID, Name: name, Status: r.Status, SeenAt: r.SeenAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt})
	}
	if v.balance, err = p.d.Ledger.Balance(ctx, v.panel, pid); err != nil {
		return nil, err
	}
	if v.entries, _, err = p.d.Ledger.Transactions(ctx, pid, wallet.Query{Filter: wallet.FilterMostRecent, PageSize: recentEntries}); err != nil {
		return nil, err
	}
	if v.redemptions, err = p.d.Redemptions.MemberRedemptionSummaries(ctx, a.Panel.ID, pid, listed); err != nil {
		return nil, err
	}
	if v.mobile, err = p.d.Mobile.MemberMobile(ctx, v.panel, pid); err != nil {
		return nil, err
	}
	refs, err := p.d.Referrals.MemberReferrals(ctx, v.panel, pid)
	if err != nil {
		return nil, err
	}
	v.referrals = referralsView{Sent: refs.Sent, Accepted: refs.Accepted, Pending: refs.Pending, Invited: refs.Invited}
	if v.sessions, err = p.d.Accounts.MemberSessions(ctx, a.Panel.ID, pid); err != nil {
		return nil, notFound(err)
	}
	return v, nil
}

func (p *Part) yesNo(c fiber.Ctx, b bool) string {
	if b {
		return p.m.T(c, "console.members.yes", nil)
	}
	return p.m.T(c, "console.members.no", nil)
}

// props is the member page for a view, with the forms the operator's roles there allow.
func (p *Part) props(c fiber.Ctx, a console.PanelAccess, v *view) memberviews.MemberProps {
	prof := v.profile
	props := memberviews.MemberProps{
		Shell: p.m.Shell(c), PanelKey: a.Panel.Key, PanelName: a.Panel.Name, ID: prof.ParticipantID, Email: prof.Email,
		CanSuspend: a.Can(console.ActionSuspendMembers), CanEndSessions: a.Can(console.ActionEndSessions),
		CanResend: a.Can(console.ActionResendMail), CanClose: a.Can(console.ActionCloseMembers),
		Suspended: prof.Status == accounts.StatusSuspended, Closed: prof.Status == accounts.StatusClosed,
		Validated: prof.EmailValidatedAt != nil,
		Balance:   money(v.balance.Minor, v.balance.Currency),
	}
	validated := p.yesNo(c, false)
	if prof.EmailValidatedAt != nil {
		validated = p.m.T(c, "console.members.validated_at", map[string]any{"When": when(prof.EmailValidatedAt)})
	}
	name := strings.TrimSpace(prof.FirstName + " " + prof.LastName)
	props.Profile = []memberviews.Pair{
		{Label: p.m.T(c, "console.members.field.uuid", nil), Value: prof.ParticipantID},
		{Label: p.m.T(c, "console.members.field.name", nil), Value: dash(name)},
		{Label: p.m.T(c, "console.members.col.email", nil), Value: prof.Email},
		{Label: p.m.T(c, "console.members.field.validated", nil), Value: validated},
		{Label: p.m.T(c, "console.members.col.username", nil), Value: dash(prof.Username)},
		{Label: p.m.T(c, "console.members.field.language", nil), Value: dash(prof.LanguageCode)},
		{Label: p.m.T(c, "console.members.col.status", nil), Value: p.status(c, prof.Status)},
		{Label: p.m.T(c, "console.members.col.joined", nil), Value: at(prof.JoinedAt)},
		{Label: p.m.T(c, "console.members.field.last_login", nil), Value: when(prof.LastLoginAt)},
	}
	for _, r := range v.participations {
		props.Participations = append(props.Participations, memberviews.ParticipationRow{
			Campaign: r.Name, Status: p.label(c, runIDs, r.Status),
			Seen: when(r.SeenAt), Started: when(r.StartedAt), Finished: when(r.FinishedAt),
		})
	}
	for _, e := range v.entries {
		props.Entries = append(props.Entries, memberviews.EntryRow{
			When: at(e.CreatedAt), Title: dash(entryTitle(e)), Origin: p.label(c, originIDs, string(e.Origin)),
			Amount: money(e.AmountMinor, e.CurrencyCode), Balance: money(e.BalanceAfter, e.CurrencyCode),
		})
	}
	for _, r := range v.redemptions {
		props.Redemptions = append(props.Redemptions, memberviews.RedemptionRow{
			When: at(r.CreatedAt), Option: r.OptionID, Status: p.label(c, redemptionIDs, string(r.Status)),
			Amount: money(r.AmountMinor, r.CurrencyCode), Net: money(r.NetMinor, r.CurrencyCode),
		})
	}
	props.Mobile = []memberviews.Pair{
		{Label: p.m.T(c, "console.members.field.mobile_status", nil), Value: p.label(c, mobileIDs, v.mobile.Status)},
		{Label: p.m.T(c, "console.members.field.mobile_number", nil), Value: dash(v.mobile.MaskedNumber)},
		{Label: p.m.T(c, "console.members.field.verified_at", nil), Value: when(v.mobile.VerifiedAt)},
	}
	props.Referrals = []memberviews.Pair{
		{Label: p.m.T(c, "console.members.field.invites_sent", nil), Value: strconv.Itoa(v.referrals.Sent)},
		{Label: p.m.T(c, "console.members.field.invites_accepted", nil), Value: strconv.Itoa(v.referrals.Accepted)},
		{Label: p.m.T(c, "console.members.field.invites_pending", nil), Value: strconv.Itoa(v.referrals.Pending)},
		{Label: p.m.T(c, "console.members.field.invited", nil), Value: p.yesNo(c, v.referrals.Invited)},
	}
	for _, s := range v.sessions {
		props.Sessions = append(props.Sessions, memberviews.SessionRow{
			Created: at(s.CreatedAt), LastSeen: at(s.LastSeenAt), Expires: at(s.ExpiresAt), Device: s.Device, Network: s.Network, App: s.AppName,
		})
	}
	return props
}

// entryTitle is an entry's title, or its reason when it has none (a manual entry).
func entryTitle(e wallet.Entry) string {
	if e.Title != "" {
		return e.Title
	}
	return e.Reason
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// doneNotices are the notices a redirect after an action may name (?done=): ids, never text.
var doneNotices = map[string]string{
	"suspended": "console.members.done.suspended", "already_suspended": "console.members.done.already_suspended",
	"unsuspended": "console.members.done.unsuspended", "already_active": "console.members.done.already_active",
	"sessions_ended": "console.members.done.sessions_ended", "no_sessions": "console.members.done.no_sessions",
	"mail_sent": "console.members.done.mail_sent", "already_validated": "console.members.done.already_validated",
	"closed": "console.members.done.closed", "already_closed": "console.members.done.already_closed",
}

// GET /console/panels/:panel/members/:id
func (p *Part) memberPage(c fiber.Ctx, a console.PanelAccess) error {
	v, err := p.load(c, a, c.Params("id"))
	if err != nil {
		return err
	}
	props := p.props(c, a, v)
	if id, ok := doneNotices[c.Query("done")]; ok {
		n, _ := strconv.ParseInt(c.Query("n"), 10, 64)
		props.Notice = p.m.T(c, id, map[string]any{"Count": n})
	}
	return p.m.Render(c, fiber.StatusOK, memberviews.Member(props))
}

// pageAction runs an action from the member page's form: back to the page with what happened
// (303), or the page again with the form's refusal (422).
func (p *Part) pageAction(act action) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		pid := c.Params("id")
		in := input{Reason: c.FormValue("reason"), ConfirmEmail: c.FormValue("confirm_email")}
		out, err := p.do(c, a, act, pid, in)
		var why refusals
		if errors.As(err, &why) {
			return p.refused(c, a, act, pid, in, why)
		}
		if errors.Is(err, errClosed) {
			out.notice = "console.members.done.already_closed" // closed meanwhile: the page says so
		} else if err != nil {
			return pageError(err)
		}
		q := url.Values{"done": {doneCode(out.notice)}}
		if out.SessionsEnded > 0 {
			q.Set("n", strconv.FormatInt(out.SessionsEnded, 10))
		}
		return p.m.Redirect(c, "/console/panels/"+a.Panel.Key+"/members/"+url.PathEscape(pid)+"?"+q.Encode())
	}
}

// pageError turns the modules' API errors into the console's pages' (their error page knows
// 403, 404 and 429).
func pageError(err error) error {
	var we *web.Error
	if errors.As(err, &we) {
		switch we.Status {
		case fiber.StatusNotFound, fiber.StatusForbidden, fiber.StatusTooManyRequests:
			return fiber.NewError(we.Status, we.Error())
		}
	}
	return err
}

func doneCode(notice string) string {
	for code, id := range doneNotices {
		if id == notice {
			return code
		}
	}
	return ""
}

// refused shows the member page again with the refused form's messages and values.
func (p *Part) refused(c fiber.Ctx, a console.PanelAccess, act action, pid string, in input, why refusals) error {
	v, err := p.load(c, a, pid)
	if err != nil {
		return err
	}
	props := p.props(c, a, v)
	f := memberviews.Form{Reason: in.Reason, ConfirmEmail: in.ConfirmEmail, Error: p.m.T(c, "console.members.error.refused", nil)}
	for _, r := range why {
		msg := p.m.T(c, r.id, r.data)
		switch r.field {
		case "reason":
			f.ReasonError = msg
		case "confirm_email":
			f.ConfirmError = msg
		}
	}
	if act == actClose {
		props.Close = f
	} else {
		props.Suspend = f
	}
	return p.m.Render(c, fiber.StatusUnprocessableEntity, memberviews.Member(props))
}
