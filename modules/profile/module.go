// Package profile owns the member's profile and settings: the profile (names, language, username,
// metadata and location), the postal address, pictures, bulk mail subscriptions and unsubscribe
// links, the settings page, moving to another panel and closing the account. The account itself
// (account holder, participant, sessions, mailed links) is the accounts module's: this one reads
// and writes it only through the Accounts interface it declares.
package profile

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	accountviews "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Accounts is what the module needs of accounts (wired in app/server.go).
type Accounts interface {
	Guard
	Members
	Credentials
	Closing
}

// Guard is the private access class for pages and the signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
}

// Members reads and writes the account holder and participant rows (the profile's fields, the
// username, the metadata) and lists a panel's active members (bulk mail).
type Members interface {
	Holder(ctx context.Context, id string) (*accounts.AccountHolder, error)
	Participant(ctx context.Context, id string) (*accounts.Participant, error)
	ParticipantOf(ctx context.Context, holderID string) (*accounts.Participant, error)
	ConnectionsOf(ctx context.Context, holderID string) ([]string, error)
	IsMember(ctx context.Context, panel *web.Panel, email string) (bool, error)
	ActiveMembers(ctx context.Context, panelID, after string, limit int) ([]accounts.ActiveMember, error)
	SetProfileFields(ctx context.Context, holderID string, fields map[string]string) error
	SetUsername(ctx context.Context, panelID, holderID, username string) error
	UpdateMetadata(ctx context.Context, participantID string, fn func(md accounts.Metadata) error) error
}

// Credentials are the settings page's password and sign-in sections, and the password a member
// enters again to close or move their account.
type Credentials interface {
	ChangePassword(ctx context.Context, m *web.Member, oldPassword, newPassword string) error
	SendPasswordLink(c fiber.Ctx) error
	SettingsConnections(c fiber.Ctx, connected []string, hasPassword bool) ([]accountviews.Connection, error)
	Reprove(ctx context.Context, ah *accounts.AccountHolder, password string) error
}

// Closing is accounts' part of closing and moving an account: the mailed closing link, the
// erasure of its rows in the closing's transaction, the confirmation, and a new membership
// signed in elsewhere.
type Closing interface {
	RequestCloseLink(ctx context.Context, panel *web.Panel, m *web.Member, lang string, link accounts.Link) error
	CloseLinkToken(ctx context.Context, panel *web.Panel, token string) (*accounts.AccountToken, *accounts.AccountHolder, error)
	SpendTokenTx(tx *gorm.DB, t *accounts.AccountToken, now time.Time) error
	EraseTx(tx *gorm.DB, ah *accounts.AccountHolder, p *accounts.Participant, now time.Time) error
	ForgetLimits(ctx context.Context, panel *web.Panel, before *accounts.AccountHolder)
	MailClosed(ctx context.Context, panel *web.Panel, before *accounts.AccountHolder, participantID, lang, joinLink string) error
	NewMembershipTx(tx *gorm.DB, ah *accounts.AccountHolder, from *accounts.Participant, to *web.Panel, now time.Time) (*accounts.AccountHolder, *accounts.Participant, error)
	Issue(ctx context.Context, ah *accounts.AccountHolder, p *accounts.Participant, client accounts.Client) (*accounts.Issued, error)
	NewHandoff(ctx context.Context, holderID string) (string, error)
}

// Deps are what the module needs from the app.
type Deps struct {
	DB       *gorm.DB
	Kit      *web.Kit
	Log      *slog.Logger
	Limiter  *ratelimit.Limiter
	Accounts Accounts
	// Outbox queues bulk mails (the job queue); nil sends them at once through Mail.
	Mail   mailer.Sender
	Outbox mailer.Outbox
	// BaseURL, when set, is the origin of mailed links; otherwise the panel's own origin.
	BaseURL string
	// Storage keeps profile pictures (CANVASS_UPLOADS_DIR on the local disk by default).
	Storage Storage
	// UnsubscribeMailto, when set, is the mailbox bulk mails' List-Unsubscribe also names.
	UnsubscribeMailto string
}

type Module struct {
	kit      *web.Kit
	svc      *Service
	accounts Accounts
	baseURL  string
}

// Service is the module's logic: no Fiber, no templ; the account through accounts.
type Service struct {
	store    *Store
	accounts Accounts
	limiter  *ratelimit.Limiter
	log      *slog.Logger
	now      func() time.Time
	outbox   mailer.Outbox
	locales  *web.Locales
	// tracking fills the profile's trackingIds (nil: none).
	tracking Tracking
	// memberSettings are what the settings calls need (member_settings.go).
	memberSettings
}

// New builds the module, adds the settings page to the navigation and the member's picture to
// the top bar (its row comes with the session: PictureJoin).
func New(d Deps) *Module {
	outbox := d.Outbox
	if outbox == nil {
		outbox = mailer.SendNow{Sender: d.Mail}
	}
	svc := &Service{store: NewStore(d.DB), accounts: d.Accounts, limiter: d.Limiter, log: d.Log, now: time.Now, outbox: outbox, locales: d.Kit.Locales}
	svc.memberSettings = memberSettings{storage: d.Storage, unsubscribeKey: d.Kit.Secret(unsubscribePurpose), unsubscribeMailto: d.UnsubscribeMailto}
	d.Kit.AddNav(web.NavEntry{Href: "/settings", Icon: "settings", LabelID: "nav.settings", Order: 90})
	d.Kit.OnPage(topBarPicture)
	return &Module{kit: d.Kit, svc: svc, accounts: d.Accounts, baseURL: d.BaseURL}
}

