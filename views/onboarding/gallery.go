package onboarding

import (
	"context"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
	"github.com/canvass/canvass/views/accounts"
	"github.com/canvass/canvass/views/surveys"
)

// Gallery lists the onboarding's states for the development gallery: the landing (with and
// without sign-in providers, with why a link did not work), the onboarding campaign's questions
// and thank-you in the survey box (modules/onboarding renderBox: a walk, no balance, no
// rating), and the last step's email form with each thing it can refuse.
func Gallery() []views.GalleryState {
	landing := func(name string, props func(ctx context.Context) LandingProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/onboarding", Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Landing(props(ctx)) },
		}
	}
	complete := func(name string, props func(ctx context.Context) CompleteProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/onboarding", Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Complete(props(ctx)) },
		}
	}
	walk := func(name, step string, noJS bool) views.GalleryState {
		st := views.GalleryState{
			Name: name, Path: "/onboarding/campaigns/" + surveys.GalleryWalkID(), Who: views.GalleryVisitor, Islands: []string{"survey-box"},
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return surveys.Survey(surveys.GalleryWalkStep(ctx, f, step, noJS))
			},
		}
		if noJS {
			st.Islands = nil
		}
		return st
	}
	const longEmail = "alexandra.konstantinopoulou@example-company.co.uk"
	return []views.GalleryState{
		landing("landing", func(ctx context.Context) LandingProps { return LandingProps{Providers: galleryProviders()} }),
		landing("landing-email-only", func(ctx context.Context) LandingProps { return LandingProps{} }),
		landing("landing-expired", func(ctx context.Context) LandingProps {
			return LandingProps{Error: views.T(ctx, "error.onboarding_missing"), Providers: galleryProviders()}
		}),
		landing("landing-sign-in-expired", func(ctx context.Context) LandingProps {
			return LandingProps{Error: views.T(ctx, "error.sign_in_expired"), Providers: galleryProviders()}
		}),
		walk("first-question", "first-question", false),
		walk("question", "question", false),
		walk("fallback-question", "question", true),
		walk("question-error", "question-error", true),
		walk("done", "done", false),
		walk("fallback-done", "done", true),
		walk("done-final", "done-final", false),
		complete("complete", func(ctx context.Context) CompleteProps {
			return CompleteProps{Provider: "Google", Email: "jamie.smith@gmail.com"}
		}),
		complete("complete-no-email", func(ctx context.Context) CompleteProps {
			return CompleteProps{Provider: "X (Twitter)"}
		}),
		complete("complete-error-email-needed", func(ctx context.Context) CompleteProps {
			return CompleteProps{Provider: "X (Twitter)", Errors: map[string]string{"email": views.T(ctx, "error.email_needed")}}
		}),
		complete("complete-error-invalid-email", func(ctx context.Context) CompleteProps {
			return CompleteProps{Provider: "Facebook", Email: "alexandra.konstantinopoulou@example-company",
				Errors: map[string]string{"email": views.T(ctx, "error.invalid_email")}}
		}),
		complete("complete-email-taken", func(ctx context.Context) CompleteProps {
			return CompleteProps{Provider: "Facebook", Email: longEmail, EmailTaken: longEmail}
		}),
		complete("complete-error-other-member", func(ctx context.Context) CompleteProps {
			return CompleteProps{Provider: "Google", Email: "jamie.smith@gmail.com", FormError: views.T(ctx, "error.onboarding_other_member")}
		}),
	}
}

// galleryProviders are the sign-in buttons of a panel with every provider (accounts'
// providerButtons, with ProviderLabel's names).
func galleryProviders() []accounts.ProviderButton {
	return []accounts.ProviderButton{
		{Provider: "google", Label: "Google", Href: "/sign-in/google"},
		{Provider: "facebook", Label: "Facebook", Href: "/sign-in/facebook"},
		{Provider: "twitter", Label: "X (Twitter)", Href: "/sign-in/twitter"},
	}
}
