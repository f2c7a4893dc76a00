package accounts

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The login and join widgets (spec sections 1, 2 and 7) are compact login and join screens
// tenants frame on their own sites. This file is their logic: the parentFrameUrl rule, and the
// hand-off that lets a member signed in inside a frame open the panel itself. Their routes are
// in widgets_pages.go.

const (
	// maxParentFrameURL bounds a parentFrameUrl: the longest address a query may bring.
	maxParentFrameURL = 2048
	// handoffTTL is how long a hand-off code lasts: the widget's script spends it at once; the
	// signed-in card's link (without JavaScript) waits for a click.
	handoffTTL = 5 * time.Minute
)

// validParentFrameURL tells whether v is an absolute http(s) address of a page: a host, no
// credentials, no blanks, at most maxParentFrameURL bytes.
func validParentFrameURL(v string) bool {
	if v == "" || len(v) > maxParentFrameURL || strings.ContainsFunc(v, unicode.IsSpace) || strings.Contains(v, `\`) {
		return false
	}
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.User == nil
}

// checkParentFrameURL refuses a parentFrameUrl that is not validParentFrameURL, adding the
// refusal to e (nil: a new error). "" passes: the caller is not in a frame. A well-formed
// address is recorded as the caller gives it; which origins may frame the panel and hear its
// widgets is the panel's allow-list (web.Kit.EmbedderOrigin), not this rule.
func checkParentFrameURL(e *web.Error, v string) *web.Error {
	if v == "" || validParentFrameURL(v) {
		return e
	}
	data := map[string]any{"Max": maxParentFrameURL}
	if e == nil {
		return web.Invalid("parentFrameUrl", "error.parent_frame_url", data)
	}
	return e.Also("parentFrameUrl", "error.parent_frame_url", data)
}

// NewHandoff mints a hand-off code for a member signed in inside a widget's frame: single use,
// valid for handoffTTL, stored only as its hash. A new code replaces the member's unspent one.
func (s *Service) NewHandoff(ctx context.Context, m *web.Member) (string, error) {
	return s.newToken(ctx, m.AccountHolderID, PurposeWidgetHandoff, handoffTTL)
}

// SpendHandoff spends a hand-off code and starts a session of its member on the panel itself,
// in one transaction: a code starts one session, once. An unknown, spent or expired code, or
// another panel's, is a 400, and so is a closed account's.
func (s *Service) SpendHandoff(ctx context.Context, panel *web.Panel, code string, client Client) (*Issued, error) {
	t, ah, err := s.liveToken(ctx, panel, PurposeWidgetHandoff, code)
	if err != nil {
		return nil, err
	}
	invalid := web.Fail(fiber.StatusBadRequest, "error.handoff_invalid", nil).WithCode("token_invalid")
	if ah.Status == StatusClosed {
		return nil, invalid
	}
	p, err := s.store.ParticipantOf(ctx, ah.ID)
	if err != nil {
		return nil, err
	}
	issued, sess := s.newSession(ah, p, client)
	err = s.store.SpendHandoff(ctx, t, s.now().UTC(), sess)
	if errors.Is(err, ErrTokenSpent) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	return issued, nil
}
