package accounts

import (
	"context"
	"net/url"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the visitor's account pages for the development gallery: login, join (through
// an invitation or a partner too), password recovery, the gates a member meets (terms, email
// validation, suspension), the sign-in-with-a-provider pages and the login and join widgets,
// each with the errors its handler (modules/accounts) can show.
func Gallery() []views.GalleryState {
	type props = func(ctx context.Context, f views.Fixture) FormProps
	form := func(name, path, who string, view func(FormProps) templ.Component, p props) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: path, Who: who,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return view(p(ctx, f)) },
		}
	}
	login := func(name string, p props) views.GalleryState {
		return form(name, "/login", views.GalleryVisitor, Login, p)
	}
	join := func(name, path string, p props) views.GalleryState {
		return form(name, path, views.GalleryVisitor, Join, p)
	}
	forgot := func(name string, p props) views.GalleryState {
		return form(name, "/forgot-password", views.GalleryVisitor, Forgot, p)
	}
	reset := func(name string, p props) views.GalleryState {
		return form(name, "/reset-password", views.GalleryVisitor, Reset, p)
	}
	pending := func(name, path string, view func(PendingProps) templ.Component, p func(ctx context.Context) PendingProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: path, Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return view(p(ctx)) },
		}
	}
	widget := func(name, kind string, p func(ctx context.Context, f views.Fixture) WidgetProps) views.GalleryState {
		st := views.GalleryState{
			Name: name, Path: "/widgets/" + kind, Who: views.GalleryVisitor,
			Page: func(pg *views.Page) { pg.Embedded = true },
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Widget(p(ctx, f)) },
		}
		return st
	}
	// The form's island (renderWidget's web.UseIsland); the signed-in card has none.
	formWidget := func(name, kind string, p func(ctx context.Context, f views.Fixture) WidgetProps) views.GalleryState {
		st := widget(name, kind, p)
		st.Islands = []string{"widget"}
		return st
	}
	static := func(name, path, who string, c templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: who, View: func(context.Context, views.Fixture) templ.Component { return c }}
	}

	return []views.GalleryState{
		// Login.
		login("login", func(ctx context.Context, f views.Fixture) FormProps { return FormProps{} }),
		login("login-error", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": galleryLongEmail}, FormError: views.T(ctx, "error.login_failed")}
		}),
		login("login-missing-password", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": "jamie@example.com"}, FormError: views.T(ctx, "error.login_required")}
		}),
		login("login-providers", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Redirect: "/surveys", Providers: galleryProviders("/surveys")}
		}),
		login("login-captcha", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": "jamie@example.com"}, FormError: views.T(ctx, "error.login_failed"), Providers: galleryProviders(""), Captcha: galleryCaptcha()}
		}),
		login("login-captcha-error", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": "jamie@example.com"}, Errors: map[string]string{"captcha": views.T(ctx, "error.captcha_failed")}, Captcha: galleryCaptcha()}
		}),
		login("login-rate-limited", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": galleryLongEmail}, FormError: views.T(ctx, "error.login_rate_limited"), Captcha: galleryCaptcha()}
		}),
		login("login-sign-in-expired", func(ctx context.Context, f views.Fixture) FormProps {
			// signInFailed: a provider's sign-in that expired comes back to the login page.
			return FormProps{FormError: views.T(ctx, "error.sign_in_expired"), Providers: galleryProviders("")}
		}),
		{
			Name: "login-sign-in-cancelled", Path: "/login", Who: views.GalleryVisitor,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "error", Message: p.Translate("error.sign_in_cancelled", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return Login(FormProps{Providers: galleryProviders("")})
			},
		},
		{
			Name: "login-after-reset", Path: "/login", Who: views.GalleryVisitor,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "success", Message: p.Translate("flash.password_reset", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Login(FormProps{}) },
		},

		// Join.
		join("join", "/join", func(ctx context.Context, f views.Fixture) FormProps { return FormProps{} }),
		join("join-field-errors", "/join", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{
				Values: map[string]string{"firstName": galleryLongFirstName, "email": "alexandra.konstantinopoulou@example-company"},
				Errors: map[string]string{
					"email":     views.T(ctx, "error.invalid_email"),
					"password":  views.Tf(ctx, "error.password_too_short", map[string]any{"Min": 8}),
					"firstName": views.Tf(ctx, "error.too_long", map[string]any{"Max": 100}),
				},
			}
		}),
		join("join-email-taken", "/join", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"firstName": "Alexandra", "email": galleryLongEmail}, Errors: map[string]string{"email": views.T(ctx, "error.email_taken")}}
		}),
		join("join-rate-limited", "/join", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"firstName": "Jamie", "email": "jamie@example.com"}, FormError: views.T(ctx, "error.sign_up_rate_limited"), Captcha: galleryCaptcha()}
		}),
		join("join-providers-captcha", "/join", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Providers: galleryProviders(""), Captcha: galleryCaptcha()}
		}),
		join("join-invited", "/join/invite/"+galleryInviteID, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{InviteID: galleryInviteID, Invitation: &JoinInvitation{InviterName: "Alexandra"}, Values: map[string]string{"email": galleryLongEmail}}
		}),
		join("join-invited-no-name", "/join/invite/"+galleryInviteID, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{InviteID: galleryInviteID, Invitation: &JoinInvitation{}, Values: map[string]string{"email": "jamie@example.com"}, Providers: galleryProviders("")}
		}),
		join("join-invite-expired", "/join/invite/"+galleryInviteID, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{InviteID: galleryInviteID, Invitation: &JoinInvitation{Expired: true}}
		}),
		join("join-self-referral", "/join/invite/"+galleryInviteID, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{
				InviteID: galleryInviteID, Invitation: &JoinInvitation{InviterName: "Jamie"},
				Values: map[string]string{"firstName": "Jamie", "email": "jamie@example.com"}, FormError: views.T(ctx, "error.referral_self_join"),
			}
		}),
		join("join-partner-bonus", "/join?affiliate=SPRING-25", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Affiliate: "SPRING-25", Partner: &JoinPartner{Name: "Spring Offers", Bonus: f.Money(250)}, Providers: galleryProviders("")}
		}),
		join("join-partner", "/join?affiliate=PARTNER-LONG", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Affiliate: "PARTNER-LONG", Partner: &JoinPartner{Name: "The Northern Consumer Research and Household Panel Partnership"}}
		}),
		join("join-invited-partner", "/join/invite/"+galleryInviteID+"?affiliate=SPRING-25", func(ctx context.Context, f views.Fixture) FormProps {
			// Both at once: an invitation link that also carries a partner code.
			return FormProps{
				InviteID: galleryInviteID, Affiliate: "SPRING-25", Invitation: &JoinInvitation{InviterName: galleryLongFirstName},
				Partner: &JoinPartner{Name: "Spring Offers", Bonus: f.Money(123456)}, Values: map[string]string{"email": galleryLongEmail},
			}
		}),

		// Forgotten password and reset.
		forgot("forgot-password", func(ctx context.Context, f views.Fixture) FormProps { return FormProps{} }),
		forgot("forgot-password-error", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": "jamie@example"}, Errors: map[string]string{"email": views.T(ctx, "error.invalid_email")}}
		}),
		forgot("forgot-password-captcha", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": "jamie@example.com"}, Errors: map[string]string{"captcha": views.T(ctx, "error.captcha_failed")}, Captcha: galleryCaptcha()}
		}),
		forgot("forgot-password-rate-limited", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Values: map[string]string{"email": galleryLongEmail}, FormError: views.T(ctx, "error.mail_rate_limited")}
		}),
		forgot("forgot-password-sent", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Done: true, Email: galleryLongEmail}
		}),
		reset("reset-password", func(ctx context.Context, f views.Fixture) FormProps { return FormProps{Token: galleryToken} }),
		reset("reset-password-error", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Token: galleryToken, Errors: map[string]string{"password": views.Tf(ctx, "error.password_too_short", map[string]any{"Min": 8})}}
		}),
		reset("reset-password-expired", func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{FormError: views.T(ctx, "error.reset_link_invalid")}
		}),

		// Signed out, and the gates a signed-in member meets.
		static("logged-out", "/logout", views.GalleryVisitor, LoggedOut()),
		static("suspended", "/suspended", views.GalleryMember, Suspended()),
		form("terms", "/accept-terms-and-conditions", views.GalleryMember, Terms, func(ctx context.Context, f views.Fixture) FormProps { return FormProps{} }),
		form("terms-accepted", "/accept-terms-and-conditions", views.GalleryMember, Terms, func(ctx context.Context, f views.Fixture) FormProps { return FormProps{Done: true} }),
		form("validate-email", "/validate-email", views.GalleryMember, ValidateEmail, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Email: galleryLongEmail}
		}),
		form("validate-email-sent", "/validate-email", views.GalleryMember, ValidateEmail, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Email: "member@demo.test", Done: true}
		}),
		form("validate-email-rate-limited", "/validate-email", views.GalleryMember, ValidateEmail, func(ctx context.Context, f views.Fixture) FormProps {
			return FormProps{Email: "member@demo.test", FormError: views.T(ctx, "error.mail_rate_limited")}
		}),
		static("email-validated", "/email-validation-done", views.GalleryVisitor, EmailValidated(true, "")),
		{
			Name: "email-validation-failed", Path: "/validate-email/confirm", Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return EmailValidated(false, views.T(ctx, "error.validation_link_invalid"))
			},
		},

		// Signing in with a provider: an account to link, or an email to give.
		pending("sign-in-link", "/sign-in/link", LinkAccount, func(ctx context.Context) PendingProps {
			return PendingProps{Provider: "Google", Email: galleryLongEmail}
		}),
		pending("sign-in-link-error", "/sign-in/link", LinkAccount, func(ctx context.Context) PendingProps {
			return PendingProps{Provider: "X (Twitter)", Email: "jamie@example.com", Form: FormProps{FormError: views.T(ctx, "error.login_failed")}}
		}),
		pending("sign-in-complete", "/sign-in/complete", CompleteJoin, func(ctx context.Context) PendingProps {
			// The provider vouched for a name but no email: the member gives one.
			return PendingProps{Provider: "X (Twitter)", Form: FormProps{Values: map[string]string{"firstName": "Jamie", "email": ""}}}
		}),
		pending("sign-in-complete-invalid-email", "/sign-in/complete", CompleteJoin, func(ctx context.Context) PendingProps {
			return PendingProps{Provider: "Facebook", Form: FormProps{
				Values: map[string]string{"firstName": galleryLongFirstName, "email": "jamie@@example.com"},
				Errors: map[string]string{"email": views.T(ctx, "error.invalid_email")},
			}}
		}),
		pending("sign-in-complete-email-taken", "/sign-in/complete", CompleteJoin, func(ctx context.Context) PendingProps {
			return PendingProps{Provider: "Facebook", EmailTaken: true, Form: FormProps{
				Values: map[string]string{"firstName": "Alexandra", "email": galleryLongEmail},
				Errors: map[string]string{"email": views.T(ctx, "error.email_taken")},
			}}
		}),

		// The widgets other sites frame.
		formWidget("widget-login", WidgetLogin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return galleryWidget(f, WidgetLogin, FormProps{})
		}),
		formWidget("widget-login-error", WidgetLogin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return galleryWidget(f, WidgetLogin, FormProps{Values: map[string]string{"email": galleryLongEmail}, FormError: views.T(ctx, "error.login_failed")})
		}),
		formWidget("widget-login-providers-captcha", WidgetLogin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return galleryWidget(f, WidgetLogin, FormProps{
				Values: map[string]string{"email": "jamie@example.com"}, FormError: views.T(ctx, "error.login_rate_limited"),
				Providers: galleryProviders(""), Captcha: galleryCaptcha(),
			})
		}),
		formWidget("widget-login-bad-frame", WidgetLogin, func(ctx context.Context, f views.Fixture) WidgetProps {
			// A parentFrameUrl refused: a hidden field, so said above the form.
			msg := views.Tf(ctx, "error.parent_frame_url", map[string]any{"Max": 2048})
			w := galleryWidget(f, WidgetLogin, FormProps{Values: map[string]string{"email": "jamie@example.com"}, FormError: msg})
			w.ParentFrameURL, w.OtherURL, w.Island.Target = "", "/widgets/join", ""
			return w
		}),
		formWidget("widget-join", WidgetJoin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return galleryWidget(f, WidgetJoin, FormProps{Providers: galleryProviders("")})
		}),
		formWidget("widget-join-errors", WidgetJoin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return galleryWidget(f, WidgetJoin, FormProps{
				Values: map[string]string{"firstName": galleryLongFirstName, "email": galleryLongEmail},
				Errors: map[string]string{
					"email":    views.T(ctx, "error.email_taken"),
					"password": views.Tf(ctx, "error.password_too_short", map[string]any{"Min": 8}),
				},
				Captcha: galleryCaptcha(),
			})
		}),
		widget("widget-signed-in", WidgetLogin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return WidgetProps{Kind: WidgetLogin, ParentFrameURL: galleryParentFrame, OtherURL: "/widgets/join?parentFrameUrl=" + galleryParentFrameQuery, SignedIn: true, Email: galleryLongEmail}
		}),
		widget("widget-signed-in-open-panel", WidgetJoin, func(ctx context.Context, f views.Fixture) WidgetProps {
			return WidgetProps{
				Kind: WidgetJoin, ParentFrameURL: galleryParentFrame, OtherURL: "/widgets/login?parentFrameUrl=" + galleryParentFrameQuery,
				SignedIn: true, Email: "jamie@example.com", OpenURL: "/widgets/continue?code=" + galleryToken,
			}
		}),
	}
}

