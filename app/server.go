package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/apidocs"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/clientreports"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/events"
	"github.com/canvass/canvass/modules/feed"
	"github.com/canvass/canvass/modules/gallery"
	"github.com/canvass/canvass/modules/home"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/metrics"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/onboarding"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/results"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/modules/webhooks"
	"github.com/canvass/canvass/static"
	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/requestid"
	fiberstatic "github.com/gofiber/fiber/v3/middleware/static"
	"gorm.io/gorm"
)

// App is the wired server: every module over one database.
type App struct {
	Fiber   *fiber.App
	Kit     *web.Kit
	Tenancy *tenancy.Module
	// SignIn is each panel's sign-in providers and captcha (the tenant file's sign_in and
	// captcha parts); Accounts signs members in with them.
	SignIn   *signinconfig.Module
	Accounts *accounts.Module
	// Profile is the member's profile and settings: pictures, address, subscriptions and bulk
	// mail, moving to another panel and closing the account.
	Profile *profile.Module
	// Campaigns is the catalogue and the audience rule; Feed the member feed; Surveys the
	// survey engine and screens.
	Campaigns *campaigns.Module
	Feed      *feed.Module
	Surveys   *surveys.Module
	Events    *events.Module
	Wallet    *wallet.Module
	Home      *home.Module
	Postcodes *postcodes.Module
	Mobile    *mobile.Module
	// Redemptions pays balances out (options, payout details, redeem, operators' lifecycle).
	Redemptions *redemptions.Module
	// Competitions keeps members' entries into competition campaigns' prize draws and draws them.
	Competitions *competitions.Module
	// Onboarding lets visitors answer the onboarding campaigns before they become members.
	Onboarding *onboarding.Module
	// Referrals: members' invitations of friends and their rewards, partners' codes, the feed's cards.
	Referrals *referrals.Module
	Offers    *offers.Module
	// ClientReports counts the errors pages and islands report from browsers.
	ClientReports *clientreports.Module
	// APIDocs publishes the OpenAPI document of every API family (/api/openapi.json, /api/docs).
	APIDocs *apidocs.Module
	// Console is the operator console, served on its own host only (CANVASS_CONSOLE_HOST).
	Console *console.Module
	// Webhooks sends each panel's finished runs to its owners' https URLs (and is the
	// console's webhooks part).
	Webhooks *webhooks.Module
	// Gallery shows every page state from fixtures (/_dev/gallery); nil in production.
	Gallery *gallery.Module
	// Metrics is this server's Prometheus registry (served on CANVASS_METRICS_ADDR when set).
	Metrics *metrics.Metrics
	// Jobs is the background job queue (mail, periodic clean-up), worked by `canvass serve`.
	Jobs *jobs.Queue
	// dev holds the local development sign-in and captcha providers (demo outside production).
	dev *devProviders
	// partner is the demo's partner site that frames the widgets (demo outside production).
	partner *demoPartner
	// addr is where the server listens (CANVASS_ADDR): the demo's partner site is on its port.
	addr string
}

// Options are what a server needs besides the config (tests swap the mail sender).
type Options struct {
	Mail mailer.Sender
	// Metrics, when set, is the registry to count in (one registry per App: it cannot be shared).
	Metrics *metrics.Metrics
	// WorkJobs makes this App one that works background jobs (after App.Jobs.Start):
	// `canvass serve`, and tests that run them. Otherwise it only inserts them.
	WorkJobs bool
	// WebhookClient, when set, sends the panels' webhooks (tests: one trusting their TLS
	// receiver); WebhooksAllowPrivate lets webhooks reach loopback and private addresses
	// outside development too (tests whose receiver listens on loopback).
	WebhookClient        *http.Client
	WebhooksAllowPrivate bool
	// ResultsExportLimit, when set, is the most responses a results export downloads at once
	// (tests: a few, so a small campaign's exports are prepared as jobs); 0: 10,000.
	ResultsExportLimit int
}

// embeddedLocales parses the embedded message files once per process (every App of a test
// binary shares them; parsing took a second under the race detector).
var embeddedLocales = sync.OnceValues(func() (*web.Locales, error) { return web.NewLocales(locales.FS, nil) })

