package referrals

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	feedview "github.com/canvass/canvass/views/feed"
	view "github.com/canvass/canvass/views/referrals"
	"github.com/gofiber/fiber/v3"
)

// GET /referrals: the member's invitations, stats and the invitation form. A member not
// eligible yet is told what they still need to do; a panel with referrals off has no page.
func (m *Module) page(c fiber.Ctx) error {
	return m.render(c, fiber.StatusOK, view.Form{})
}

func (m *Module) render(c fiber.Ctx, status int, form view.Form) error {
	panel, member := web.PanelOf(c), web.MemberOf(c)
	ctx := c.Context()
	ok, st, err := m.svc.CanRefer(ctx, panel, member)
	if err != nil {
		return err
	}
	if !st.Enabled {
		return web.NotFound()
	}
	lang := web.LocaleOf(c)
	p := view.PageProps{Eligible: ok, ExpiryDays: st.ExpiryDays, DailyLimit: st.DailyLimit, Form: form}
	if !ok {
		if st.RequireWelcome && !welcomeDone(member) {
			p.Missing = append(p.Missing, m.kit.T(c, "referrals.missing_welcome", nil))
		}
		if st.RequireValidatedEmail && !member.EmailValidated {
			p.Missing = append(p.Missing, m.kit.T(c, "referrals.missing_email", nil))
		}
	} else {
		m.device(c) // the browser invitations are sent from has its device cookie from the start
	}
	if st.RewardMinor > 0 {
		reward := web.FormatMoney(st.RewardMinor, panel.CurrencyCode, lang)
		if st.RewardWhen == RewardOnJoin {
			p.RewardNote = m.kit.T(c, "referrals.reward_on_join", map[string]any{"Reward": reward})
		} else {
			p.RewardNote = m.kit.T(c, "referrals.reward_on_welcome", map[string]any{"Reward": reward})
		}
	}
	if err := m.svc.Settle(ctx, panel, member.ParticipantID); err != nil {
		return err
	}
	s, err := m.svc.Stats(ctx, panel, member)
	if err != nil {
		return err
	}
	p.Stats = view.Stats{Sent: s.Sent, Accepted: s.Accepted, Pending: s.Pending, Archived: s.Archived, Earned: web.FormatMoney(s.EarnedMinor, s.Currency, lang)}
	for _, list := range []struct {
		state string
		into  *[]view.Row
	}{{StatePending, &p.Pending}, {StateAccepted, &p.Accepted}, {StateArchived, &p.Archived}} {
		invites, err := m.svc.Invites(ctx, panel, member, list.state, "")
		if err != nil {
			return err
		}
		for _, inv := range invites {
			*list.into = append(*list.into, m.row(c, st, inv))
		}
	}
	return m.kit.Render(c, status, view.Page(p))
}

// row words one invitation for the page.
func (m *Module) row(c fiber.Ctx, st Settings, inv Invite) view.Row {
	panel, lang := web.PanelOf(c), web.LocaleOf(c)
	date := func(t time.Time) string { return m.kit.Date(c, t, false) }
	r := view.Row{
		ID: inv.ID, Email: inv.Email, Friend: inv.InviteeName, Status: inv.State, Sent: date(inv.SentAt), SentISO: inv.SentAt.UTC().Format(time.RFC3339),
		Message: inv.Message, Pending: inv.State == StatePending, ReturnTo: PagePath,
	}
	if r.Email == "" {
		r.Email = m.kit.T(c, "referrals.erased", nil)
	}
	switch inv.State {
	case StatePending:
		r.Detail = m.kit.T(c, "referrals.detail_pending", map[string]any{"Sent": date(inv.LastSentAt), "Expires": date(inv.LastSentAt.Add(st.expiry()))})
	case StateAccepted:
		r.Detail = m.kit.T(c, "referrals.detail_accepted", map[string]any{"Date": date(*inv.AcceptedAt)})
		if inv.RewardedAt != nil {
			r.Reward = web.FormatMoney(inv.RewardMinor, panel.CurrencyCode, lang)
		}
	default:
		switch inv.ArchivedReason {
		case ArchivedExpired:
			r.Detail = m.kit.T(c, "referrals.detail_expired", map[string]any{"Date": date(*inv.ArchivedAt)})
		default:
			r.Detail = m.kit.T(c, "referrals.detail_archived", map[string]any{"Date": date(*inv.ArchivedAt)})
		}
	}
	return r
}

