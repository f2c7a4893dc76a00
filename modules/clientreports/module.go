// Package clientreports owns client error reporting (spec sections 7 and 8): the reports
// pages and islands send to POST /api/v1/public/client/{level} when something fails in the
// browser, counted per panel by fingerprint so identical reports cost a counter, not a row;
// and what operators read of them (`canvass errors list|top`).
package clientreports

import (
	"context"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/clientreports/appclient"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Default bounds per minute. A page sends each distinct report once and the reporter stops
// after a few, so a member's browser stays far below; an address is shared by several
// members behind one network.
const (
	DefaultIPPerMinute    = 120
	DefaultTokenPerMinute = 30
)

// maxUserAgent bounds the stored User-Agent (the edge already bounds headers at 2,048).
const maxUserAgent = 500

// Deps are what the module needs from the app.
type Deps struct {
	DB  *gorm.DB
	Log *slog.Logger
	// Limiter counts reports per client IP and per pp-token; nil turns the limits off.
	Limiter *ratelimit.Limiter
	// IPPerMinute and TokenPerMinute override the defaults (tests lower them).
	IPPerMinute, TokenPerMinute int
}

type Module struct {
	store   *Store
	log     *slog.Logger
	limiter *ratelimit.Limiter
	perIP   int
	perTok  int
	now     func() time.Time
}

func New(d Deps) *Module {
	m := &Module{store: NewStore(d.DB), log: d.Log, limiter: d.Limiter, perIP: d.IPPerMinute, perTok: d.TokenPerMinute, now: time.Now}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.perIP <= 0 {
		m.perIP = DefaultIPPerMinute
	}
	if m.perTok <= 0 {
		m.perTok = DefaultTokenPerMinute
	}
	return m
}

// Routes lists the module's calls.
func (m *Module) Routes(r fiber.Router) {
	// Error reporting (spec section 7): public, visitors report too; a member's pp-token
	// (header or cookie) ties the report to them.
	r.Post("/api/v1/public/client/:level", m.apiReport)
}

// Store gives the CLI and tests the module's queries.
func (m *Module) Store() *Store { return m.store }

// EraseMember removes a closing member's kept reports (profile.Eraser).
func (m *Module) EraseMember(_ context.Context, tx *gorm.DB, participantID string) error {
	return m.store.Erase(tx, participantID)
}

// POST /api/v1/public/client/{level}: 204 once counted; 400 naming the wrong field or level,
// 413 over MaxBody, 415 without JSON, 429 past the limits. The body is checked before the
// limits are counted, so a refused report costs no database work.
func (m *Module) apiReport(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	if panel == nil {
		return web.NotFound()
	}
	if !web.IsJSONRequest(c) {
		return web.Fail(fiber.StatusUnsupportedMediaType, "error.unsupported_media_type", nil)
	}
	p, err := Parse(c.Params("level"), c.Body())
	if err != nil {
		return err
	}
	member := web.MemberOf(c)
	if err := m.limit(c, member); err != nil {
		return err
	}
	cl := appclient.Read(c)
	sample := Report{
		RequestID: c.RequestID(), Href: p.Href, UserAgent: clip(c.Get(fiber.HeaderUserAgent), maxUserAgent),
		AppName: cl.Name, AppLang: cl.Lang, ViewportWidth: cl.ViewportWidth, ViewportHeight: cl.ViewportHeight,
		DPR: cl.DPR, NativeApp: cl.Native,
	}
	if member != nil {
		sample.ParticipantID = &member.ParticipantID
	}
	rec, err := m.store.Record(c.Context(), Occurrence{PanelID: panel.ID, Payload: p, Sample: sample, At: m.now()})
	if err != nil {
		return err
	}
	if rec.Sampled {
		m.log.Info("client report", "request_id", c.RequestID(), "panel", panel.Key, "level", p.Level, "name", p.Name,
			"message", clip(p.Message, 200), "source", p.Source, "lineno", p.Lineno, "error_id", rec.ErrorID, "count", rec.Count)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// limit counts the report against the client's address, then against the member's session
// (one per pp-token; a visitor has none). Past either bound it is a 429.
func (m *Module) limit(c fiber.Ctx, member *web.Member) error {
	if m.limiter == nil {
		return nil
	}
	n, err := m.limiter.Hit(c.Context(), "client-report:ip:"+c.IP(), time.Minute)
	if err != nil {
		return err
	}
	if n > m.perIP {
		return web.Fail(fiber.StatusTooManyRequests, "error.rate_limited", nil)
	}
	if member == nil {
		return nil
	}
	// The session's id, never the token itself: tokens are kept only as hashes.
	n, err = m.limiter.Hit(c.Context(), "client-report:session:"+member.SessionID, time.Minute)
	if err != nil {
		return err
	}
	if n > m.perTok {
		return web.Fail(fiber.StatusTooManyRequests, "error.rate_limited", nil)
	}
	return nil
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
