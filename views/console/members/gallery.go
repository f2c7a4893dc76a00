package memberviews

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
	consoleviews "github.com/canvass/canvass/views/console"
)

// Gallery lists the members part's states for the development gallery: the search (no
// query, results, a second page, nothing found, a refused search) and a member's page (every
// action an owner has, a support operator's, suspended, erased, and each refused form)
// (modules/console/members).
func Gallery() []views.GalleryState {
	state := func(name, path string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Page: galleryConsolePage, View: view}
	}
	const base = "/console/panels/demo/members"
	member := base + "/" + galleryMemberID(1)
	return []views.GalleryState{
		state("search-no-query", base, func(ctx context.Context, f views.Fixture) templ.Component {
			return Search(gallerySearch(ctx, f, "", 1, 25, true))
		}),
		state("search-results", base, func(ctx context.Context, f views.Fixture) templ.Component {
			return Search(gallerySearch(ctx, f, "alex", 1, 4, false))
		}),
		state("search-second-page", base, func(ctx context.Context, f views.Fixture) templ.Component {
			return Search(gallerySearch(ctx, f, "", 2, 25, true))
		}),
		state("search-no-results", base, func(ctx context.Context, f views.Fixture) templ.Component {
			return Search(gallerySearch(ctx, f, "nobody-by-this-name@nowhere.example.org", 1, 0, false))
		}),
		state("search-refused", base, func(ctx context.Context, f views.Fixture) templ.Component {
			p := gallerySearch(ctx, f, "", 1, 0, false)
			p.Error = views.T(ctx, "error.bad_characters")
			return Search(p)
		}),
		state("member-owner", member, func(ctx context.Context, f views.Fixture) templ.Component {
			return Member(galleryMember(ctx, f, galleryOwner, "active"))
		}),
		state("member-support", member, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryMember(ctx, f, gallerySupport, "active")
			p.Notice = views.T(ctx, "console.members.done.mail_sent")
			return Member(p)
		}),
		state("member-new", member, func(ctx context.Context, f views.Fixture) templ.Component {
			return Member(galleryMember(ctx, f, galleryOwner, "new"))
		}),
		state("member-suspended", member, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryMember(ctx, f, galleryOwner, "suspended")
			p.Notice = views.Tf(ctx, "console.members.done.suspended", map[string]any{"Count": 3})
			return Member(p)
		}),
		state("member-erased", base+"/"+galleryMemberID(2), func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryMember(ctx, f, galleryOwner, "closed")
			p.Notice = views.T(ctx, "console.members.done.closed")
			return Member(p)
		}),
		state("member-suspend-refused", member, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryMember(ctx, f, galleryOwner, "active")
			p.Suspend = Form{Error: views.T(ctx, "console.members.error.refused"), ReasonError: views.T(ctx, "console.members.error.reason_required")}
			return Member(p)
		}),
		state("member-close-refused", member, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryMember(ctx, f, galleryOwner, "active")
			p.Close = Form{
				Error: views.T(ctx, "console.members.error.refused"), ConfirmEmail: "alexandra.konstantinopoulou@example-company.com",
				ConfirmError: views.T(ctx, "console.members.error.confirm_email"), Reason: galleryLongReason,
				ReasonError: views.Tf(ctx, "console.members.error.reason_long", map[string]any{"Max": 500}),
			}
			return Member(p)
		}),
	}
}

// galleryConsolePage is the page as the console's handlers make it: the console's own name,
// no panel languages.
func galleryConsolePage(p *views.Page) {
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
}

const (
	galleryOperator    = "alexandra.konstantinopoulou@example-company.co.uk"
	galleryMemberEmail = "alexandra.konstantinopoulou@example-company.co.uk"
	galleryLongReason  = "The member asked by phone on 2 November to close the account after a dispute about a redemption; ticket 48213 in the support desk has the whole conversation and the manager's approval."
)

func galleryMemberID(n int) string {
	return fmt.Sprintf("0192f3a4-5e6f-7a8b-9c0d-%012x", 0x1e2f3a4b5c00+n)
}

// galleryMoney is an amount as the console shows it: "12.50 USD"; bare leaves the code out
// (the search's balances).
func galleryMoney(f views.Fixture, minor int64, bare bool) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	s := fmt.Sprintf("%s%d.%02d", sign, minor/100, minor%100)
	if bare {
		return s
	}
	return s + " " + f.Currency
}

