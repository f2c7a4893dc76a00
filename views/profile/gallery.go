package profile

import (
	"context"
	"fmt"
	"strings"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
	"github.com/canvass/canvass/views/accounts"
)

// Gallery lists the settings page's states for the development gallery (every section, full
// and bare, a member who logs in through a provider, each form sent back with its errors), the
// page a mailed closing link opens, and the unsubscribe page of a bulk mail.
func Gallery() []views.GalleryState {
	settings := func(name string, props func(ctx context.Context, f views.Fixture) SettingsProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/settings", Who: views.GalleryMember, Islands: []string{"htmx"},
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Settings(props(ctx, f)) },
		}
	}
	flashed := func(name, kind, id string, props func(ctx context.Context, f views.Fixture) SettingsProps) views.GalleryState {
		s := settings(name, props)
		s.Page = func(p *views.Page) {
			p.Flash = append(p.Flash, views.Flash{Type: kind, Message: p.Translate(id, nil, nil)})
		}
		return s
	}
	// refused is the settings page with one form sent back: edit puts its values and errors.
	refused := func(name string, edit func(ctx context.Context, f views.Fixture, p *SettingsProps)) views.GalleryState {
		return settings(name, func(ctx context.Context, f views.Fixture) SettingsProps {
			p := gallerySettings(ctx, f, galleryFull)
			edit(ctx, f, &p)
			return p
		})
	}
	closeLink := func(name string, props func(ctx context.Context, f views.Fixture) CloseLinkProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/close-account", Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return CloseLink(props(ctx, f)) },
		}
	}
	unsubscribe := func(name string, props func(ctx context.Context, f views.Fixture) UnsubscribeProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: galleryUnsubscribePath, Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Unsubscribe(props(ctx, f)) },
		}
	}
	states := []views.GalleryState{
		settings("settings", func(ctx context.Context, f views.Fixture) SettingsProps {
			return gallerySettings(ctx, f, galleryFull)
		}),
		settings("settings-long-email", func(ctx context.Context, f views.Fixture) SettingsProps {
			p := gallerySettings(ctx, f, galleryFull)
			p.Email = "alexandra.konstantinopoulou@example-company.co.uk"
			return p
		}),
		settings("settings-new-member", func(ctx context.Context, f views.Fixture) SettingsProps {
			return gallerySettings(ctx, f, galleryMember{password: true})
		}),
		settings("settings-provider-only", func(ctx context.Context, f views.Fixture) SettingsProps {
			// Joined through Google, no password: the password, moving and closing sections
			// go through mailed links.
			g := galleryFull
			g.password, g.onlyProvider = false, true
			return gallerySettings(ctx, f, g)
		}),
		settings("settings-no-balance", func(ctx context.Context, f views.Fixture) SettingsProps {
			g := galleryFull
			g.balance = 0
			return gallerySettings(ctx, f, g)
		}),
		settings("pictures-one", func(ctx context.Context, f views.Fixture) SettingsProps {
			g := galleryFull
			g.pictures = 1
			return gallerySettings(ctx, f, g)
		}),
		settings("pictures-full", func(ctx context.Context, f views.Fixture) SettingsProps {
			g := galleryFull
			g.pictures = 5
			return gallerySettings(ctx, f, g)
		}),
		settings("postcode-found", func(ctx context.Context, f views.Fixture) SettingsProps {
			p := gallerySettings(ctx, f, galleryFull)
			p.Address.Values = map[string]string{"postcode": galleryPostcode(f)}
			p.LookupDone = true
			for i, label := range galleryPlaces(f) {
				p.Places = append(p.Places, Option{Value: fmt.Sprintf("pc-%d", i+1), Label: label})
			}
			return p
		}),
		settings("postcode-found-one", func(ctx context.Context, f views.Fixture) SettingsProps {
			p := gallerySettings(ctx, f, galleryFull)
			p.Address.Values = map[string]string{"postcode": galleryPostcode(f)}
			p.LookupDone = true
			p.Places = []Option{{Value: "pc-1", Label: galleryPlaces(f)[0]}}
			return p
		}),
		settings("postcode-none-found", func(ctx context.Context, f views.Fixture) SettingsProps {
			p := gallerySettings(ctx, f, galleryFull)
			p.Address.Values = map[string]string{"postcode": "ZZ99 9ZZ"}
			p.LookupDone = true
			return p
		}),
		refused("postcode-search-empty", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Address.Values = map[string]string{}
			p.Address.Errors = map[string]string{"postcode": views.T(ctx, "error.postcode_search_empty")}
		}),
		flashed("saved", "success", "flash.profile_saved", func(ctx context.Context, f views.Fixture) SettingsProps {
			return gallerySettings(ctx, f, galleryFull)
		}),
		flashed("nothing-changed", "info", "flash.nothing_changed", func(ctx context.Context, f views.Fixture) SettingsProps {
			return gallerySettings(ctx, f, galleryFull)
		}),
		refused("profile-errors", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Profile.Values["firstName"] = "Alex\u202e"
			p.Profile.Values["lastName"] = strings.Repeat("Konstantinopoulou-", 6)
			p.Profile.Errors = map[string]string{
				"firstName": views.T(ctx, "error.bad_characters"),
				"lastName":  views.Tf(ctx, "error.too_long", map[string]any{"Max": 100}),
			}
		}),
		refused("profile-error-single-line", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Profile.Values["firstName"] = "Alex\nandra"
			p.Profile.Errors = map[string]string{"firstName": views.T(ctx, "error.single_line")}
		}),
		refused("password-error-too-short", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Password = FormProps{Values: map[string]string{}, Errors: map[string]string{"newPassword": views.Tf(ctx, "error.password_too_short", map[string]any{"Min": 8})}}
		}),
		refused("password-error-too-long", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Password = FormProps{Values: map[string]string{}, Errors: map[string]string{"newPassword": views.Tf(ctx, "error.password_too_long", map[string]any{"Max": 128})}}
		}),
		refused("password-error-old-wrong", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Password = FormProps{Values: map[string]string{}, Errors: map[string]string{"oldPassword": views.T(ctx, "error.old_password_wrong")}}
		}),
		flashed("password-mail-sent", "success", "flash.password_mail_sent", func(ctx context.Context, f views.Fixture) SettingsProps {
			g := galleryFull
			g.password, g.onlyProvider = false, true
			return gallerySettings(ctx, f, g)
		}),
		refused("address-errors", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Address.Values = map[string]string{"postcode": "XX1 1XX", "country": "USA"}
			p.Address.Errors = map[string]string{
				"addressLine1": views.T(ctx, "error.required"), "city": views.T(ctx, "error.required"),
				"postcode": views.T(ctx, "error.postcode_not_found"), "country": views.T(ctx, "error.country_invalid"),
			}
		}),
		refused("address-error-postcode-invalid", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Address.Values["postcode"] = "12"
			p.Address.Errors = map[string]string{"postcode": views.T(ctx, "error.postcode_invalid")}
		}),
		refused("about-errors", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.About.Values = map[string]string{"dateOfBirth": "1899-02-30", "gender": "", "householdSize": "42", "smartFuelCard": "12"}
			p.About.Errors = map[string]string{}
			for _, key := range []string{"dateOfBirth", "gender", "householdSize", "smartFuelCard"} {
				p.About.Errors["metadata."+key] = views.T(ctx, "error.metadata_invalid_"+key)
			}
		}),
		refused("location-error-not-found", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Location = FormProps{Values: map[string]string{"postcode": "ZZ99 9ZZ"}, Errors: map[string]string{"postcode": views.T(ctx, "error.postcode_not_found")}}
		}),
		refused("location-error-invalid", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Location = FormProps{Values: map[string]string{"postcode": "!!"}, Errors: map[string]string{"postcode": views.T(ctx, "error.postcode_invalid")}}
		}),
		refused("instance-error-password", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Instance = FormProps{Values: map[string]string{"panelKey": p.Targets[0].Key}, Errors: map[string]string{"password": views.T(ctx, "error.password_wrong")}}
		}),
		refused("instance-error-balance", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Instance = FormProps{Values: map[string]string{"panelKey": p.Targets[0].Key},
				FormError: views.Tf(ctx, "error.change_instance_balance", map[string]any{"Amount": galleryMoneyString(galleryFull.balance) + " " + f.Currency})}
		}),
		refused("instance-error-email-used", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Instance = FormProps{Values: map[string]string{"panelKey": p.Targets[0].Key},
				FormError: views.Tf(ctx, "error.change_instance_email_used", map[string]any{"Panel": p.Targets[0].Name})}
		}),
		refused("close-error-confirm", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Close = FormProps{Errors: map[string]string{"confirm": views.T(ctx, "error.close_confirm_required")}}
		}),
		refused("close-error-password", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Close = FormProps{Errors: map[string]string{"password": views.T(ctx, "error.password_wrong")}}
		}),
		refused("close-error-password-required", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Close = FormProps{Errors: map[string]string{"password": views.T(ctx, "error.required")}}
		}),
		refused("close-error-rate-limited", func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Close = FormProps{FormError: views.T(ctx, "error.login_rate_limited")}
		}),
		flashed("close-link-sent", "success", "flash.close_link_sent", func(ctx context.Context, f views.Fixture) SettingsProps {
			g := galleryFull
			g.password, g.onlyProvider = false, true
			return gallerySettings(ctx, f, g)
		}),
		closeLink("close-link", func(ctx context.Context, f views.Fixture) CloseLinkProps {
			return CloseLinkProps{Token: galleryToken, Email: "a***@example-company.co.uk", Balance: f.Money(galleryFull.balance), HasBalance: true}
		}),
		closeLink("close-link-no-balance", func(ctx context.Context, f views.Fixture) CloseLinkProps {
			return CloseLinkProps{Token: galleryToken, Email: "m***@demo.test", Balance: f.Money(0)}
		}),
		closeLink("close-link-error-confirm", func(ctx context.Context, f views.Fixture) CloseLinkProps {
			return CloseLinkProps{Token: galleryToken, Email: "a***@example-company.co.uk", Balance: f.Money(galleryFull.balance), HasBalance: true,
				Form: FormProps{Errors: map[string]string{"confirm": views.T(ctx, "error.close_confirm_required")}}}
		}),
		closeLink("close-link-invalid", func(ctx context.Context, f views.Fixture) CloseLinkProps {
			return CloseLinkProps{Invalid: views.T(ctx, "error.close_link_invalid")}
		}),
		unsubscribe("unsubscribe-one-kind", func(ctx context.Context, f views.Fixture) UnsubscribeProps {
			return UnsubscribeProps{Action: galleryUnsubscribePath, Kind: "newsletters", Stops: []string{views.T(ctx, "subscriptions.newsletters")}}
		}),
		unsubscribe("unsubscribe-every-kind", func(ctx context.Context, f views.Fixture) UnsubscribeProps {
			return UnsubscribeProps{Action: galleryUnsubscribePath, Stops: galleryStops(ctx)}
		}),
		unsubscribe("unsubscribe-done", func(ctx context.Context, f views.Fixture) UnsubscribeProps {
			return UnsubscribeProps{Action: galleryUnsubscribePath, Kind: "newsletters", Stops: []string{views.T(ctx, "subscriptions.newsletters")}, Done: true}
		}),
		unsubscribe("unsubscribe-done-every-kind", func(ctx context.Context, f views.Fixture) UnsubscribeProps {
			return UnsubscribeProps{Action: galleryUnsubscribePath, Stops: galleryStops(ctx), Done: true}
		}),
	}
	// Every refusal of a picture upload.
	for _, e := range []struct {
		name, id string
		data     map[string]any
	}{
		{"required", "error.picture_required", nil},
		{"too-large", "error.picture_too_large", map[string]any{"Max": 3}},
		{"type", "error.picture_type", nil},
		{"script", "error.picture_script", nil},
		{"polyglot", "error.picture_polyglot", nil},
		{"unreadable", "error.picture_unreadable", nil},
		{"dimensions", "error.picture_dimensions", map[string]any{"Max": 8192}},
		{"pixels", "error.picture_pixels", nil},
		{"busy", "error.picture_busy", nil},
		{"rate-limited", "error.picture_rate_limited", map[string]any{"Max": 10}},
		{"too-many", "error.picture_too_many", map[string]any{"Max": 5}},
	} {
		states = append(states, refused("picture-error-"+e.name, func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.PicturesForm = FormProps{Errors: map[string]string{"file": views.Tf(ctx, e.id, e.data)}}
		}))
	}
	// Every refusal of a new username.
	for _, e := range []struct {
		name, value, id string
		data            map[string]any
	}{
		{"required", "", "error.required", nil},
		{"characters", "_alex smith!", "error.username_characters", nil},
		{"length", "al", "error.username_length", map[string]any{"Min": 3, "Max": 30}},
		{"reserved", "admin", "error.username_reserved", nil},
		{"taken", "alex", "error.username_taken", nil},
	} {
		states = append(states, refused("username-error-"+e.name, func(ctx context.Context, f views.Fixture, p *SettingsProps) {
			p.Username = FormProps{Values: map[string]string{"username": e.value}, Errors: map[string]string{"username": views.Tf(ctx, e.id, e.data)}}
		}))
	}
	return states
}

