package profile

import (
	"database/sql"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	"github.com/gofiber/fiber/v3"
)

// memberSettings are what the settings calls need besides the store and accounts: other
// modules, through the interfaces this module declares (wired by SetMemberSettings), the
// pictures' storage, the unsubscribe links' key and mailbox, and the closing's erasers.
type memberSettings struct {
	postcodes         Postcodes
	ledger            Ledger
	panels            Panels
	storage           Storage
	unsubscribeKey    []byte
	unsubscribeMailto string
	erasers           []Eraser
}

// MemberSettings are the other modules the settings calls use; app wiring sets them once every
// module exists.
type MemberSettings struct {
	Postcodes Postcodes // the panel's postcode list (postal address, location)
	Ledger    Ledger    // the balance closing forfeits and changing instance moves
	Panels    Panels    // the panels a member may move to
}

// SetMemberSettings plugs in the modules the settings calls use. Call it while wiring the app.
func (m *Module) SetMemberSettings(d MemberSettings) {
	m.svc.postcodes, m.svc.ledger, m.svc.panels = d.Postcodes, d.Ledger, d.Panels
}

// pictureKey holds the key of the member's shown picture, read with the session.
type pictureKey struct{}

// PictureJoin reads the key of the member's shown picture with the session of a page
// (web.MemberJoin, given to accounts.Module.JoinMember while wiring the app), so the top bar
// shows it without a query of its own.
func (m *Module) PictureJoin() web.MemberJoin {
	return web.MemberJoin{
		Columns: []string{"mpic.pic_key"},
		From:    "LEFT JOIN profile_pics mpic ON mpic.participant_id = p.id AND mpic.main",
		When:    func(c fiber.Ctx) bool { return !web.IsAPI(c) }, // the top bar is the pages'',
		Scan: func() ([]any, func(fiber.Ctx)) {
			var key sql.NullString
			return []any{&key}, func(c fiber.Ctx) {
				if key.Valid {
					c.Locals(pictureKey{}, key.String)
				}
			}
		},
	}
}

// topBarPicture puts the member's shown picture in the top bar of every private page.
func topBarPicture(c fiber.Ctx, p *views.Page) {
	if key, _ := c.Locals(pictureKey{}).(string); key != "" && p.Member != nil {
		p.Member.PictureURL = pictureURL(key)
	}
}
