package captcha

import "net/url"

// What a page needs to show a provider's widget. The pages themselves live elsewhere; these
// are the provider facts they depend on, taken from each provider's documentation:
//
//   - reCAPTCHA v3 (https://developers.google.com/recaptcha/docs/v3, .../docs/faq): load
//     api.js?render=SITEKEY, call grecaptcha.execute(SITEKEY, {action}) on submit and put the
//     token in the g-recaptcha-response field. CSP: script-src https://www.google.com/recaptcha/
//     https://www.gstatic.com/recaptcha/ and frame-src https://www.google.com/recaptcha/
//     https://recaptcha.google.com/recaptcha/.
//   - hCaptcha (https://docs.hcaptcha.com): load https://js.hcaptcha.com/1/api.js and render
//     <div class="h-captcha" data-sitekey=...>, which fills h-captcha-response. CSP: script-src,
//     frame-src, style-src and connect-src all need https://hcaptcha.com https://*.hcaptcha.com.
//   - Turnstile (https://developers.cloudflare.com/turnstile/): load .../turnstile/v0/api.js and
//     render <div class="cf-turnstile" data-sitekey=...>, which fills cf-turnstile-response.
//     CSP: script-src and frame-src https://challenges.cloudflare.com.
//   - Local: no script and no CSP change; the page renders a plain checkbox named
//     captcha-local whose value is a token from localcaptcha.Server.CheckboxToken.
//
// All three real providers also work with a nonce on the api.js script tag and 'strict-dynamic'
// instead of host lists; the host lists below suit a policy that names its sources.

// ScriptURL is the provider's widget script for a page's <script src>, or "" for Local (and an
// unknown kind). reCAPTCHA's carries the site key, as v3 needs it.
func (c Config) ScriptURL() string {
	switch c.Kind {
	case Recaptcha:
		return "https://www.google.com/recaptcha/api.js?render=" + url.QueryEscape(c.SiteKey)
	case HCaptcha:
		return "https://js.hcaptcha.com/1/api.js"
	case Turnstile:
		return "https://challenges.cloudflare.com/turnstile/v0/api.js"
	}
	return ""
}

// CSPSources are the sources a page showing the widget must add to its Content-Security-Policy
// script-src, frame-src and connect-src directives, as each provider documents them. All are
// nil for Local and an unknown kind. Each call returns fresh slices. hCaptcha also needs
// style-src: see StyleSources.
func (c Config) CSPSources() (script, frame, connect []string) {
	switch c.Kind {
	case Recaptcha:
		return []string{"https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"},
			[]string{"https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"},
			nil
	case HCaptcha:
		return hcaptchaSources(), hcaptchaSources(), hcaptchaSources()
	case Turnstile:
		return []string{"https://challenges.cloudflare.com"}, []string{"https://challenges.cloudflare.com"}, nil
	}
	return nil, nil, nil
}

// StyleSources are the sources the page's CSP style-src must add: hCaptcha's hosts for hCaptcha,
// nil for the others.
func (c Config) StyleSources() []string {
	if c.Kind == HCaptcha {
		return hcaptchaSources()
	}
	return nil
}

func hcaptchaSources() []string { return []string{"https://hcaptcha.com", "https://*.hcaptcha.com"} }

// The form fields the widgets fill with their token.
const (
	RecaptchaField = "g-recaptcha-response"
	HCaptchaField  = "h-captcha-response"
	TurnstileField = "cf-turnstile-response"
	LocalField     = "captcha-local"
)

// ResponseField is the name of the form field that carries the token: g-recaptcha-response,
// h-captcha-response, cf-turnstile-response or captcha-local; "" for an unknown kind.
func (c Config) ResponseField() string {
	switch c.Kind {
	case Recaptcha:
		return RecaptchaField
	case HCaptcha:
		return HCaptchaField
	case Turnstile:
		return TurnstileField
	case Local:
		return LocalField
	}
	return ""
}