const (
	galleryToken           = "gallery-close-link-token"
	galleryUnsubscribePath = "/unsubscribe/00000000-0000-4000-8000-0000000000a1/00000000-0000-4000-d000-000000000001/3f2a9c"
)

// galleryMember is what the settings page shows of a member.
type galleryMember struct {
	password     bool // has a password
	onlyProvider bool // logs in through Google alone
	named        bool // first and last name, username, address and about answers given
	connections  bool // the panel offers sign-in providers
	pictures     int
	targets      bool // the instance has other panels to move to
	balance      int64
}

// galleryFull is a member who has filled in everything, on a panel with every option.
var galleryFull = galleryMember{password: true, named: true, connections: true, pictures: 3, targets: true, balance: 4250}

// gallerySettings builds the page as the profile module does.
func gallerySettings(ctx context.Context, f views.Fixture, g galleryMember) SettingsProps {
	p := SettingsProps{
		Email:        "alexandra.k@example.com",
		Profile:      FormProps{Values: map[string]string{"languageCode": f.Lang}},
		Username:     FormProps{Values: map[string]string{}},
		Address:      FormProps{Values: map[string]string{}},
		About:        FormProps{Values: map[string]string{}},
		HasPassword:  g.password,
		MaxPictureMB: 3, MaxPictures: 5,
		Balance: f.Money(g.balance), HasBalance: g.balance > 0,
	}
	// The panel's languages: the demo panels offer two or three.
	for _, l := range views.P(ctx).Languages {
		p.Languages = append(p.Languages, Option{Value: l.Code, Label: l.Name})
	}
	if g.named {
		p.Profile.Values["firstName"], p.Profile.Values["lastName"] = "Alexandra", "Konstantinopoulou"
		p.Username.Values["username"], p.UsernameCurrent = "alexandra_k", "alexandra_k"
		p.Address.Values = galleryAddress(f)
		p.About.Values = map[string]string{"dateOfBirth": "1988-04-17", "gender": "female", "householdSize": "3", "smartFuelCard": "7077 1234 5678"}
		p.LocationLabel = galleryPlaces(f)[0]
	}
	p.HasPostcodes = strings.ToUpper(f.Currency) == "GBP" // the northwind demo has a postcode list
	if g.connections {
		p.Connections = []accounts.Connection{
			{Provider: "google", Label: "Google", Connected: true, CanDisconnect: !g.onlyProvider},
			{Provider: "facebook", Label: "Facebook"},
			{Provider: "twitter", Label: "X (Twitter)"},
		}
	}
	for i := range g.pictures {
		pics := []string{"pet-cat", "pet-dog", "pet-rabbit", "pet-bird", "pet-fish"}
		p.Pictures = append(p.Pictures, PictureItem{Key: fmt.Sprintf("%064x", i+1), URL: "/static/img/demo/" + pics[i%len(pics)] + ".svg", Main: i == 0})
	}
	for i, k := range []string{"surveyInvitations", "newsletters", "reminders"} {
		p.Subscriptions = append(p.Subscriptions, SubscriptionItem{Name: k, On: i != 1})
	}
	if g.targets {
		p.Targets = []InstanceTarget{
			{Key: "demo-plus", Name: "Canvass Demo Plus", Currency: f.Currency, BalanceMoves: true, Allowed: true},
			{Key: "eurozone-opinions", Name: "Eurozone Opinions: the panel for households across the euro area", Currency: "EUR", Allowed: g.balance == 0},
		}
	}
	return p
}

