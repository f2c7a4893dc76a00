package referrals

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/gofiber/fiber/v3"
)

// deviceRE is the device cookie's shape: 32 hex digits (16 random bytes).
var deviceRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// deviceAge is how long a browser keeps its device cookie: two years, in seconds.
const deviceAge = 2 * 365 * 24 * 60 * 60

// device is the browser's device cookie (accounts.DeviceCookie), set when it has none: a
// random value that tells this browser apart, kept (as a digest) with the invitations sent
// from it, so a sign-up through one of them from the same browser is refused as a
// self-referral. It identifies a browser, never a person, and is read for nothing else.
func (m *Module) device(c fiber.Ctx) string {
	if v := c.Cookies(accounts.DeviceCookie); deviceRE.MatchString(v) {
		return v
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "" // no randomness: no device rule for this invitation, rather than a guessable one
	}
	v := hex.EncodeToString(b)
	m.kit.SetCookie(c, &fiber.Cookie{Name: accounts.DeviceCookie, Value: v, MaxAge: deviceAge})
	return v
}
