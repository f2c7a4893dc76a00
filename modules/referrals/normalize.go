package referrals

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// NormalizeEmail is the self-referral rule's form of an address, so that one mailbox written
// several ways counts as one: trimmed and lower case; the local part loses a "+tag" suffix
// (plus addressing, which most providers deliver to the same mailbox); and for Gmail
// (gmail.com and googlemail.com, which are one service) the dots of the local part, which
// Gmail ignores, and googlemail.com becomes gmail.com. Other providers' dots are kept: for
// them a.b@ and ab@ may be two people.
func NormalizeEmail(email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	at := strings.LastIndexByte(e, '@')
	if at <= 0 {
		return e
	}
	local, domain := e[:at], e[at+1:]
	if plus := strings.IndexByte(local, '+'); plus > 0 {
		local = local[:plus]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	return local + "@" + domain
}

// digest is the SHA-256 of a value, hex: what is kept of the referrer's address and device.
func digest(v string) string {
	if v == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:])
}