// Fixture values: the longest an address and a first name plausibly get, a mailed token's
// shape (two UUIDs without dashes), an invitation id (a UUID) and a tenant's framing page.
const (
	galleryLongEmail     = "alexandra.konstantinopoulou@example-company.co.uk"
	galleryLongFirstName = "Maximiliana-Konstantina Alexandrovna"
	galleryToken         = "3f2b9c4e8a1d4f6b9e0c7a5d2b8f1e4c6a9d3b7e2f5c8a1d4b6e9f0c3a7d2b5e"
	galleryInviteID      = "6d1f3c2a-8b4e-4f7a-9c0d-2e5b7a1c9f34"
	galleryParentFrame   = "https://www.northwind-rewards.example/members/login"
)

// galleryParentFrameQuery is galleryParentFrame as a query value (widgetURL).
var galleryParentFrameQuery = url.QueryEscape(galleryParentFrame)

// galleryProviders are the sign-in buttons of a panel offering every provider
// (accounts.providerButtons), keeping the page's redirect.
func galleryProviders(redirect string) []ProviderButton {
	var out []ProviderButton
	for _, p := range []struct{ key, label string }{{"google", "Google"}, {"facebook", "Facebook"}, {"twitter", "X (Twitter)"}} {
		href := "/sign-in/" + p.key
		if redirect != "" {
			href += "?redirect=" + url.QueryEscape(redirect)
		}
		out = append(out, ProviderButton{Provider: p.key, Label: p.label, Href: href})
	}
	return out
}

