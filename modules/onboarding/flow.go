package onboarding

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

const (
	// stateCookie holds the secret whose hash keys this browser's onboarding.
	stateCookie = "onboarding"
	// maxCampaigns bounds one panel's onboarding: a few short questionnaires, not a feed.
	maxCampaigns = 50
	// saveAttempts: an answer saved while another was (a double submit) is applied again.
	saveAttempts = 4
)

// stateTTL is how long an onboarding waits for its visitor (moved on by every answer).
var stateTTL = accounts.OnboardingTTL

// newSecret is 32 random bytes, URL-safe: the cookie's value (only its hash is stored).
func newSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Errorf("crypto/rand: %w", err)) // the platform's randomness is gone: nothing is safe
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func stateID(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// errMissing: the request has no onboarding in progress (none started, expired, or cleared).
func errMissing() *web.Error {
	return web.Fail(fiber.StatusUnauthorized, "error.onboarding_missing", nil).WithCode("onboarding_missing")
}

// visitor is a visitor who is not a member yet, as the audience rule and the engine see them.
func visitor(lang string) surveys.Member {
	return surveys.Member(campaigns.Person{Language: lang, Fields: map[string]any{"languageCode": lang}})
}

// respondent is who answers now: the signed-in member, else a visitor.
func respondent(c fiber.Ctx) surveys.Respondent {
	if mem := web.MemberOf(c); mem != nil {
		return surveys.Member(campaigns.PersonOf(mem, web.LocaleOf(c)))
	}
	return visitor(web.LocaleOf(c))
}

// Available tells whether the panel has onboarding campaigns (accounts asks it of a new identity).
func (m *Module) Available(ctx context.Context, panel *web.Panel) (bool, error) {
	list, err := m.audience.Visible(ctx, panel, visitor(panel.DefaultLanguage).Person(), campaigns.ListQuery{Onboarding: true}, 1, 0)
	return len(list) > 0, err
}

// VisitorRoot is GET / for a visitor: /onboarding on a panel with direct onboarding, or while
// this browser has an onboarding in progress (spec section 2: "at the root with no session
// token, a user may be sent to /onboarding"); otherwise the next handler decides.
func (m *Module) VisitorRoot(c fiber.Ctx) error {
	if web.MemberOf(c) == nil {
		if provider, userID := c.Query("provider"), c.Query("userId"); provider != "" && userID != "" {
			// A third-party sign-in's return at the root: onboarding takes it as it comes.
			q := url.Values{"provider": {provider}, "userId": {userID}}
			if r := c.Query("redirect"); r != "" {
				q.Set("redirect", r)
			}
			return c.Redirect().Status(fiber.StatusSeeOther).To("/onboarding?" + q.Encode())
		}
		st, err := m.fromCookie(c)
		if err != nil {
			return err
		}
		if st != nil || web.PanelOf(c).DirectOnboarding {
			return c.Redirect().Status(fiber.StatusSeeOther).To("/onboarding")
		}
	}
	return c.Next()
}

// fromCookie is the live onboarding of this browser's cookie, or nil; data the spec would not
// keep (no provider identity and no member) is cleared.
func (m *Module) fromCookie(c fiber.Ctx) (*State, error) {
	secret := c.Cookies(stateCookie)
	if secret == "" {
		return nil, nil
	}
	st, err := m.store.byID(c.Context(), stateID(secret), web.PanelOf(c).ID, m.now().UTC())
	if errors.Is(err, ErrNotFound) {
		m.kit.ClearCookie(c, stateCookie)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Valid() {
		return nil, m.clear(c, st)
	}
	return st, nil
}

// clear deletes an onboarding and its cookie.
func (m *Module) clear(c fiber.Ctx, st *State) error {
	m.kit.ClearCookie(c, stateCookie)
	if st == nil {
		return nil
	}
	return m.store.delete(c.Context(), st.ID)
}

// current is this request's onboarding, or nil. A visitor's is their cookie's. A member's is
// the cookie's when it became theirs (completed as them) or waits for them (a provider identity
// they linked with their password: completion checks the link); else their own while their
// panel's direct onboarding holds them (the spec's userProfile case), started on first need.
func (m *Module) current(c fiber.Ctx) (*State, error) {
	st, err := m.fromCookie(c)
	if err != nil {
		return nil, err
	}
	mem := web.MemberOf(c)
	if mem == nil {
		return st, nil
	}
	if st != nil && (st.ParticipantID == nil || *st.ParticipantID == mem.ParticipantID) {
		return st, nil
	}
	panel := web.PanelOf(c)
	if !accounts.NeedsOnboarding(panel, mem) {
		return nil, nil
	}
	now := m.now().UTC()
	own, err := m.store.ofMember(c.Context(), panel.ID, mem.ParticipantID, now)
	if !errors.Is(err, ErrNotFound) {
		return own, err
	}
	pid := mem.ParticipantID
	own = newState(stateID(newSecret()), panel.ID, web.LocaleOf(c), now)
	own.ParticipantID = &pid
	return own, m.store.create(c.Context(), own)
}

// begin is a third-party sign-in's return (a query with provider and userId): the identity
// must wait in onboarding in this browser. The same identity goes on where it was; another
// userId resets the onboarding. redirect is kept when it is an https address on the provider's
// own domain, else the local page where the sign-in started is.
func (m *Module) begin(c fiber.Ctx, provider, userID, redirect string) (*State, error) {
	w, err := m.accounts.WaitingIdentity(c, provider, userID)
	if err != nil {
		old, ferr := m.fromCookie(c)
		if ferr != nil {
			return nil, ferr
		}
		if cerr := m.clear(c, old); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	target := w.Redirect
	if onDomain(redirect, w.Domain) {
		target = redirect
	}
	st, err := m.fromCookie(c)
	if err != nil {
		return nil, err
	}
	now := m.now().UTC()
	if st != nil && st.Provider == provider && st.UserID == userID {
		if target != st.Redirect && onDomain(redirect, w.Domain) {
			st.Redirect = target
			return st, m.saveOnce(c.Context(), st)
		}
		return st, nil
	}
	if err := m.clear(c, st); err != nil { // a different userId resets the data
		return nil, err
	}
	secret := newSecret()
	st = newState(stateID(secret), web.PanelOf(c).ID, web.LocaleOf(c), now)
	st.Provider, st.UserID, st.Redirect = provider, userID, target
	if err := m.store.create(c.Context(), st); err != nil {
		return nil, err
	}
	m.kit.SetCookie(c, &fiber.Cookie{Name: stateCookie, Value: secret, Expires: st.ExpiresAt})
	return st, nil
}

// newState is an onboarding with nothing answered yet.
func newState(id, panelID, lang string, now time.Time) *State {
	return &State{
		ID: id, PanelID: panelID, LanguageCode: lang, CompletedCampaigns: []string{}, Answers: []Answer{},
		CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(stateTTL),
	}
}

// onDomain is the spec's rule for the redirect query: an https address on the provider's own
// domain (or a subdomain of it). Anything else is not honoured.
func onDomain(raw, domain string) bool {
	if raw == "" || domain == "" || len(raw) > 2000 {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.User != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// target is where a finished onboarding goes: its redirect, else the home root.
func target(st *State) string {
	if st.Redirect != "" {
		return st.Redirect
	}
	return "/"
}

func (m *Module) saveOnce(ctx context.Context, st *State) error {
	now := m.now().UTC()
	return m.store.save(ctx, st, now, now.Add(stateTTL))
}

// reload reads the onboarding again after another request changed it.
func (m *Module) reload(ctx context.Context, st *State) (*State, error) {
	return m.store.byID(ctx, st.ID, st.PanelID, m.now().UTC())
}

// update applies change to the onboarding and saves it, reading it again and re-applying when
// another request saved it meanwhile.
func (m *Module) update(ctx context.Context, st *State, change func(*State) error) error {
	for attempt := 1; ; attempt++ {
		if err := change(st); err != nil {
			return err
		}
		err := m.saveOnce(ctx, st)
		if !errors.Is(err, errChanged) || attempt == saveAttempts {
			return err
		}
		fresh, err := m.reload(ctx, st)
		if err != nil {
			return err
		}
		*st = *fresh
	}
}

// campaignsOf are the panel's onboarding campaigns for this respondent, the final one last.
func (m *Module) campaignsOf(c fiber.Ctx) ([]campaigns.Listing, error) {
	list, err := m.audience.Visible(c.Context(), web.PanelOf(c), respondent(c).Person(), campaigns.ListQuery{Onboarding: true}, maxCampaigns, 0)
	if err != nil {
		return nil, fmt.Errorf("onboarding campaigns: %w", err)
	}
	slices.SortStableFunc(list, func(a, b campaigns.Listing) int {
		switch {
		case a.IsFinalOnboarding == b.IsFinalOnboarding:
			return 0
		case a.IsFinalOnboarding:
			return 1
		}
		return -1
	})
	return list, nil
}

// listed is the spec's list of onboarding campaigns: those already completed are dropped
// unless final.
func listed(st *State, all []campaigns.Listing) []campaigns.Listing {
	out := make([]campaigns.Listing, 0, len(all))
	for _, l := range all {
		if !st.Completed(l.ID) || l.IsFinalOnboarding {
			out = append(out, l)
		}
	}
	return out
}

// next is the first onboarding campaign not completed yet ("" when all are).
func next(st *State, all []campaigns.Listing) string {
	for _, l := range all {
		if !st.Completed(l.ID) {
			return l.ID
		}
	}
	return ""
}

// campaign is one of the panel's onboarding campaigns; another campaign is not found.
func (m *Module) campaign(c fiber.Ctx, id string) (*campaigns.Listing, error) {
	all, err := m.campaignsOf(c)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == id {
			return &all[i], nil
		}
	}
	return nil, web.NotFound()
}

// answer records an answer to a question of an onboarding campaign: the engine checks and
// routes it along the answers kept; a terminal status records the campaign as completed.
func (m *Module) answer(c fiber.Ctx, st *State, id, questionID string, raw json.RawMessage) (*surveys.GoResult, error) {
	var res *surveys.GoResult
	err := m.update(c.Context(), st, func(st *State) error {
		kept := st.AnswersOf(id)
		r, keep, err := m.surveys.Step(c.Context(), web.PanelOf(c), respondent(c), id, questionID, raw, kept)
		if err != nil {
			return err
		}
		var order []string
		for _, a := range st.Answers {
			if a.CampaignUUID == id {
				order = append(order, a.QuestionUUID)
			}
		}
		if !slices.Contains(order, questionID) {
			order = append(order, questionID)
		}
		st.SetAnswers(id, keep, order)
		if campaigns.IsTerminal(r.Status) {
			st.Complete(id)
		}
		res = r
		return nil
	})
	return res, err
}

// finished: every onboarding campaign is completed (the final one among them).
func (m *Module) finished(c fiber.Ctx, st *State) (bool, error) {
	all, err := m.campaignsOf(c)
	if err != nil {
		return false, err
	}
	return next(st, all) == "", nil
}

// complete ends an onboarding whose campaigns are all completed: the member (made now from the
// provider identity with email, or the provider's own email when it is ""; or the member who
// linked it; or the member it is for) gets the answers as their own participations and their
// profile says onboarding is done. It returns the new session's token when it made the member.
func (m *Module) complete(c fiber.Ctx, st *State, email string) (string, error) {
	if st.CompletedAt != nil {
		return "", nil
	}
	done, err := m.finished(c, st)
	if err != nil {
		return "", err
	}
	if !done {
		return "", web.Fail(fiber.StatusConflict, "error.onboarding_unfinished", nil).WithCode("onboarding_unfinished")
	}
	mem, token, linked := web.MemberOf(c), "", false
	switch {
	case st.ParticipantID != nil:
		if mem == nil || mem.ParticipantID != *st.ParticipantID {
			return "", web.Unauthorized()
		}
	case mem != nil:
		// Signed in meanwhile: the identity's answers are theirs only once it is linked to them.
		w, err := m.accounts.WaitingIdentity(c, st.Provider, st.UserID)
		if err != nil {
			return "", err
		}
		if w.LinkedTo == "" || w.LinkedTo != mem.AccountHolderID {
			return "", web.Fail(fiber.StatusConflict, "error.onboarding_other_member", nil).WithCode("onboarding_other_member")
		}
		linked = true
	default:
		issued, err := m.accounts.JoinFromOnboarding(c, st.Provider, st.UserID, email)
		if err != nil {
			// A second completion of this browser (a double click) while the first made the
			// member: that one is the answer, and its session cookie reaches this browser.
			if fresh, rerr := m.reload(c.Context(), st); rerr == nil && fresh.ParticipantID != nil {
				return "", nil
			}
			return "", err
		}
		mem, token = issued.Member, issued.Token
	}
	// The member exists from here: record it first, so a failure below is retried as theirs.
	pid := mem.ParticipantID
	if err := m.update(c.Context(), st, func(st *State) error { st.ParticipantID = &pid; return nil }); err != nil {
		return "", err
	}
	if err := m.adopt(c, st, mem); err != nil {
		return "", err
	}
	if err := m.accounts.MarkOnboardingCompleted(c.Context(), mem.ParticipantID); err != nil {
		return "", err
	}
	mem.Metadata = withFlag(mem.Metadata, "onboardingCompleted")
	now := m.now().UTC()
	if err := m.update(c.Context(), st, func(st *State) error { st.Email, st.CompletedAt = mem.Email, &now; return nil }); err != nil {
		return "", err
	}
	if linked {
		if err := m.accounts.ForgetWaiting(c, st.Provider, st.UserID); err != nil {
			return "", err
		}
	}
	return token, nil
}

// adopt records the answers of each completed campaign as the member's own run, through the
// survey engine (quotas count, rewards are paid once). A campaign that no longer takes them
// (closed meanwhile, or changed so an answer no longer fits) is left where the answers lead:
// onboarding still ends, as the visitor did their part.
func (m *Module) adopt(c fiber.Ctx, st *State, mem *web.Member) error {
	who := surveys.Member(campaigns.PersonOf(mem, web.LocaleOf(c)))
	for _, id := range st.CompletedCampaigns {
		status, err := m.surveys.Adopt(c.Context(), web.PanelOf(c), who, id, st.AnswersOf(id))
		var we *web.Error
		if errors.As(err, &we) && we.Status < 500 {
			m.log.Warn("onboarding answers not recorded", "campaign", id, "participant", mem.ParticipantID, "reason", we.ID)
			continue
		}
		if err != nil {
			return fmt.Errorf("record onboarding answers of %s: %w", id, err)
		}
		if status != campaigns.StatusCompleted {
			m.log.Info("onboarding campaign recorded", "campaign", id, "participant", mem.ParticipantID, "status", status)
		}
	}
	return nil
}

func withFlag(md map[string]any, key string) map[string]any {
	out := make(map[string]any, len(md)+1)
	for k, v := range md {
		out[k] = v
	}
	out[key] = true
	return out
}
