// Package gallery is the development gallery's own pages (/_dev/gallery): the index of every
// state the view packages list, and the frame that shows one state at a chosen width.
package gallery

import (
	"github.com/canvass/canvass/views"
	"github.com/canvass/canvass/views/accounts"
	"github.com/canvass/canvass/views/console"
	campaignviews "github.com/canvass/canvass/views/console/campaigns"
	memberviews "github.com/canvass/canvass/views/console/members"
	moneyviews "github.com/canvass/canvass/views/console/money"
	panelviews "github.com/canvass/canvass/views/console/panels"
	resultviews "github.com/canvass/canvass/views/console/results"
	webhookviews "github.com/canvass/canvass/views/console/webhooks"
	"github.com/canvass/canvass/views/feed"
	"github.com/canvass/canvass/views/home"
	"github.com/canvass/canvass/views/mail"
	"github.com/canvass/canvass/views/mobile"
	"github.com/canvass/canvass/views/offers"
	"github.com/canvass/canvass/views/onboarding"
	"github.com/canvass/canvass/views/pages"
	"github.com/canvass/canvass/views/profile"
	"github.com/canvass/canvass/views/redemptions"
	"github.com/canvass/canvass/views/referrals"
	"github.com/canvass/canvass/views/surveys"
	"github.com/canvass/canvass/views/wallet"
)

// Sections are every view package's gallery states, in the order the index shows them: the
// member's pages as the navigation orders them, then visitors', errors, the console, mail. A
// new view package with pages adds its Gallery here, once.
func Sections() []views.GallerySection {
	return []views.GallerySection{
		{Module: "feed", States: feed.Gallery()},
		{Module: "home", States: home.Gallery()},
		{Module: "surveys", States: surveys.Gallery()},
		{Module: "onboarding", States: onboarding.Gallery()},
		{Module: "offers", States: offers.Gallery()},
		{Module: "redemptions", States: redemptions.Gallery()},
		{Module: "wallet", States: wallet.Gallery()},
		{Module: "referrals", States: referrals.Gallery()},
		{Module: "mobile", States: mobile.Gallery()},
		{Module: "profile", States: profile.Gallery()},
		{Module: "accounts", States: accounts.Gallery()},
		{Module: "pages", States: pages.Gallery()},
		{Module: "console", States: console.Gallery()},
		{Module: "console-panels", States: panelviews.Gallery()},
		{Module: "console-campaigns", States: campaignviews.Gallery()},
		{Module: "results", States: resultviews.Gallery()},
		{Module: "console-members", States: memberviews.Gallery()},
		{Module: "console-money", States: moneyviews.Gallery()},
		{Module: "console-webhooks", States: webhookviews.Gallery()},
		{Module: "mail", States: mail.Gallery()},
	}
}