// NewApp wires the modules in the order of ARCHITECTURE.md section 1.
func NewApp(cfg Config, db *gorm.DB, log *slog.Logger, opts Options) (*App, error) {
	parsed, err := embeddedLocales()
	if err != nil {
		return nil, err
	}
	loc := parsed.WithLog(log)
	assets, err := static.Load(static.FS)
	if err != nil {
		return nil, fmt.Errorf("load asset manifest: %w", err)
	}
	if !assets.Built() {
		log.Warn("island bundles are not built (run `make build`): pages render without JavaScript")
	}
	mail := opts.Mail
	if mail == nil {
		if cfg.SMTPURL == "" && cfg.Production() {
			log.Warn("CANVASS_SMTP_URL is empty: mail is written to the log")
		}
		if mail, err = mailer.New(mailer.Config{URL: cfg.SMTPURL, From: cfg.MailFrom}, log); err != nil {
			return nil, err
		}
	}
	kit := web.NewKit(cfg.Env, cfg.Secret, log, loc, assets)
	limiter := ratelimit.New(db)
	a := &App{Kit: kit, Metrics: opts.Metrics, addr: cfg.Addr}
	if a.Metrics == nil {
		a.Metrics = metrics.New()
	}
	mail = countedMail{next: mail, metrics: a.Metrics}
	if a.Jobs, err = newJobs(cfg, db, log, kit, mail, a.Metrics, opts.WorkJobs); err != nil {
		return nil, err
	}
	a.Tenancy = tenancy.New(db, kit)
	if cfg.PanelCacheTTL > 0 {
		a.Tenancy.CacheFor(cfg.PanelCacheTTL)
	}
	a.SignIn = signinconfig.New(signinconfig.Deps{DB: db, Kit: kit, CacheTTL: cmp.Or(cfg.PanelCacheTTL, tenancy.DefaultCacheTTL)})
	accountsDeps := accounts.Deps{
		DB: db, Kit: kit, Limiter: limiter, Mail: mail, Outbox: a.Jobs, Tasks: a.Jobs, Log: log, BaseURL: cfg.BaseURL,
		Social: social.New(nil), Captcha: captcha.New(nil), SignIns: a.SignIn,
	}
	if cfg.Demo && !cfg.Production() {
		if a.dev, err = newDevProviders(cfg.Addr); err != nil {
			return nil, err
		}
		accountsDeps.LocalCaptcha = a.dev.captcha
		// Like a real provider's registered redirect URIs: back to a panel's own host only.
		a.dev.signIn.RestrictRedirects(func(u *url.URL) bool {
			_, err := a.Tenancy.PanelByHost(context.Background(), u.Host)
			return err == nil
		})
		if a.partner, err = newDemoPartner(cfg.Addr); err != nil {
			return nil, err
		}
	}
	a.Accounts = accounts.New(accountsDeps)
	a.Profile = profile.New(profile.Deps{
		DB: db, Kit: kit, Log: log, Limiter: limiter, Accounts: a.Accounts, Mail: mail, Outbox: a.Jobs, BaseURL: cfg.BaseURL,
		Storage: profile.DiskStorage{Dir: cfg.UploadsDir}, UnsubscribeMailto: cfg.UnsubscribeMailto,
	})
	a.Accounts.SetProfiles(a.Profile)              // a login's and a sign-up's answer carry the profile
	a.Accounts.JoinMember(a.Profile.PictureJoin()) // the top bar's picture comes with the session
	a.Accounts.ObserveLogins(a.Metrics.Login)
	a.Jobs.HandleTask(accounts.TaskPasswordReset, a.Accounts.Service().RunPasswordReset)
	a.Wallet = wallet.New(wallet.Deps{DB: db, Kit: kit, Log: log, Guard: a.Accounts, PanelOf: accounts.PanelOfParticipant})
	a.Accounts.JoinMember(a.Wallet.MemberJoin()) // the top bar's balance comes with the session
	a.Campaigns = campaigns.New(campaigns.Deps{DB: db, Log: log, Standing: surveys.Standing{}})
	a.Surveys = surveys.New(surveys.Deps{
		DB: db, Kit: kit, Log: log, Guard: a.Accounts, Catalogue: a.Campaigns, Audience: a.Campaigns.Audience,
		Pay: completionPayer{a.Wallet}, WelcomeDone: welcomeDone(a, log),
	})
	a.Feed = feed.New(feed.Deps{
		DB: db, Kit: kit, Log: log, Guard: a.Accounts, Audience: a.Campaigns.Audience, Catalogue: a.Campaigns, Marks: a.Surveys,
	})
	a.Surveys.SetFeed(a.Feed)
	a.Onboarding = onboarding.New(onboarding.Deps{
		DB: db, Kit: kit, Log: log, Accounts: a.Accounts, Audience: a.Campaigns.Audience, Surveys: a.Surveys,
	})
	a.Accounts.SetOnboarding(a.Onboarding)
	a.Profile.OnClose(a.Onboarding.EraseMember) // the answers and email an onboarding kept
	a.Events = events.New(db)
	a.Postcodes = postcodes.New(postcodes.Deps{DB: db, Log: log, Limiter: limiter})
	sms, err := mobile.SenderFromURL(cfg.SMSURL, cfg.Production(), log)
	if err != nil {
		return nil, err
	}
	// The codes' texts are jobs, queued with their codes and sent by the queue through the
	// provider (counted in the metrics), which tells the module what became of each.
	a.Mobile = mobile.New(mobile.Deps{DB: db, Kit: kit, Log: log, Guard: a.Accounts, Limiter: limiter, Outbox: a.Jobs})
	sendSMSAsJobs(a, countedSMS{next: sms, metrics: a.Metrics})
	// The settings calls: postcodes for the address, the ledger for closing and moving, the
	// panels a member may move to; and every module's personal data erased on closing. The
	// forgot-password task finds its panel by key too.
	a.Profile.SetMemberSettings(profile.MemberSettings{
		Postcodes: profilePostcodes{a.Postcodes}, Ledger: profileLedger{a.Wallet}, Panels: panelsByKey{a.Tenancy},
	})
	a.Accounts.SetPanels(panelsByKey{a.Tenancy})
	a.Profile.OnClose(a.Mobile.Erase)
	a.Redemptions = redemptions.New(redemptions.Deps{
		DB: db, Kit: kit, Log: log, Guard: a.Accounts, Ledger: a.Wallet, EligibleToRedeem: a.Mobile.EligibleToRedeem,
		PanelByID: panelByID(db, a.Tenancy), PayoutKey: kit.Secret(redemptionsPayoutKeyPurpose),
	})
	a.Profile.OnClose(a.Redemptions.Erase) // saved payout details; redemptions stay, as the ledger does
	a.Competitions = competitions.New(competitions.Deps{
		DB: db, Kit: kit, Log: log, Guard: a.Accounts, Campaigns: a.Campaigns, Completions: a.Surveys, Ledger: a.Wallet,
		Panels: allPanels(db, a.Tenancy),
	})
	a.Surveys.SetCompetitionEntries(a.Competitions)
	a.Feed.AddReports(transactionReports(a.Wallet))
	a.Referrals = referrals.New(referrals.Deps{
		DB: db, Kit: kit, Log: log, Guard: a.Accounts, Members: a.Accounts, Ledger: a.Wallet, Mail: mail, Outbox: a.Jobs, Limiter: limiter,
		PanelOf: panelByID(db, a.Tenancy), BaseURL: cfg.BaseURL, Mobile: a.Mobile, Addresses: a.Profile, AddressURL: "/settings#address",
		CacheTTL: cmp.Or(cfg.PanelCacheTTL, tenancy.DefaultCacheTTL),
	})
	a.Accounts.SetJoinHooks(a.Referrals.Service())
	// The feed's cards come with the session: the referrals' rows and the member's mobile.
	a.Accounts.JoinMember(a.Referrals.MemberJoin())
	mobileJoin := a.Mobile.MemberJoin()
	mobileJoin.When = referrals.ShowsBlades // its row serves the "verify your mobile" card
	a.Accounts.JoinMember(mobileJoin)
	a.Accounts.JoinMember(a.Profile.AddressJoin(referrals.ShowsBlades)) // the "complete your address" card
	a.Profile.OnClose(a.Referrals.EraseMember)                          // the friends a member invited
	a.Feed.SetBlades(a.Referrals.FeedBlades)
	a.Offers = offers.New(offers.Deps{
		DB: db, Kit: kit, Log: log, Guard: a.Accounts, Ledger: a.Wallet, Limiter: limiter, Country: memberCountry(a.Profile),
		CacheTTL: cmp.Or(cfg.PanelCacheTTL, tenancy.DefaultCacheTTL),
	})
	a.Profile.OnClose(a.Offers.EraseMember) // the member's sub-id, offer rows and reports
	a.Profile.SetTracking(a.Offers)         // the profile's trackingIds.hasOffersId
	a.ClientReports = clientreports.New(clientreports.Deps{DB: db, Log: log, Limiter: limiter})
	a.Profile.OnClose(a.ClientReports.EraseMember) // the pages and browser a member's reports name
	a.Profile.OnClose(a.Surveys.Erase)             // what the member answered leaves every result with them
	if a.APIDocs, err = apidocs.New(log); err != nil {
		return nil, err
	}
	if a.Webhooks, err = newWebhooks(a, cfg, db, log, opts); err != nil {
		return nil, err
	}
	a.Console = console.New(console.Deps{
		DB: db, Kit: kit, Log: log, Limiter: limiter, Panels: consolePanels(db, a.Tenancy), Host: cfg.ConsoleHost,
		Development: cfg.Env == "development", Production: cfg.Production(),
		Parts: []console.Part{consolePanelSettings(a), consoleCampaigns(a), consoleResults(a, db, log, opts.ResultsExportLimit), consoleMoney(a), consoleMembers(a, kit), a.Webhooks},
	})
	a.Home = home.New(kit, a.Accounts, func(ctx context.Context) error {
		sqlDB, err := db.DB()
		if err != nil {
			return err
		}
		return sqlDB.PingContext(ctx)
	}, log)
	if !cfg.Production() {
		var panels []*web.Panel
		for _, spec := range demoPanelsFor(cfg.Addr) {
			panels = append(panels, spec.Preview())
		}
		if a.Gallery, err = gallery.New(gallery.Deps{Kit: kit, Panels: panels}); err != nil {
			return nil, err
		}
	}
	if err := watchDatabase(a, db); err != nil {
		return nil, err
	}
	sweepPeriodically(a, limiter)

	f := fiber.New(fiberConfig(cfg, kit))
	// First, so its time covers every other middleware and its status is the final one.
	f.Use(a.Metrics.Middleware(consoleRoute(cfg.ConsoleHost)))
	f.Use(requestid.New())
	f.Use(kit.AccessLog())
	if a.dev != nil {
		a.dev.mount(f)
	}
	if a.partner != nil {
		a.partner.mount(f)
	}
	f.Use(kit.SecurityHeaders())
	f.Use(kit.Recover())
	// The one rule at the edge (web/input.go): the path, headers and cookies first, before
	// the Host picks the panel; the query, form and body once the language is known and a
	// forged form post has been turned away.
	f.Use(kit.InputHeaders())
	a.Home.Health(f)
	// Static files with their build-time Brotli and gzip variants, prepared once per process
	// (static/serve.go); then every other answer compressed as the client accepts, except those
	// carrying a secret (BREACH notes in web/compress.go).
	staticFiles, err := static.Embedded()
	if err != nil {
		return nil, fmt.Errorf("prepare static files: %w", err)
	}
	if stale := staticFiles.Stale(); len(stale) > 0 {
		log.Warn("precompressed static files are older than their sources and are not served (run `make islands`)", "files", stale)
	}
	if cfg.StaticDir != "" {
		// `make dev`: what is on disk now, never cached, before the binary's own copy.
		f.Use("/static", fiberstatic.New("", fiberstatic.Config{FS: os.DirFS(cfg.StaticDir), CacheDuration: -1,
			ModifyResponse: func(c fiber.Ctx) error { c.Set(fiber.HeaderCacheControl, "no-cache"); return nil }}))
		kit.WatchAssets(os.DirFS(cfg.StaticDir))
	}
	f.Use("/static", staticFiles.Handler())
	if a.Gallery != nil {
		a.Gallery.Routes(f) // any host, before tenancy: its panel is chosen by ?panel=
	}
	// The console host is answered by the console alone, before panel tenancy (which knows no
	// such domain) and uncompressed (its forms carry a CSRF token: BREACH).
	f.Use(a.Console.Gate())
	f.Use(web.Compress())
	f.Use(a.Tenancy.Middleware())
	a.Tenancy.AssetRoutes(f)
	f.Use(a.Accounts.Session())
	f.Use(kit.Locale())
	f.Use(kit.CSRF())
	f.Use(kit.InputFields())
	f.Use(a.Referrals.Eligibility())
	a.Tenancy.Routes(f)
	a.Accounts.Routes(f)
	a.Profile.Routes(f)
	a.Feed.Routes(f)
	a.Surveys.Routes(f)
	a.Events.Routes(f)
	a.Wallet.Routes(f)
	a.Postcodes.Routes(f)
	a.Mobile.Routes(f)
	a.Redemptions.Routes(f)
	a.Competitions.Routes(f)
	a.Onboarding.Routes(f)
	a.Referrals.Routes(f)
	a.Offers.Routes(f)
	a.ClientReports.Routes(f)
	a.APIDocs.Routes(f)
	a.Home.SetFeed(a.Feed.Page)
	a.Home.SetVisitorRoot(a.Onboarding.VisitorRoot)
	a.Home.Routes(f)
	f.Use(a.Home.Fallback)
	a.Fiber = f
	return a, nil
}

