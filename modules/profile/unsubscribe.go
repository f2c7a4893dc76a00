package profile

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/url"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/profile"
	"github.com/gofiber/fiber/v3"
)

// Every bulk mail links to /unsubscribe/{panelUuid}/{accountHolderUuid}/{hash} (spec section 2):
// the hash is an HMAC of the panel and the account holder under a key of its own purpose
// (unsubscribePurpose), so the link works without signing in, for that one member, and can be
// neither guessed nor turned to another member or panel. The same three values drive the API
// (GET/POST public/unsubscribe/panel/{panel}/ah/{id}?hash=), which the mail's one-click
// List-Unsubscribe header (RFC 8058) points at.

// unsubscribePurpose derives the unsubscribe links' key from the app secret (named when accounts
// kept the subscriptions: the links already mailed keep working).
const unsubscribePurpose = "accounts-unsubscribe"

// UnsubscribeHash is the link's hash for one member of one panel: 128 bits of HMAC-SHA256, hex.
func (s *Service) UnsubscribeHash(panelID, holderID string) string {
	mac := hmac.New(sha256.New, s.unsubscribeKey)
	mac.Write([]byte(panelID + "\x00" + holderID))
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// UnsubscribePath is the page a bulk mail links to; kind, when set, is the mail's kind.
func (s *Service) UnsubscribePath(panelID, holderID string, kind MailKind) string {
	p := "/unsubscribe/" + panelID + "/" + holderID + "/" + s.UnsubscribeHash(panelID, holderID)
	if kind != "" {
		p += "?kind=" + url.QueryEscape(string(kind))
	}
	return p
}

// UnsubscribeAPIPath is the one-click address (List-Unsubscribe): the API, which takes a POST
// from the member's mail provider without cookies or a CSRF token, the hash being its proof.
func (s *Service) UnsubscribeAPIPath(panelID, holderID string, kind MailKind) string {
	q := url.Values{"hash": {s.UnsubscribeHash(panelID, holderID)}}
	if kind != "" {
		q.Set("kind", string(kind))
	}
	return "/ah/api/v1/public/unsubscribe/panel/" + panelID + "/ah/" + holderID + "?" + q.Encode()
}

// errUnsubscribeLink is a forged, altered or foreign link: a clear 403 that changes nothing.
func errUnsubscribeLink() *web.Error {
	return web.Fail(fiber.StatusForbidden, "error.unsubscribe_link_invalid", nil).WithCode("unsubscribe_link_invalid")
}

// unsubscriber is the member an unsubscribe link names, checked.
type unsubscriber struct {
	holder      *accounts.AccountHolder
	participant *accounts.Participant
}

// checkUnsubscribe checks a link's three values on this panel: another panel's uuid is a 404
// (like every cross-tenant address), a hash that is not this member's a 403, and a member that
// is not (or no longer) here a 404.
func (s *Service) checkUnsubscribe(ctx context.Context, panel *web.Panel, panelID, holderID, hash string) (*unsubscriber, error) {
	if panelID != panel.ID {
		return nil, web.NotFound()
	}
	want := s.UnsubscribeHash(panelID, holderID)
	if len(hash) != len(want) || !hmac.Equal([]byte(hash), []byte(want)) {
		return nil, errUnsubscribeLink()
	}
	ah, err := s.openHolder(ctx, panel, holderID)
	if err != nil {
		return nil, err
	}
	p, err := s.accounts.ParticipantOf(ctx, ah.ID)
	if err != nil {
		return nil, err
	}
	return &unsubscriber{holder: ah, participant: p}, nil
}

// Unsubscribe stops the named kinds, or every bulk kind when none is named.
func (s *Service) Unsubscribe(ctx context.Context, participantID string, kind MailKind) (Subscription, error) {
	changes := map[MailKind]bool{}
	for _, k := range MailKinds {
		if kind == "" || k == kind {
			changes[k] = false
		}
	}
	return s.SetSubscriptions(ctx, participantID, changes)
}

// linkKind is the kind a link or form names: "" (every kind) for "all" or nothing; anything
// else unknown is a 400.
func linkKind(field, v string) (MailKind, error) {
	if v == "" || v == "all" {
		return "", nil
	}
	k, ok := ParseMailKind(v)
	if !ok {
		return "", web.Invalid(field, "error.mail_kind_unknown", nil)
	}
	return k, nil
}

// GET /ah/api/v1/public/unsubscribe/panel/{panel}/ah/{id}?hash=: what the member receives.
func (m *Module) apiUnsubscribeState(c fiber.Ctx) error {
	u, err := m.svc.checkUnsubscribe(c.Context(), web.PanelOf(c), c.Params("panel"), c.Params("id"), c.Query("hash"))
	if err != nil {
		return err
	}
	sub, err := m.svc.Subscriptions(c.Context(), u.participant.ID)
	if err != nil {
		return err
	}
	return c.JSON(subscriptionsJSON(sub))
}

// POST /ah/api/v1/public/unsubscribe/panel/{panel}/ah/{id}?hash=[&kind=]: stop one kind (the
// query's, or a JSON body's {"kind"}) or, without one, every bulk kind. A mail provider's
// one-click POST (body List-Unsubscribe=One-Click, RFC 8058) lands here.
func (m *Module) apiUnsubscribe(c fiber.Ctx) error {
	kindText := c.Query("kind")
	if web.IsJSONRequest(c) && len(c.Body()) > 0 {
		var in struct {
			Kind string `json:"kind"`
		}
		if err := web.DecodeJSON(c, &in); err != nil {
			return err
		}
		if in.Kind != "" {
			kindText = in.Kind
		}
	}
	kind, err := linkKind("kind", kindText)
	if err != nil {
		return err
	}
	u, err := m.svc.checkUnsubscribe(c.Context(), web.PanelOf(c), c.Params("panel"), c.Params("id"), c.Query("hash"))
	if err != nil {
		return err
	}
	sub, err := m.svc.Unsubscribe(c.Context(), u.participant.ID, kind)
	if err != nil {
		return err
	}
	return c.JSON(subscriptionsJSON(sub))
}

// unsubscribeProps is what the page shows: what will stop (the link's kind, or every kind).
func (m *Module) unsubscribeProps(c fiber.Ctx, kind MailKind) views.UnsubscribeProps {
	props := views.UnsubscribeProps{Action: c.Path(), Kind: string(kind)}
	for _, k := range MailKinds {
		if kind == "" || k == kind {
			props.Stops = append(props.Stops, m.kit.T(c, "subscriptions."+string(k), nil))
		}
	}
	return props
}

// GET /unsubscribe/:panelUuid/:accountHolderUuid/:hash[?kind=]: what will stop, and the button.
func (m *Module) unsubscribePage(c fiber.Ctx) error {
	kind, err := linkKind("kind", c.Query("kind"))
	if err != nil {
		return err
	}
	if _, err := m.svc.checkUnsubscribe(c.Context(), web.PanelOf(c), c.Params("panelUuid"), c.Params("accountHolderUuid"), c.Params("hash")); err != nil {
		return err
	}
	return m.kit.Render(c, fiber.StatusOK, views.Unsubscribe(m.unsubscribeProps(c, kind)))
}

// POST /unsubscribe/:panelUuid/:accountHolderUuid/:hash with kind (a kind, or "all").
func (m *Module) unsubscribeSubmit(c fiber.Ctx) error {
	kind, err := linkKind("kind", c.FormValue("kind"))
	if err != nil {
		return err
	}
	u, err := m.svc.checkUnsubscribe(c.Context(), web.PanelOf(c), c.Params("panelUuid"), c.Params("accountHolderUuid"), c.Params("hash"))
	if err != nil {
		return err
	}
	if _, err := m.svc.Unsubscribe(c.Context(), u.participant.ID, kind); err != nil {
		return err
	}
	props := m.unsubscribeProps(c, kind)
	props.Done = true
	return m.kit.Render(c, fiber.StatusOK, views.Unsubscribe(props))
}