// galleryWhen is a time as the console shows it (UTC).
func galleryWhen(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// galleryPeople are members as the search finds them: long addresses, no username, every status.
var galleryPeople = []struct{ email, username, status string }{
	{galleryMemberEmail, "alexandra_k", "active"},
	{"jamie@example.com", "", "active"},
	{"maximilian.vandersteen-oyelaran@research-partners.example.org", "max-the-panelist-from-rotterdam-zuid", "suspended"},
	{"closed-0192f3a4-5e6f-7a8b-9c0d-1e2f3a4b5c02@closed.invalid", "", "closed"},
	{"li.wei@example.cn", "李伟", "active"},
	{"o.petrova@example.ru", "olga_p", "active"},
	{"sam@ex.io", "sam", "active"},
}

func gallerySearch(ctx context.Context, f views.Fixture, q string, page, n int, more bool) SearchProps {
	const base = "/console/panels/demo/members"
	p := SearchProps{Shell: consoleviews.Shell{Email: galleryOperator}, PanelKey: "demo", PanelName: "Canvass Demo", Query: q, Page: page}
	for i := range n {
		m := galleryPeople[i%len(galleryPeople)]
		email := m.email
		if i >= len(galleryPeople) && m.status != "closed" {
			email = strconv.Itoa(i) + "." + email
		}
		id := galleryMemberID(i + 1 + (page-1)*25)
		p.Rows = append(p.Rows, MemberRow{
			Href: base + "/" + url.PathEscape(id), Email: email, Username: m.username, Status: views.T(ctx, "console.members.status."+m.status),
			Joined: galleryWhen(f.Now.Add(-time.Duration(i*31+page*800) * time.Hour)), Balance: galleryMoney(f, int64((i*1377)%250000), true),
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
		p.PrevURL = link(page - 1)
	}
	if more {
		p.NextURL = link(page + 1)
	}
	return p
}

// The operators a member's page is shown to: an owner may do everything, support all but close.
const (
	galleryOwner   = "owner"
	gallerySupport = "support"
)

// galleryMember is a member's page as consolemembers.props fills it: status is active,
// suspended, closed (the account erased) or new (nothing done yet, email not validated).
func galleryMember(ctx context.Context, f views.Fixture, role, status string) MemberProps {
	id := galleryMemberID(1)
	email, name, username, lang := galleryMemberEmail, "Alexandra Konstantinopoulou-Whitfield", "alexandra_k", "en"
	var validatedAt, lastLogin *time.Time
	v := f.Now.AddDate(0, -7, -3)
	l := f.Now.Add(-26 * time.Minute)
	validatedAt, lastLogin = &v, &l
	joined := f.Now.AddDate(0, -7, -4)
	if status == "closed" {
		id = galleryMemberID(2)
		email, name, username, lang = "closed-"+galleryMemberID(9)+"@closed.invalid", "", "", ""
		validatedAt = nil
	}
	if status == "new" {
		validatedAt, lastLogin = nil, nil
		joined = f.Now.Add(-40 * time.Minute)
	}
	dash := func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	}
	when := func(t *time.Time) string {
		if t == nil {
			return "—"
		}
		return galleryWhen(*t)
	}
	p := MemberProps{
		Shell: consoleviews.Shell{Email: galleryOperator}, PanelKey: "demo", PanelName: "Canvass Demo", ID: id, Email: email,
		CanSuspend: true, CanEndSessions: true, CanResend: true, CanClose: role == galleryOwner,
		Suspended: status == "suspended", Closed: status == "closed", Validated: validatedAt != nil,
	}
	accountStatus := status // a new member is an active one
	if status == "new" {
		accountStatus = "active"
	}
	validated := views.T(ctx, "console.members.no")
	if validatedAt != nil {
		validated = views.Tf(ctx, "console.members.validated_at", map[string]any{"When": when(validatedAt)})
	}
	p.Profile = []Pair{
		{Label: views.T(ctx, "console.members.field.uuid"), Value: id},
		{Label: views.T(ctx, "console.members.field.name"), Value: dash(name)},
		{Label: views.T(ctx, "console.members.col.email"), Value: email},
		{Label: views.T(ctx, "console.members.field.validated"), Value: validated},
		{Label: views.T(ctx, "console.members.col.username"), Value: dash(username)},
		{Label: views.T(ctx, "console.members.field.language"), Value: dash(lang)},
		{Label: views.T(ctx, "console.members.col.status"), Value: views.T(ctx, "console.members.status."+accountStatus)},
		{Label: views.T(ctx, "console.members.col.joined"), Value: galleryWhen(joined)},
		{Label: views.T(ctx, "console.members.field.last_login"), Value: when(lastLogin)},
	}
	balance := int64(2735)
	if status == "new" || status == "closed" {
		balance = 0
	}
	p.Balance = galleryMoney(f, balance, false)
	mobile := []string{"verified", "+44 ••• ••• 4821", galleryWhen(f.Now.AddDate(0, -6, 0))}
	refs := []string{"12", "5", "4", views.T(ctx, "console.members.yes")}
	if status != "new" {
		runs := []struct{ name, status string }{
			{"Streaming, television and the evenings of households with more than one screen — wave 3 (United Kingdom and Ireland)", "completed"},
			{"Quick poll", "screened"}, {"Tea or coffee?", "started"}, {"Summer travel draw", "completed"},
			{"Your commute", "quota_full"}, {"Grocery prices and the weekly shop", "disqualified"}, {"Welcome survey", "completed"},
			{"0192f3a4-9c2d-7e1f-a034-5e6f7a8b9c77", "expired"},
		}
		for i, r := range runs {
			seen := f.Now.Add(-time.Duration(i*53+2) * time.Hour)
			started, finished := seen.Add(4*time.Minute), seen.Add(16*time.Minute)
			row := ParticipationRow{Campaign: r.name, Status: views.T(ctx, "console.members.run."+r.status), Seen: galleryWhen(seen), Started: galleryWhen(started), Finished: galleryWhen(finished)}
			if r.status == "started" {
				row.Finished = "—"
			}
			if r.status == "expired" {
				row.Started, row.Finished = "—", "—"
			}
			p.Participations = append(p.Participations, row)
		}
		after := int64(2735)
		entries := []struct {
			title, origin string
			amount        int64
		}{
			{"Streaming, television and the evenings of households with more than one screen — wave 3", "campaign", 125},
			{"Redemption: PayPal", "redeem", -1000},
			{"Goodwill credit after the survey failed to load twice on 28 October (ticket 48107)", "manual", 250},
			{"Install the Acme Budget Planner app and reach level 5", "offer", 1840},
			{"Summer travel draw", "campaign", 75},
			{"Welcome survey", "campaign", 50},
		}
		for i, e := range entries {
			p.Entries = append(p.Entries, EntryRow{When: galleryWhen(f.Now.Add(-time.Duration(i*61+5) * time.Hour)), Title: e.title,
				Origin: views.T(ctx, "console.members.origin."+e.origin), Amount: galleryMoney(f, e.amount, false), Balance: galleryMoney(f, after, false)})
			after -= e.amount
		}
		if status == "closed" {
			p.Entries = append([]EntryRow{{When: galleryWhen(f.Now.Add(-time.Minute)), Title: "Account closed by an operator: balance forfeited",
				Origin: views.T(ctx, "console.members.origin.manual"), Amount: galleryMoney(f, -2735, false), Balance: galleryMoney(f, 0, false)}}, p.Entries...)
		}
		for i, r := range []struct {
			option, status string
			amount, fee    int64
		}{{"paypal", "paid", 1000, 0}, {"amazon-voucher-uk", "pending", 2500, 0}, {"bank", "rejected", 5000, 150}} {
			p.Redemptions = append(p.Redemptions, RedemptionRow{When: galleryWhen(f.Now.AddDate(0, 0, -(i*12 + 3))), Option: r.option,
				Status: views.T(ctx, "console.members.redemption."+r.status), Amount: galleryMoney(f, r.amount, false), Net: galleryMoney(f, r.amount-r.fee, false)})
		}
	}
	switch status {
	case "new":
		mobile = []string{"not_verified", "—", "—"}
		refs = []string{"0", "0", "0", views.T(ctx, "console.members.no")}
	case "closed":
		mobile = []string{"not_verified", "—", "—"}
		refs = []string{"12", "5", "0", views.T(ctx, "console.members.yes")}
	}
	p.Mobile = []Pair{
		{Label: views.T(ctx, "console.members.field.mobile_status"), Value: views.T(ctx, "console.members.mobile."+mobile[0])},
		{Label: views.T(ctx, "console.members.field.mobile_number"), Value: mobile[1]},
		{Label: views.T(ctx, "console.members.field.verified_at"), Value: mobile[2]},
	}
	p.Referrals = []Pair{
		{Label: views.T(ctx, "console.members.field.invites_sent"), Value: refs[0]},
		{Label: views.T(ctx, "console.members.field.invites_accepted"), Value: refs[1]},
		{Label: views.T(ctx, "console.members.field.invites_pending"), Value: refs[2]},
		{Label: views.T(ctx, "console.members.field.invited"), Value: refs[3]},
	}
	if status == "active" || status == "new" {
		for i, s := range []struct{ device, network, app string }{
			{"Safari 18 on iPhone (iOS 18.1)", "81.2.69.0/24 · London, GB", "Canvass Demo for iOS 4.12.0 (build 20261028.3)"},
			{"Chrome 130 on Windows 11", "2a02:c7c:5d41::/48", ""},
			{"", "", ""},
		} {
			created := f.Now.Add(-time.Duration(i*70+1) * time.Hour)
			p.Sessions = append(p.Sessions, SessionRow{Created: galleryWhen(created), LastSeen: galleryWhen(created.Add(time.Duration(30-i*10) * time.Minute)),
				Expires: galleryWhen(created.AddDate(0, 0, 30)), Device: s.device, Network: s.network, App: s.app})
		}
		if status == "new" {
			p.Sessions = p.Sessions[:1]
		}
	}
	return p
}