// Service exposes the module's logic to app wiring (demo data, CLI, tests).
func (m *Module) Service() *Service { return m.svc }

// Routes lists every route of the member's profile and settings.
func (m *Module) Routes(r fiber.Router) {
	private := m.accounts.Private()
	api := m.accounts.RequireMember()

	// A bulk mail's unsubscribe link (spec section 2: open to all; the hash is the proof), and
	// the mailed link a member without a password closes their account with.
	r.Get("/unsubscribe/:panelUuid/:accountHolderUuid/:hash", m.unsubscribePage)
	r.Post("/unsubscribe/:panelUuid/:accountHolderUuid/:hash", m.unsubscribeSubmit)
	r.Get("/close-account", m.closeLinkPage)
	r.Post("/close-account", m.closeLinkSubmit)

	// The settings page and its sections (connecting a network is accounts').
	r.Get("/settings", private, m.settingsPage)
	r.Post("/settings", private, m.settingsSave)
	r.Post("/settings/password", private, m.settingsPassword)
	r.Post("/settings/password/mail", private, m.settingsPasswordMail)
	r.Post("/settings/username", private, m.settingsUsername)
	r.Post("/settings/address", private, m.settingsAddress)
	r.Post("/settings/address/lookup", private, m.settingsAddressLookup)
	r.Post("/settings/pictures", private, m.settingsUploadPicture)
	r.Post("/settings/pictures/:key/select", private, m.settingsSelectPicture)
	r.Post("/settings/pictures/:key/delete", private, m.settingsDeletePicture)
	r.Post("/settings/subscriptions", private, m.settingsSubscriptions)
	r.Post("/settings/about", private, m.settingsAbout)
	r.Post("/settings/location", private, m.settingsLocation)
	r.Post("/settings/change-instance", private, m.settingsChangeInstance)
	r.Post("/settings/close-account", private, m.settingsCloseAccount)
	r.Post("/settings/close-account/mail", private, m.settingsCloseLink)
	// A member's own pictures (their owner only; cached for good: the name is the content's hash).
	r.Get(PicturePath+":key", m.servePicture)

	// Account host API (spec section 7).
	r.Get("/ah/api/v1/user/profile", api, m.apiProfile)
	r.Post("/ah/api/v1/user/profile", api, m.apiSaveProfile)
	r.Get("/ah/api/v1/user/profile/jwt", api, m.apiProfileJWT)
	r.Post("/ah/api/v1/change-username", api, m.apiChangeUsername)
	r.Get("/ah/api/v1/profile/postal-address", api, m.apiPostalAddress)
	r.Post("/ah/api/v1/profile/postal-address", api, m.apiSavePostalAddress)
	r.Post("/ah/api/v1/user/profile/location", api, m.apiSaveLocation)
	r.Post("/ah/api/v1/user/profile/metadata", api, m.apiSaveMetadata)
	r.Post("/ah/api/v1/user/profile/pic", api, m.apiUploadPicture)
	r.Post("/ah/api/v1/user/profile/pic/:key", api, m.apiSelectPicture)
	r.Delete("/ah/api/v1/user/profile/pic/:key", api, m.apiDeletePicture)
	r.Get("/ah/api/v1/subscriptions", api, m.apiSubscriptions)
	r.Post("/ah/api/v1/subscriptions", api, m.apiSaveSubscriptions)
	r.Get("/ah/api/v1/can-change-instance", api, m.apiCanChangeInstance)
	r.Post("/ah/api/v1/change-instance", api, m.apiChangeInstance)
	r.Post("/ah/api/v1/close-account", api, m.apiCloseAccount)
	// Unsubscribing without signing in: the hash travels as ?hash= (the link's third part).
	r.Get("/ah/api/v1/public/unsubscribe/panel/:panel/ah/:id", m.apiUnsubscribeState)
	r.Post("/ah/api/v1/public/unsubscribe/panel/:panel/ah/:id", m.apiUnsubscribe)
	// Panel-instance API.
	r.Get("/api/v3/user/profile", api, m.apiProfile)
	r.Get("/api/:version<regex(v[12])>/:instanceCode/subscriptions", web.InstanceGuard, api, m.apiSubscriptions)
	r.Post("/api/:version<regex(v[12])>/:instanceCode/subscriptions", web.InstanceGuard, api, m.apiSaveSubscriptions)
}

// memberOf is the account holder and participant of a panel's member by participant id;
// ErrNotFound for an unknown id or another panel's member.
func (s *Service) memberOf(ctx context.Context, panelID, participantID string) (*accounts.AccountHolder, *accounts.Participant, error) {
	p, err := s.accounts.Participant(ctx, participantID)
	if err != nil {
		return nil, nil, err
	}
	if p.PanelID != panelID {
		return nil, nil, fmt.Errorf("member %s is not of panel %s: %w", participantID, panelID, ErrNotFound)
	}
	ah, err := s.accounts.Holder(ctx, p.AccountHolderID)
	if err != nil {
		return nil, nil, err
	}
	return ah, p, nil
}
