package accounts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
)

// captchaConfig is a panel's captcha (signinconfig's, through SignIns).
type captchaConfig = captcha.Config

// signUpFailures counts failed sign-ups per IP, beside the login failures, for captchas asked
// for after failures.
const signUpIPKey = "join:ip:"

// captchaFor is the panel's captcha when this request must solve one: always, or once this IP
// (or, for the API's recaptcha-required, this account) has failed often enough.
func (m *Module) captchaFor(c fiber.Ctx, account string) (*captchaConfig, error) {
	return m.captchaAfter(c, func() (int, error) { return m.svc.failures(c.Context(), web.PanelOf(c), c.IP(), account) })
}

// captchaAfter is the panel's captcha when a request with this many failures before it must
// solve one; failures is asked only when the panel's mode depends on them.
func (m *Module) captchaAfter(c fiber.Ctx, failures func() (int, error)) (*captchaConfig, error) {
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil || cfg.captcha == nil {
		return nil, err
	}
	if cfg.captcha.Mode == captcha.ModeAlways {
		return cfg.captcha, nil
	}
	n, err := failures()
	if err != nil {
		return nil, err
	}
	if n >= cfg.captcha.AfterFailures {
		return cfg.captcha, nil
	}
	return nil, nil
}

// failures are the failed logins and sign-ups of an IP in the login window, or the failed
// logins of an account when one is named, whichever is more.
func (s *Service) failures(ctx context.Context, panel *web.Panel, ip, account string) (int, error) {
	logins, err := s.limiter.Count(ctx, "login:ip:"+ip, loginWindow)
	if err != nil {
		return 0, err
	}
	signUps, err := s.limiter.Count(ctx, signUpIPKey+ip, loginWindow)
	if err != nil || account == "" {
		return logins + signUps, err
	}
	acct, err := s.limiter.Count(ctx, loginAccountKey(panel, account), loginWindow)
	return max(logins+signUps, acct), err
}

func loginAccountKey(panel *web.Panel, email string) string {
	return "login:acct:" + panel.ID + ":" + NormalizeEmail(email)
}

// loginAttempt is a password login counted as a failure of its account and its IP before the
// password is checked. Counting first and deciding on the count is one atomic step per key
// (ratelimit.Hit), so logins at once each see the ones before them: no more than the limit
// get their password checked, and every attempt past the captcha's threshold is asked for
// one, however many arrive together. A right password takes its count back.
type loginAttempt struct {
	ip         string
	acct, byIP ratelimit.Taken // this attempt's hits, with the counts that include it
}

// LoginGate decides whether a counted login may go on (the captcha), given how to learn the
// failures before it (asked only when the panel's captcha depends on them).
type LoginGate func(prior func() (int, error)) error

// beginLogin counts the attempt, refusing it with 429 when the account or the IP is past its
// limit (a refused attempt is not counted: it checked nothing).
func (s *Service) beginLogin(ctx context.Context, panel *web.Panel, email, ip string) (*loginAttempt, error) {
	a := &loginAttempt{ip: ip}
	var err error
	if a.acct, err = s.limiter.Take(ctx, loginAccountKey(panel, email), loginWindow); err != nil {
		return nil, err
	}
	if a.byIP, err = s.limiter.Take(ctx, "login:ip:"+ip, loginWindow); err != nil {
		return nil, heldHit{s.limiter, a.acct}.release(ctx, err)
	}
	if a.acct.Hits > maxFailuresAccount || a.byIP.Hits > maxFailuresIP {
		return nil, a.undo(ctx, s.limiter, web.Fail(fiber.StatusTooManyRequests, "error.login_rate_limited", nil))
	}
	return a, nil
}

// prior is the failures before this attempt, those in flight included: the captcha's measure
// (failures, for an attempt not yet counted).
func (a *loginAttempt) prior(ctx context.Context, l *ratelimit.Limiter) (int, error) {
	signUps, err := l.Count(ctx, signUpIPKey+a.ip, loginWindow)
	return max(a.byIP.Hits-1+signUps, a.acct.Hits-1), err
}

// undo uncounts an attempt that checked no password (refused, or failed on our side) and
// returns why; a failure to uncount it is said too.
func (a *loginAttempt) undo(ctx context.Context, l *ratelimit.Limiter, why error) error {
	return heldHit{l, a.acct}.release(ctx, heldHit{l, a.byIP}.release(ctx, why))
}

// succeeded ends the account's failures and uncounts this attempt from the IP's. Attempts
// still in flight that give their hits back afterwards leave the account's new count alone
// (ratelimit.GiveBack): a wrong one refused before the reset must not free a place after it.
func (a *loginAttempt) succeeded(ctx context.Context, l *ratelimit.Limiter) error {
	return errors.Join(l.Reset(ctx, a.acct.Key), l.GiveBack(ctx, a.byIP))
}

