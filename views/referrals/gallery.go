package referrals

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the referrals pages' and mails' states for the development gallery: the
// invitation page from no invitation to many in each state, a member who may not invite yet,
// each refusal of the invitation form, a partner's code page for a visitor and for a member in
// each of their situations, and the invitation and thank-you mails.
func Gallery() []views.GalleryState {
	state := func(name string, props func(ctx context.Context, f views.Fixture) PageProps) views.GalleryState {
		return views.GalleryView(name, "/referrals", views.GalleryMember, Page, props)
	}
	// refused is the page with the invitation form sent back.
	refused := func(name, email, message string, errs func(ctx context.Context) (map[string]string, string)) views.GalleryState {
		return state(name, func(ctx context.Context, f views.Fixture) PageProps {
			p := galleryPage(ctx, f, 2, 1, 1)
			p.Form.Values = map[string]string{"email": email, "message": message}
			p.Form.Errors, p.Form.FormError = errs(ctx)
			return p
		})
	}
	affiliate := func(name string, who string, props func(ctx context.Context, f views.Fixture) AffiliateProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/affiliates/" + galleryAffiliateCode, Who: who,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Affiliate(props(ctx, f)) },
		}
	}
	mail := func(name string, props func(ctx context.Context, f views.Fixture) MailProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/referrals", Who: views.GalleryMail,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Mail(props(ctx, f)) },
		}
	}
	longMessage := "Hi Sam! I've been doing these surveys on the train for a few months now and it paid for my last two concert tickets. Use my invitation and we both get something."
	return []views.GalleryState{
		state("empty", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, 0, 0, 0)
		}),
		state("one-pending", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, 1, 0, 0)
		}),
		state("many", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, 6, 8, 5)
		}),
		state("reward-on-join", func(ctx context.Context, f views.Fixture) PageProps {
			p := galleryPage(ctx, f, 2, 3, 0)
			p.RewardNote = views.Tf(ctx, "referrals.reward_on_join", map[string]any{"Reward": f.Money(500)})
			return p
		}),
		state("no-reward", func(ctx context.Context, f views.Fixture) PageProps {
			p := galleryPage(ctx, f, 2, 3, 1)
			p.RewardNote = ""
			for i := range p.Accepted {
				p.Accepted[i].Reward = ""
			}
			p.Stats.Earned = f.Money(0)
			return p
		}),
		state("not-eligible", func(ctx context.Context, f views.Fixture) PageProps {
			p := galleryPage(ctx, f, 0, 0, 0)
			p.Eligible = false
			p.Missing = []string{views.T(ctx, "referrals.missing_welcome"), views.T(ctx, "referrals.missing_email")}
			return p
		}),
		state("not-eligible-email", func(ctx context.Context, f views.Fixture) PageProps {
			p := galleryPage(ctx, f, 0, 1, 2)
			p.Eligible = false
			p.Missing = []string{views.T(ctx, "referrals.missing_email")}
			return p
		}),
		refused("error-email-required", "", "", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"email": views.T(ctx, "error.required")}, ""
		}),
		refused("error-email-invalid", "alexandra.konstantinopoulou@example-company", longMessage, func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"email": views.T(ctx, "error.invalid_email")}, ""
		}),
		refused("error-self", "member@demo.test", "", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"email": views.T(ctx, "error.referral_self")}, ""
		}),
		refused("error-message-too-long", "sam.okonkwo@example.com", strings.Repeat(longMessage+" ", 4), func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"message": views.Tf(ctx, "error.too_long", map[string]any{"Max": 500})}, ""
		}),
		refused("error-already-member", "jamie.rivera@example.com", "", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{}, views.T(ctx, "error.referral_member")
		}),
		refused("error-already-invited", "alexandra.konstantinopoulou@example-company.co.uk", "", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{}, views.T(ctx, "error.referral_already_invited")
		}),
		refused("error-daily-limit", "sam.okonkwo@example.com", longMessage, func(ctx context.Context) (map[string]string, string) {
			return map[string]string{}, views.Tf(ctx, "error.referral_daily_limit", map[string]any{"Max": galleryDailyLimit})
		}),
		refused("error-not-eligible", "sam.okonkwo@example.com", "", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{}, views.T(ctx, "error.referral_not_eligible")
		}),
		{
			Name: "sent", Path: "/referrals", Who: views.GalleryMember,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "success", Message: p.Translate("flash.referral_sent", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Page(galleryPage(ctx, f, 3, 1, 0)) },
		},
		{
			Name: "resend-too-soon", Path: "/referrals", Who: views.GalleryMember,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "error", Message: p.Translate("error.referral_resend_too_soon", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Page(galleryPage(ctx, f, 3, 1, 0)) },
		},
		affiliate("affiliate-visitor", views.GalleryVisitor, func(ctx context.Context, f views.Fixture) AffiliateProps {
			return galleryAffiliate(f, "Summer Festival Partners", 500, false)
		}),
		affiliate("affiliate-visitor-no-bonus", views.GalleryVisitor, func(ctx context.Context, f views.Fixture) AffiliateProps {
			return galleryAffiliate(f, "The Greater Northern Community Radio and Television Cooperative", 0, false)
		}),
		affiliate("affiliate-member", views.GalleryMember, func(ctx context.Context, f views.Fixture) AffiliateProps {
			return galleryAffiliate(f, "Summer Festival Partners", 500, true)
		}),
		affiliate("affiliate-member-accepted", views.GalleryMember, func(ctx context.Context, f views.Fixture) AffiliateProps {
			p := galleryAffiliate(f, "Summer Festival Partners", 500, true)
			p.Accepted = true
			return p
		}),
		affiliate("affiliate-member-elsewhere", views.GalleryMember, func(ctx context.Context, f views.Fixture) AffiliateProps {
			p := galleryAffiliate(f, "Summer Festival Partners", 500, true)
			p.Elsewhere = true
			return p
		}),
		mail("mail-invite", func(ctx context.Context, f views.Fixture) MailProps {
			return galleryInviteMail(ctx, f, "Alex", longMessage)
		}),
		mail("mail-invite-anonymous", func(ctx context.Context, f views.Fixture) MailProps {
			return galleryInviteMail(ctx, f, "", "")
		}),
		mail("mail-thanks", func(ctx context.Context, f views.Fixture) MailProps {
			return galleryThanksMail(ctx, f, "Alex", "Jamie")
		}),
		mail("mail-thanks-anonymous", func(ctx context.Context, f views.Fixture) MailProps {
			return galleryThanksMail(ctx, f, "", "")
		}),
	}
}