// fiberConfig is the server's Fiber configuration. Behind CANVASS_TRUSTED_PROXIES, a request
// from one of them takes its client address from X-Forwarded-For (the first valid address in
// it: the proxy must set the header, not append to what the client sent) and its scheme and
// host from X-Forwarded-Proto and X-Forwarded-Host; from anywhere else, and with no proxies
// configured, those headers are ignored and the client is the connection's peer.
func fiberConfig(cfg Config, kit *web.Kit) fiber.Config {
	fc := fiber.Config{
		AppName:      "canvass",
		ErrorHandler: kit.ErrorHandler,
		BodyLimit:    4 << 20,
		ReadTimeout:  30 * time.Second,
		WriteTimeout: 60 * time.Second,
		IdleTimeout:  120 * time.Second,
	}
	if len(cfg.TrustedProxies) > 0 {
		fc.TrustProxy = true
		fc.TrustProxyConfig = fiber.TrustProxyConfig{Proxies: cfg.TrustedProxies}
		fc.ProxyHeader = fiber.HeaderXForwardedFor
		fc.EnableIPValidation = true // a header naming no valid address falls back to the peer's address
	}
	return fc
}

// consolePanels lists every panel for the console (id, key, name).
func consolePanels(db *gorm.DB, t *tenancy.Module) console.Panels {
	list := allPanels(db, t)
	return func(ctx context.Context) ([]console.PanelRef, error) {
		panels, err := list(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]console.PanelRef, len(panels))
		for i, p := range panels {
			out[i] = console.PanelRef{ID: p.ID, Key: p.Key, Name: p.Name}
		}
		return out, nil
	}
}