// signUpGate counts a sign-up as a failure of its IP before anything is checked, as a login
// does (beginLogin): sign-ups at once each see the ones before them, so every one past the
// captcha's threshold is asked for one. It also holds one of the IP's sign-ups of the hour
// (the panel's SignUpsPerIPPerHour; past it, 429). The captcha is checked here; done settles
// the counts by the outcome: a success keeps its place in the hour's sign-ups and is no
// failure, a refusal of the member's input stays a failure, and neither counts when the
// sign-up failed on our side.
func (m *Module) signUpGate(c fiber.Ctx, token string) (done func(error) error, err error) {
	ctx, ip, l := c.Context(), c.IP(), m.svc.limiter
	taken, err := l.Take(ctx, signUpIPKey+ip, loginWindow)
	if err != nil {
		return nil, err
	}
	failure, signUps := heldHit{l, taken}, taken.Hits
	if taken, err = l.Take(ctx, "joined:ip:"+ip, time.Hour); err != nil {
		return nil, failure.release(ctx, err)
	}
	joined := heldHit{l, taken}
	if taken.Hits > web.PanelOf(c).SignUpsPerIPPerHour {
		return nil, failure.release(ctx, joined.release(ctx, web.Fail(fiber.StatusTooManyRequests, "error.sign_up_rate_limited", nil)))
	}
	cfg, err := m.captchaAfter(c, func() (int, error) {
		logins, err := l.Count(ctx, "login:ip:"+ip, loginWindow)
		return logins + signUps - 1, err
	})
	if err == nil && cfg != nil {
		err = m.verifyCaptcha(c, cfg, token)
	}
	if err != nil {
		return nil, failure.release(ctx, joined.release(ctx, err))
	}
	return func(err error) error {
		var e *web.Error
		switch {
		case err == nil:
			return failure.release(ctx, nil)
		case errors.As(err, &e) && e.Status < 500:
			return joined.release(ctx, err)
		}
		return failure.release(ctx, joined.release(ctx, err))
	}, nil
}

// heldHit is a hit counted in advance, taken back when it turns out not to count.
type heldHit struct {
	l *ratelimit.Limiter
	t ratelimit.Taken
}

// release takes the hit back and returns why (with the release's own failure, if any).
func (h heldHit) release(ctx context.Context, why error) error {
	if err := h.l.GiveBack(ctx, h.t); err != nil {
		return errors.Join(why, err)
	}
	return why
}

// checkCaptcha verifies the captcha token of a forgot-password request when the panel asks for
// one now (logins and sign-ups count their attempt first: loginGate, signUpGate). A refused
// token is a 400 on the captcha field; an unreachable provider is a 502 (the member may try
// again); nothing else happens in either case.
func (m *Module) checkCaptcha(c fiber.Ctx, token string) error {
	cfg, err := m.captchaFor(c, "")
	if err != nil || cfg == nil {
		return err
	}
	return m.verifyCaptcha(c, cfg, token)
}

// loginGate is the captcha check of a password login, asked once the attempt is counted
// (Service.login).
func (m *Module) loginGate(c fiber.Ctx, token string) LoginGate {
	return func(prior func() (int, error)) error {
		cfg, err := m.captchaAfter(c, prior)
		if err != nil || cfg == nil {
			return err
		}
		return m.verifyCaptcha(c, cfg, token)
	}
}

func (m *Module) verifyCaptcha(c fiber.Ctx, cfg *captchaConfig, token string) error {
	err := m.captcha.Verify(c.Context(), *cfg, token, c.IP(), c.Hostname(), "")
	switch {
	case err == nil:
		return nil
	case errors.Is(err, captcha.ErrMisconfigured):
		return web.Internal(fmt.Errorf("panel %s captcha: %w", web.PanelOf(c).Key, err)) // the operator's to fix
	case errors.Is(err, captcha.ErrFailed):
		return web.Invalid("captcha", "error.captcha_failed", nil).WithCode("captcha_failed")
	case errors.Is(err, captcha.ErrUnavailable):
		return &web.Error{Status: fiber.StatusBadGateway, ID: "error.captcha_unavailable", Err: err}
	}
	return err
}

// formCaptchaToken is the token a page's form carries in its provider's field.
func (m *Module) formCaptchaToken(c fiber.Ctx) string {
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil || cfg.captcha == nil {
		return ""
	}
	return c.FormValue(cfg.captcha.ResponseField())
}

// captchaWidget is what a form shows when the panel asks for a captcha now, or when asked is
// set (the form was refused for want of one); nil otherwise.
func (m *Module) captchaWidget(c fiber.Ctx, account string, asked bool) (*views.Captcha, error) {
	cfg, err := m.captchaFor(c, account)
	if asked && err == nil && cfg == nil {
		cfg, err = m.captchaAfter(c, func() (int, error) { return math.MaxInt, nil })
	}
	if err != nil || cfg == nil {
		return nil, err
	}
	w := &views.Captcha{Kind: string(cfg.Kind), SiteKey: cfg.SiteKey, ScriptURL: cfg.ScriptURL(), Field: cfg.ResponseField()}
	if cfg.Kind == captcha.Local && m.localCaptcha != nil {
		w.LocalToken = m.localCaptcha.CheckboxToken(c.Hostname())
	}
	script, frame, connect := cfg.CSPSources()
	web.AllowSources(c, web.CSPSources{Script: script, Frame: frame, Connect: connect, Style: cfg.StyleSources()})
	return w, nil
}