func galleryPostcode(f views.Fixture) string {
	if strings.ToUpper(f.Currency) == "GBP" {
		return "SW1A 1AA"
	}
	return "94110"
}

// galleryPlaces are the places a postcode of the panel's list matches.
func galleryPlaces(f views.Fixture) []string {
	if strings.ToUpper(f.Currency) == "GBP" {
		return []string{"SW1A 1AA, Westminster, London", "SW1A 1AA, St James's, City of Westminster, Greater London", "SW1A 1AA, Buckingham Gate"}
	}
	return []string{"94110, San Francisco, CA", "94110, Mission District, San Francisco, California", "94110, Bernal Heights"}
}

func galleryAddress(f views.Fixture) map[string]string {
	if strings.ToUpper(f.Currency) == "GBP" {
		return map[string]string{"addressLine1": "Flat 14, Konstantinopoulou House, 221 Long Acre Road", "addressLine2": "Covent Garden",
			"city": "London", "region": "Greater London", "postcode": "WC2E 9RA", "country": "GB"}
	}
	return map[string]string{"addressLine1": "1234 Valencia Street, Apartment 56", "city": "San Francisco", "region": "California", "postcode": "94110", "country": "US"}
}

func galleryStops(ctx context.Context) []string {
	var out []string
	for _, k := range []string{"surveyInvitations", "newsletters", "reminders"} {
		out = append(out, views.T(ctx, "subscriptions."+k))
	}
	return out
}

// galleryMoneyString is an amount as the API writes it (42.50), for messages that quote it
// with its currency code.
func galleryMoneyString(minor int64) string {
	return fmt.Sprintf("%d.%02d", minor/100, minor%100)
}
