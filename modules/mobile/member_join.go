package mobile

import (
	"database/sql"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The member's numbers and the panel's rules come with the session (web.MemberJoin), so the
// feed can say "verify your mobile" without a query of its own (the referrals module's
// blades; docs/contributing.md, Server cost).

type joinedKey struct{}

// joined is what the session read of the member's mobile.
type joined struct {
	settings Settings
	phone    *Phone
}

// MemberJoin reads the member's numbers and their panel's rules with every session.
func (m *Module) MemberJoin() web.MemberJoin {
	return web.MemberJoin{
		Columns: []string{
			"mbs.require_verification", "mbs.cooling_off_hours", "mbs.reverify_after_days",
			"mbn.participant_id", "mbn.mobile_number", "mbn.verified_number", "mbn.verified_at", "mbn.verified_since",
		},
		From: "LEFT JOIN mobile_numbers mbn ON mbn.participant_id = p.id\n\t\t\tLEFT JOIN mobile_settings mbs ON mbs.panel_id = p.panel_id",
		Scan: func() ([]any, func(fiber.Ctx)) {
			var require sql.NullBool
			var coolingOff, reverifyAfter sql.NullInt64
			var pid, number, verified sql.NullString
			var verifiedAt, verifiedSince sql.NullTime
			dest := []any{&require, &coolingOff, &reverifyAfter, &pid, &number, &verified, &verifiedAt, &verifiedSince}
			return dest, func(c fiber.Ctx) {
				j := &joined{settings: DefaultSettings("")}
				if require.Valid {
					j.settings.RequireVerification = require.Bool
					j.settings.CoolingOffHours, j.settings.ReverifyAfterDays = int(coolingOff.Int64), int(reverifyAfter.Int64)
				}
				if pid.Valid {
					j.phone = &Phone{ParticipantID: pid.String, MobileNumber: number.String}
					if verified.Valid {
						j.phone.VerifiedNumber = &verified.String
					}
					if verifiedAt.Valid {
						j.phone.VerifiedAt = &verifiedAt.Time
					}
					if verifiedSince.Valid {
						j.phone.VerifiedSince = &verifiedSince.Time
					}
				}
				c.Locals(joinedKey{}, j)
			}
		},
	}
}

// Eligibility is the signed-in member's eligibleToRedeem value: from the session's row when it
// was read with it (GET requests), else from the database.
func (m *Module) Eligibility(c fiber.Ctx) (string, error) {
	if j, ok := c.Locals(joinedKey{}).(*joined); ok {
		return eligibility(j.settings, j.phone, m.svc.now().UTC()), nil
	}
	member := web.MemberOf(c)
	if member == nil {
		return "", web.Unauthorized()
	}
	return m.svc.Eligibility(c.Context(), web.PanelOf(c), member.ParticipantID)
}