// memberCountry is the signed-in member's country for the offers provider's lists: the
// country of their postal address, "" when they have given none.
func memberCountry(p *profile.Module) func(c fiber.Ctx) string {
	return func(c fiber.Ctx) string {
		a, err := p.Service().PostalAddress(c.Context(), web.MemberOf(c).ParticipantID)
		if err != nil || a == nil {
			return ""
		}
		return a.Country
	}
}

// transactionReports lets user/reports list the wallet's transaction reports beside the
// campaign reports, without either module knowing the other.
func transactionReports(w *wallet.Module) feed.ReportSource {
	return func(ctx context.Context, participantID string) ([]web.ReportJSON, error) {
		list, err := w.Reports(ctx, participantID)
		if err != nil {
			return nil, err
		}
		out := make([]web.ReportJSON, 0, len(list))
		for _, r := range list {
			out = append(out, w.ReportJSON(r))
		}
		return out, nil
	}
}

// completionPayer credits a completed campaign's reward through the ledger, in the survey
// engine's transaction, once per member and campaign.
type completionPayer struct{ w *wallet.Module }

func (p completionPayer) PayCompletion(tx *gorm.DB, pay surveys.Payment) error {
	_, _, err := p.w.CreditTx(tx, wallet.Movement{
		Panel: pay.Panel, ParticipantID: pay.ParticipantID, Amount: pay.RewardMinor, Currency: pay.Currency,
		Origin: wallet.OriginCampaign, Key: wallet.CampaignKey(pay.CampaignID), CampaignID: pay.CampaignID,
		Competition: pay.Competition, Title: pay.Title,
	})
	return err
}