// galleryCaptcha is the local development captcha (a checkbox, no script): the real providers'
// widgets load from their own sites, which the gallery does not reach.
func galleryCaptcha() *Captcha {
	return &Captcha{Kind: "local", Field: "captcha-local", LocalToken: "gallery-captcha-token"}
}

// galleryWidget is a widget's form framed by a tenant's page, as renderWidget builds it.
func galleryWidget(f views.Fixture, kind string, form FormProps) WidgetProps {
	other, api, msg := WidgetJoin, "/ah/api/v2/user/login", "canvass:signed-in"
	if kind == WidgetJoin {
		other, api, msg = WidgetLogin, "/ah/api/v2/user/register", "canvass:joined"
	}
	w := WidgetProps{
		Kind: kind, Form: form, ParentFrameURL: galleryParentFrame, OtherURL: "/widgets/" + other + "?parentFrameUrl=" + galleryParentFrameQuery,
		Island: WidgetIsland{
			API: api, Target: "https://www.northwind-rewards.example", Done: "/widgets/" + kind + "?parentFrameUrl=" + galleryParentFrameQuery,
			Message: WidgetMessage{Type: msg, Panel: f.Panel, Member: true},
		},
	}
	if form.Captcha != nil {
		w.Island.Captcha = form.Captcha.Field
	}
	return w
}