// POST /referrals {email, message}: invites a friend; a refusal comes back to the form.
func (m *Module) sendSubmit(c fiber.Ctx) error {
	form := view.Form{Values: map[string]string{"email": c.FormValue("email"), "message": c.FormValue("message")}}
	_, err := m.svc.Send(c.Context(), web.PanelOf(c), m.sender(c), form.Values["email"], form.Values["message"])
	if err == nil {
		m.kit.FlashNext(c, "success", "flash.referral_sent")
		return c.Redirect().Status(fiber.StatusSeeOther).To(PagePath)
	}
	var e *web.Error
	if !errors.As(err, &e) || e.Status >= 500 {
		return err
	}
	tr := m.kit.Tr(c)
	form.Errors = e.FieldErrors(tr)
	if len(form.Errors) == 0 {
		form.FormError = e.ToAPI(tr).Message
	}
	return m.render(c, e.Status, form)
}

// POST /referrals/:id/resend (the page, and the waiting card of the feed).
func (m *Module) resendSubmit(c fiber.Ctx) error {
	_, err := m.svc.Resend(c.Context(), web.PanelOf(c), m.sender(c), c.Params("id"))
	if err != nil {
		return m.refused(c, err, PagePath)
	}
	if web.IsHTMX(c) {
		return m.toastBlades(c, m.kit.T(c, "flash.referral_resent", nil))
	}
	m.kit.FlashNext(c, "success", "flash.referral_resent")
	return c.Redirect().Status(fiber.StatusSeeOther).To(returnTo(c, PagePath))
}

// POST /referrals/:id/archive
func (m *Module) archiveSubmit(c fiber.Ctx) error {
	if err := m.svc.Archive(c.Context(), web.PanelOf(c), web.MemberOf(c), c.Params("id")); err != nil {
		return m.refused(c, err, PagePath)
	}
	m.kit.FlashNext(c, "success", "flash.referral_archived")
	return c.Redirect().Status(fiber.StatusSeeOther).To(PagePath)
}

// POST /blades/:id/dismiss: with htmx the card goes in place; without, back to the feed.
func (m *Module) dismissSubmit(c fiber.Ctx) error {
	if err := m.svc.Dismiss(c.Context(), web.PanelOf(c), web.MemberOf(c), c.Params("id")); err != nil {
		return m.refused(c, err, "/feed")
	}
	if web.IsHTMX(c) {
		return m.toastBlades(c, m.kit.T(c, "flash.blade_dismissed", nil))
	}
	m.kit.FlashNext(c, "success", "flash.blade_dismissed")
	return c.Redirect().Status(fiber.StatusSeeOther).To(returnTo(c, "/feed"))
}

// POST /blades/:id/thank: mails the referrer the member's thank-you.
func (m *Module) thankSubmit(c fiber.Ctx) error {
	name, err := m.svc.ThankReferrer(c.Context(), web.PanelOf(c), web.MemberOf(c), c.Params("id"), m.origin(c))
	if err != nil {
		return m.refused(c, err, "/feed")
	}
	if web.IsHTMX(c) {
		msg := m.kit.T(c, "flash.referral_thanked", nil)
		if name != "" {
			msg = m.kit.T(c, "referrals.thanked_name", map[string]any{"Name": name})
		}
		return m.toastBlades(c, msg)
	}
	m.kit.FlashNext(c, "success", "flash.referral_thanked")
	return c.Redirect().Status(fiber.StatusSeeOther).To(returnTo(c, "/feed"))
}