const (
	galleryExpiryDays    = 30
	galleryDailyLimit    = 10
	galleryReward        = 200
	galleryAffiliateCode = "SUMMERFEST"
)

// galleryFriends are the addresses a member invites, with the first name of those who joined.
var galleryFriends = []struct{ email, name, message string }{
	{"sam.okonkwo@example.com", "Sam", "Thought you'd like this one!"},
	{"alexandra.konstantinopoulou@example-company.co.uk", "Alexandra", ""},
	{"jamie@example.org", "", "Here's the survey app I told you about at lunch. It's quick, and the rewards arrive within a week."},
	{"", "", ""}, // the friend's address was erased (they closed their account)
	{"li.wei@example.cn", "Wei", ""},
	{"maria.garcia.lopez@correo.example.es", "María", "¡Pruébalo!"},
	{"o.brien@example.ie", "", ""},
	{"t@example.io", "Tomás", ""},
}

// galleryPage is the referrals page of an eligible member with pending, accepted and archived
// invitations, as the referrals module words them.
func galleryPage(ctx context.Context, f views.Fixture, pending, accepted, archived int) PageProps {
	p := PageProps{
		Eligible: true, ExpiryDays: galleryExpiryDays, DailyLimit: galleryDailyLimit,
		RewardNote: views.Tf(ctx, "referrals.reward_on_welcome", map[string]any{"Reward": f.Money(galleryReward)}),
	}
	date := func(t time.Time) string { return f.Date(t, false) }
	row := func(i int, state string) Row {
		fr := galleryFriends[i%len(galleryFriends)]
		sent := f.Now.AddDate(0, 0, -3-7*i)
		r := Row{ID: fmt.Sprintf("00000000-0000-4000-c000-%012d", i+1), Email: fr.email, Status: state, Sent: date(sent),
			SentISO: sent.UTC().Format(time.RFC3339), Message: fr.message, Pending: state == "pending", ReturnTo: "/referrals"}
		if r.Email == "" {
			r.Email = views.T(ctx, "referrals.erased")
		}
		switch state {
		case "pending":
			r.Detail = views.Tf(ctx, "referrals.detail_pending", map[string]any{"Sent": date(sent), "Expires": date(sent.AddDate(0, 0, galleryExpiryDays))})
		case "accepted":
			r.Friend = fr.name
			r.Detail = views.Tf(ctx, "referrals.detail_accepted", map[string]any{"Date": date(sent.AddDate(0, 0, 2))})
			if i%3 != 2 { // not rewarded yet: the friend's welcome survey is still to do
				r.Reward = f.Money(galleryReward)
			}
		default:
			if i%2 == 0 {
				r.Detail = views.Tf(ctx, "referrals.detail_expired", map[string]any{"Date": date(sent.AddDate(0, 0, galleryExpiryDays))})
			} else {
				r.Detail = views.Tf(ctx, "referrals.detail_archived", map[string]any{"Date": date(sent.AddDate(0, 0, 5))})
			}
		}
		return r
	}
	var earned int64
	for i := range pending {
		p.Pending = append(p.Pending, row(i, "pending"))
	}
	for i := range accepted {
		r := row(pending+i, "accepted")
		if r.Reward != "" {
			earned += galleryReward
		}
		p.Accepted = append(p.Accepted, r)
	}
	for i := range archived {
		p.Archived = append(p.Archived, row(pending+accepted+i, "archived"))
	}
	p.Stats = Stats{Sent: pending + accepted + archived, Accepted: accepted, Pending: pending, Archived: archived, Earned: f.Money(earned)}
	return p
}

