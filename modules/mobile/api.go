package mobile

import (
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// mobileJSON is the spec's Mobile entity (section 3); absent values are null.
type mobileJSON struct {
	MobileNumber           *string    `json:"mobileNumber"`
	VerificationStatus     string     `json:"verificationStatus"`
	VerifiedMobileNumber   *string    `json:"verifiedMobileNumber"`
	VerifiedMobileNumberAt *time.Time `json:"verifiedMobileNumberAt"`
	EligibleToRedeem       string     `json:"eligibleToRedeem"`
}

func toJSON(s Status) mobileJSON {
	out := mobileJSON{VerificationStatus: s.VerificationStatus, VerifiedMobileNumberAt: s.VerifiedAt, EligibleToRedeem: s.Eligibility}
	if s.MobileNumber != "" {
		out.MobileNumber = &s.MobileNumber
	}
	if s.VerifiedNumber != "" {
		out.VerifiedMobileNumber = &s.VerifiedNumber
	}
	return out
}

type sentJSON struct {
	Status       string    `json:"status"`
	MobileNumber string    `json:"mobileNumber"`
	ExpiresAt    time.Time `json:"expiresAt"`
}

func sent(s Sent) sentJSON {
	return sentJSON{Status: "sent", MobileNumber: s.MobileNumber, ExpiresAt: s.ExpiresAt.UTC()}
}

// GET mobile/validate?phone=&code=: code is an optional ISO 3166 alpha-2 country for a
// number in national form (default: the panel's country). The number goes on file, unverified.
func (m *Module) apiValidate(c fiber.Ctx) error {
	n, err := m.svc.Validate(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, c.Query("phone"), c.Query("code"), "code")
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"valid": true, "mobileNumber": n.E164, "country": n.Country})
}

// POST verification/sms {"challenge", "phone"?, "country"?}: texts a code to the number on
// file, or to phone (which then goes on file). challenge is reserved for an anti-bot
// challenge response; no captcha is configured, so it is accepted and ignored, and the
// rate limits stand guard alone.
func (m *Module) apiSend(c fiber.Ctx) error {
	var in struct {
		Challenge string `json:"challenge"`
		Phone     string `json:"phone"`
		Country   string `json:"country"`
	}
	if len(c.Body()) > 0 {
		if err := web.DecodeJSON(c, &in); err != nil {
			return err
		}
	}
	s, err := m.svc.Send(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, web.LocaleOf(c), in.Phone, in.Country, "country")
	if err != nil {
		return err
	}
	return c.JSON(sent(s))
}

// GET verification/sms?code=&phone=&site=pp: checks a code; phone defaults to the number on
// file and site is accepted and ignored (the spec's client always sends pp). Success
// answers the user/mobile object; the member's verified number answers 409
// user_already_verified, which the spec's clients treat as success.
func (m *Module) apiCheck(c fiber.Ctx) error {
	s, err := m.svc.Check(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, c.Query("phone"), c.Query("code"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(s))
}

// GET mobile/reverify: texts a code to the number on file when eligibility is reverify.
func (m *Module) apiReverify(c fiber.Ctx) error {
	s, err := m.svc.Reverify(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, web.LocaleOf(c))
	if err != nil {
		return err
	}
	return c.JSON(sent(s))
}

// GET user/mobile
func (m *Module) apiMobile(c fiber.Ctx) error {
	s, err := m.svc.Status(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID)
	if err != nil {
		return err
	}
	return c.JSON(toJSON(s))
}
