package accounts

import (
	"context"
	"net/http"

	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
)

// LoginObserver hears the outcome of each member login (the app counts them for its metrics).
// method is "password" (the login form, API and widget, and linking a provider by password) or
// "social" (a provider's sign-in that signed a known member in); result is "success", "failed"
// (wrong credentials, or a closed account), "rate_limited" (too many failures), "invalid" (a
// request refused before any credential was checked: missing fields, an expired sign-in) or
// "error" (the server failed). A provider's sign-in that leads to linking or joining is not a
// login yet, and is not reported.
type LoginObserver func(method, result string)

// ObserveLogins sets the login observer (app wiring); nil observes nothing.
func (m *Module) ObserveLogins(o LoginObserver) { m.svc.logins = o }

// Login checks the password; it never tells whether the email exists, and refuses with 429
// once an account or an IP has failed too often (login, in service.go). The observer hears it.
func (s *Service) Login(ctx context.Context, panel *web.Panel, email, password string, client Client, gate LoginGate) (*Issued, error) {
	issued, err := s.login(ctx, panel, email, password, client, gate)
	s.observeLogin("password", err)
	return issued, err
}

// FinishSignIn spends the attempt and trades the code for the identity (finishSignIn, in
// signin.go); a sign-in that issued a session, or failed, is reported to the observer.
func (s *Service) FinishSignIn(ctx context.Context, panel *web.Panel, cfg social.Config, in SignInReturn, lang string, client Client) (*SignInOutcome, error) {
	out, err := s.finishSignIn(ctx, panel, cfg, in, lang, client)
	if err != nil || (out != nil && out.Issued != nil) {
		s.observeLogin("social", err)
	}
	return out, err
}

func (s *Service) observeLogin(method string, err error) {
	if s.logins == nil {
		return
	}
	s.logins(method, loginResult(err))
}

// loginResult names a login's outcome by the status its error answers with.
func loginResult(err error) string {
	if err == nil {
		return "success"
	}
	switch status := web.AsError(err).Status; {
	case status == http.StatusUnauthorized:
		return "failed"
	case status == http.StatusTooManyRequests:
		return "rate_limited"
	case status < 500:
		return "invalid"
	default:
		return "error"
	}
}