// galleryAffiliate is a partner's code page as the referrals module builds it.
func galleryAffiliate(f views.Fixture, partner string, bonus int64, member bool) AffiliateProps {
	p := AffiliateProps{
		Code: galleryAffiliateCode, Partner: partner, Member: member,
		JoinHref:  "/join?affiliate=" + galleryAffiliateCode,
		LoginHref: "/login?redirect=%2Faffiliates%2F" + galleryAffiliateCode,
	}
	if bonus > 0 {
		p.Bonus = f.Money(bonus)
	}
	return p
}

// galleryAppName is the name mails sign with: the panel's app name, else its name.
func galleryAppName(ctx context.Context, f views.Fixture) string {
	if f.AppName != "" {
		return f.AppName
	}
	return views.P(ctx).AppName
}

// galleryMailColors are the panel's button colours, black on white when it has none.
func galleryMailColors(f views.Fixture) (string, string) {
	if f.CTAColor == "" || f.CTAText == "" {
		return "#000000", "#ffffff"
	}
	return f.CTAColor, f.CTAText
}

// galleryInviteMail is the invitation a friend gets, from a named inviter or not.
func galleryInviteMail(ctx context.Context, f views.Fixture, inviter, message string) MailProps {
	app := galleryAppName(ctx, f)
	data := map[string]any{"App": app, "Name": inviter}
	subject, body, footer := "referrals.mail_invite_subject_anonymous", "referrals.mail_invite_body_anonymous", "referrals.mail_invite_footer_anonymous"
	if inviter != "" {
		subject, body, footer = "referrals.mail_invite_subject", "referrals.mail_invite_body", "referrals.mail_invite_footer"
	}
	p := MailProps{
		Lang: f.Lang, AppName: app,
		Title:      views.Tf(ctx, subject, data),
		Body:       views.Tf(ctx, body, data),
		QuoteLabel: views.Tf(ctx, "referrals.mail_quote", data),
		Quote:      message,
		Button:     views.Tf(ctx, "referrals.mail_invite_button", data),
		URL:        "https://" + f.Panel + ".canvass.example/join/invite/00000000-0000-4000-c000-000000000001",
		Fallback:   views.T(ctx, "mail.fallback"),
		Footer:     views.Tf(ctx, footer, data),
	}
	p.CTAColor, p.CTAText = galleryMailColors(f)
	return p
}

// galleryThanksMail is the thank-you a referrer gets from the friend they invited.
func galleryThanksMail(ctx context.Context, f views.Fixture, referrer, friend string) MailProps {
	app := galleryAppName(ctx, f)
	data := map[string]any{"App": app, "Name": referrer, "Friend": friend}
	subject, body := "referrals.mail_thanks_subject_anonymous", "referrals.mail_thanks_body_anonymous"
	if friend != "" {
		subject, body = "referrals.mail_thanks_subject", "referrals.mail_thanks_body"
	}
	greeting := views.Tf(ctx, "mail.greeting_anonymous", data)
	if referrer != "" {
		greeting = views.Tf(ctx, "mail.greeting", data)
	}
	p := MailProps{
		Lang: f.Lang, AppName: app, Greeting: greeting,
		Title:    views.Tf(ctx, subject, data),
		Body:     views.Tf(ctx, body, data),
		Button:   views.Tf(ctx, "referrals.mail_thanks_button", data),
		URL:      "https://" + f.Panel + ".canvass.example/referrals",
		Fallback: views.T(ctx, "mail.fallback"),
		Footer:   views.Tf(ctx, "referrals.mail_thanks_footer", data),
	}
	p.CTAColor, p.CTAText = galleryMailColors(f)
	return p
}