// welcomeDone is the survey engine's welcome hook: accounts records the completion in the
// profile, then referrals applies its panel's rules (eligibility, the friend's reward). The
// member's completion stands if referrals fails: it is logged, and the referrer's page settles
// a reward missed here (referrals.Service.Settle).
func welcomeDone(a *App, log *slog.Logger) surveys.WelcomeDone {
	return func(ctx context.Context, participantID string) error {
		if err := a.Accounts.Service().MarkWelcomeCompleted(ctx, participantID); err != nil {
			return err
		}
		if err := a.Referrals.Service().WelcomeCompleted(ctx, participantID); err != nil {
			log.Error("referrals: welcome campaign completed", "participant", participantID, "err", err)
		}
		return nil
	}
}

// Each module declares what it needs of the others; these hold the wiring to them.
var (
	_ campaigns.StandingJoin     = surveys.Standing{}
	_ surveys.Catalogue          = (*campaigns.Module)(nil)
	_ surveys.Audience           = (*campaigns.Audience)(nil)
	_ surveys.Feed               = (*feed.Module)(nil)
	_ surveys.Payer              = completionPayer{}
	_ surveys.CompetitionEntries = (*competitions.Module)(nil)
	_ feed.Audience              = (*campaigns.Audience)(nil)
	_ feed.Catalogue             = (*campaigns.Module)(nil)
	_ feed.Marks                 = (*surveys.Module)(nil)
	_ competitions.Campaigns     = (*campaigns.Module)(nil)
	_ competitions.Completions   = (*surveys.Module)(nil)
	_ onboarding.Accounts        = (*accounts.Module)(nil)
	_ onboarding.Audience        = (*campaigns.Audience)(nil)
	_ onboarding.Surveys         = (*surveys.Module)(nil)
	_ accounts.Onboarding        = (*onboarding.Module)(nil)
	_ accounts.Profiles          = (*profile.Module)(nil)
	_ accounts.SignIns           = (*signinconfig.Module)(nil)
	_ accounts.Panels            = panelsByKey{}
	_ profile.Accounts           = (*accounts.Module)(nil)
	_ referrals.Addresses        = (*profile.Module)(nil)
	_ accounts.JoinHooks         = (*referrals.Service)(nil)
	_ referrals.Members          = (*accounts.Module)(nil)
	_ referrals.Ledger           = (*wallet.Module)(nil)
	_ offers.Ledger              = (*wallet.Module)(nil)
	_ profile.Tracking           = (*offers.Module)(nil)
	_ referrals.Mobile           = (*mobile.Module)(nil)
	_ profile.Postcodes          = profilePostcodes{}
	_ profile.Ledger             = profileLedger{}
	_ profile.Panels             = panelsByKey{}
	_ profile.Eraser             = (*mobile.Module)(nil).Erase
	_ profile.Eraser             = (*redemptions.Module)(nil).Erase
	_ profile.Eraser             = (*clientreports.Module)(nil).EraseMember
	_ profile.Eraser             = (*surveys.Module)(nil).Erase
	_ results.Reader             = (*surveys.Module)(nil)
	_ results.Tasks              = (*jobs.Queue)(nil)
	_ jobs.TaskHandler           = (*results.Part)(nil).RunExport
	_ webhooks.Responses         = (*surveys.Module)(nil)
	_ webhooks.Catalogue         = (*campaigns.Module)(nil)
	_ webhooks.Tasks             = (*jobs.Queue)(nil)
	_ surveys.FinishHook         = (*webhooks.Module)(nil).OnFinished
	_ jobs.TaskHandler           = (*webhooks.Module)(nil).Deliver
)