// refused answers a card or list action the rules refused (409, 410, 429): a toast with
// htmx, else the page it came from with the message. Anything else is the error page's.
func (m *Module) refused(c fiber.Ctx, err error, fallback string) error {
	var e *web.Error
	if !errors.As(err, &e) || e.Status < 409 || e.Status >= 500 {
		return err
	}
	if web.IsHTMX(c) {
		c.Set("HX-Reswap", "none")
		return toast(c, e.ToAPI(m.kit.Tr(c)).Message, "error")
	}
	// The flash cookie carries a message id, never data: each refusal has one of its own.
	switch e.Code() {
	case "already_thanked":
		m.kit.FlashNext(c, "error", "error.referral_already_thanked")
	case "referrer_gone":
		m.kit.FlashNext(c, "error", "error.referral_referrer_gone")
	case "resend_too_soon":
		m.kit.FlashNext(c, "error", "error.referral_resend_too_soon")
	case "daily_limit_reached":
		m.kit.FlashNext(c, "error", "flash.referral_daily_limit")
	default:
		m.kit.FlashNext(c, "error", "error.referral_not_pending")
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(returnTo(c, fallback))
}

func returnTo(c fiber.Ctx, fallback string) string {
	if to := web.LocalPath(c, c.FormValue("return")); to != "" {
		return to
	}
	return fallback
}

// toast answers an htmx request with an empty body and a toast (HX-Trigger, islands/lib/toast.ts).
func toast(c fiber.Ctx, message, kind string) error {
	setToast(c, message, kind)
	return c.Status(fiber.StatusOK).SendString("")
}

// toastBlades answers an htmx post from the feed's notices (their stack is its target) with
// the stack as it now is, so its count stays true and the next notice moves up; any other
// htmx post with the toast alone.
func (m *Module) toastBlades(c fiber.Ctx, message string) error {
	if c.Get("HX-Target") != "blades" {
		return toast(c, message, "success")
	}
	list, err := m.FeedBlades(c)
	if err != nil {
		return fmt.Errorf("notices after an action: %w", err)
	}
	setToast(c, message, "success")
	return m.kit.Render(c, fiber.StatusOK, feedview.Blades(list))
}

func setToast(c fiber.Ctx, message, kind string) {
	trigger, _ := json.Marshal(map[string]any{"toast": map[string]string{"message": message, "type": kind}})
	c.Set("HX-Trigger", string(trigger))
	c.Set(fiber.HeaderCacheControl, "no-store")
}

// GET /affiliates/:code: what a partner's code brings. A visitor may join with it or log in
// to accept it; a member may accept it (once they came through no partner).
func (m *Module) affiliatePage(c fiber.Ctx) error {
	panel, member := web.PanelOf(c), web.MemberOf(c)
	code := c.Params("code")
	var a *AffiliateInvite
	var err error
	if member != nil {
		a, err = m.svc.DescribeAffiliate(c.Context(), panel, member.ParticipantID, code)
	} else {
		var af *Affiliate
		if af, err = m.svc.affiliate(c.Context(), panel, code); err == nil {
			a = &AffiliateInvite{Affiliate: *af}
		}
	}
	if err != nil {
		return err
	}
	p := view.AffiliateProps{
		Code: a.Code, Partner: a.Partner, Member: member != nil, Accepted: a.Accepted, Elsewhere: a.Elsewhere,
		JoinHref:  "/join?" + url.Values{"affiliate": {a.Code}}.Encode(),
		LoginHref: "/login?" + url.Values{"redirect": {"/affiliates/" + a.Code}}.Encode(),
	}
	if a.BonusMinor > 0 {
		p.Bonus = web.FormatMoney(a.BonusMinor, a.CurrencyCode, web.LocaleOf(c))
	}
	return m.kit.Render(c, fiber.StatusOK, view.Affiliate(p))
}

// POST /affiliates/:code/accept
func (m *Module) affiliateAccept(c fiber.Ctx) error {
	a, err := m.svc.AcceptAffiliate(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, c.Params("code"), web.LocaleOf(c))
	var e *web.Error
	switch {
	case errors.As(err, &e) && e.Status == fiber.StatusConflict:
		m.kit.FlashNext(c, "error", "error.affiliate_elsewhere")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/affiliates/" + url.PathEscape(strings.ToUpper(c.Params("code"))))
	case err != nil:
		return err
	}
	m.kit.FlashNext(c, "success", "flash.affiliate_accepted")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/affiliates/" + url.PathEscape(a.Code))
}

// wordedBlade is a card with its texts in the member's language.
type wordedBlade struct {
	Blade
	Title, Text, LinkHref, LinkLabel, ActionLabel string
}

// bladesOf decides the signed-in member's cards from what the session read (else one query).
func (m *Module) bladesOf(c fiber.Ctx) ([]Blade, Settings, error) {
	panel, member := web.PanelOf(c), web.MemberOf(c)
	ctx := c.Context()
	st, err := m.svc.Settings(ctx, panel)
	if err != nil {
		return nil, st, err
	}
	row, ok := c.Locals(bladesKey{}).(*bladeRow)
	if !ok {
		if row, err = m.svc.store.bladeRowOf(ctx, member.ParticipantID); err != nil {
			return nil, st, err
		}
	}
	var cond Conditions
	if m.mobile != nil {
		if cond.MobileStatus, err = m.mobile.Eligibility(c); err != nil {
			return nil, st, err
		}
	}
	if m.addresses != nil {
		cond.HasAddress = func() (bool, error) { return m.addresses.MemberHasAddress(c) }
	}
	list, err := m.svc.blades(st, row, cond, m.svc.now().UTC())
	return list, st, err
}

// worded words the member's cards.
func (m *Module) worded(c fiber.Ctx) ([]wordedBlade, error) {
	list, st, err := m.bladesOf(c)
	if err != nil {
		return nil, err
	}
	panel, lang := web.PanelOf(c), web.LocaleOf(c)
	out := make([]wordedBlade, 0, len(list))
	for _, b := range list {
		w := wordedBlade{Blade: b}
		switch b.Kind {
		case BladeFriendJoined:
			w.Title = m.kit.T(c, "referrals.blade_friend_joined_title_anonymous", nil)
			if b.Name != "" {
				w.Title = m.kit.T(c, "referrals.blade_friend_joined_title", map[string]any{"Name": b.Name})
			}
			switch {
			case b.RewardMinor > 0:
				w.Text = m.kit.T(c, "referrals.blade_friend_joined_earned", map[string]any{"Reward": web.FormatMoney(b.RewardMinor, panel.CurrencyCode, lang)})
			case st.RewardMinor > 0 && st.RewardWhen == RewardOnWelcome:
				w.Text = m.kit.T(c, "referrals.blade_friend_joined_pending", map[string]any{"Reward": web.FormatMoney(st.RewardMinor, panel.CurrencyCode, lang)})
			default:
				w.Text = m.kit.T(c, "referrals.blade_friend_joined_text", nil)
			}
			w.LinkHref, w.LinkLabel = PagePath, m.kit.T(c, "referrals.blade_see_invites", nil)
		case BladeThankReferrer:
			w.Title = m.kit.T(c, "referrals.blade_thank_title_anonymous", nil)
			w.ActionLabel = m.kit.T(c, "referrals.blade_thank_button_anonymous", nil)
			if b.Name != "" {
				w.Title = m.kit.T(c, "referrals.blade_thank_title", map[string]any{"Name": b.Name})
				w.ActionLabel = m.kit.T(c, "referrals.blade_thank_button", map[string]any{"Name": b.Name})
			}
			w.Text = m.kit.T(c, "referrals.blade_thank_text", nil)
		case BladeInviteWaiting:
			w.Title = m.kit.T(c, "referrals.blade_waiting_title", nil)
			w.Text = m.kit.T(c, "referrals.blade_waiting_text", map[string]any{"Email": b.Email})
			w.ActionLabel = m.kit.T(c, "referrals.blade_waiting_button", nil)
		case BladeVerifyMobile:
			w.Title = m.kit.T(c, "referrals.blade_mobile_title", nil)
			w.Text = m.kit.T(c, "referrals.blade_mobile_text", nil)
			w.LinkHref, w.LinkLabel = "/settings/mobile", m.kit.T(c, "referrals.blade_mobile_link", nil)
		case BladeCompleteAddress:
			w.Title = m.kit.T(c, "referrals.blade_address_title", nil)
			w.Text = m.kit.T(c, "referrals.blade_address_text", nil)
			w.LinkHref, w.LinkLabel = m.addressURL, m.kit.T(c, "referrals.blade_address_link", nil)
		}
		out = append(out, w)
	}
	return out, nil
}

// FeedBlades are the member's cards for the feed page (feed.Module.SetBlades).
func (m *Module) FeedBlades(c fiber.Ctx) ([]feedview.Blade, error) {
	list, err := m.worded(c)
	if err != nil {
		return nil, err
	}
	out := make([]feedview.Blade, 0, len(list))
	for _, w := range list {
		b := feedview.Blade{ID: w.ID, Kind: w.Kind, Title: w.Title, Text: w.Text, DismissHref: "/blades/" + w.ID + "/dismiss", ReturnTo: "/feed"}
		if w.LinkHref != "" {
			b.Link = &feedview.BladeLink{Href: w.LinkHref, Label: w.LinkLabel}
		}
		switch w.Kind {
		case BladeThankReferrer:
			b.Action = &feedview.BladeAction{Href: "/blades/" + w.ID + "/thank", Label: w.ActionLabel}
		case BladeInviteWaiting:
			b.Action = &feedview.BladeAction{Href: PagePath + "/" + w.ReferralID + "/resend", Label: w.ActionLabel}
		}
		out = append(out, b)
	}
	return out, nil
}
