package mobile

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

const (
	// codeTTL is how long a code works.
	codeTTL = 10 * time.Minute
	// maxAttempts is how many codes may be tried against one sent code; then it is dead,
	// so guessing one of a million needs a new SMS (which is rate limited) every 5 tries.
	maxAttempts = 5
)

// Limits bound how many codes are sent: per number, so nobody floods a stranger's phone,
// and per member, so one account cannot run up the SMS bill across many numbers.
type Limits struct {
	PerPhone10Min int
	PerPhoneDay   int
	PerMemberHour int
}

// DefaultLimits: 3 codes per number in 10 minutes and 10 a day; 5 per member an hour.
var DefaultLimits = Limits{PerPhone10Min: 3, PerPhoneDay: 10, PerMemberHour: 5}

// Service is the verification logic: no Fiber, no templ.
type Service struct {
	store   *Store
	limiter *ratelimit.Limiter
	outbox  Outbox
	key     []byte // HMAC key of the stored codes
	limits  Limits
	log     *slog.Logger
	now     func() time.Time
	// message is the SMS text with the code, in the member's language.
	message func(lang, app, code string) string
}

// Status is a member's mobile as the API and the page show it.
type Status struct {
	MobileNumber       string // E.164 or empty
	Country            string
	VerificationStatus string
	VerifiedNumber     string
	VerifiedAt         *time.Time
	Eligibility        string
	// RedeemFrom is when the cooling-off ends (Eligibility VerifiedTooRecently).
	RedeemFrom *time.Time
	// CodeExpiresAt is set while a code sent to MobileNumber can still be entered.
	CodeExpiresAt *time.Time
	// CodeQueued: that code's text is on its way (its job has not sent it yet).
	CodeQueued bool
	// SMSFailed: the last code's text to MobileNumber could not be sent; the member may ask
	// for a new code.
	SMSFailed      bool
	DefaultCountry string
}

// Sent is a code on its way.
type Sent struct {
	MobileNumber string
	ExpiresAt    time.Time
}

// Settings returns a panel's rules (the defaults when it set none).
func (s *Service) Settings(ctx context.Context, panelID string) (Settings, error) {
	return s.store.Settings(ctx, panelID)
}

// SaveSettings changes a panel's rules.
func (s *Service) SaveSettings(ctx context.Context, st Settings) error {
	if st.CoolingOffHours < 0 || st.ReverifyAfterDays <= 0 {
		return fmt.Errorf("mobile settings of %s: cooling-off must be 0 or more hours and re-verification 1 or more days", st.PanelID)
	}
	st.DefaultCountry = strings.ToUpper(strings.TrimSpace(st.DefaultCountry))
	if st.DefaultCountry != "" && !isAlpha2(st.DefaultCountry) {
		return fmt.Errorf("mobile settings of %s: default country %q is not an ISO 3166 alpha-2 code", st.PanelID, st.DefaultCountry)
	}
	st.UpdatedAt = s.now().UTC()
	return s.store.SaveSettings(ctx, st)
}

// DefaultCountry is the country of numbers a panel's members type without a country code:
// the panel's setting, else the country of its currency, else none (international form only).
func (s *Service) DefaultCountry(ctx context.Context, panel *web.Panel) (string, error) {
	st, err := s.store.Settings(ctx, panel.ID)
	if err != nil {
		return "", err
	}
	return defaultCountry(panel, st), nil
}

func defaultCountry(panel *web.Panel, st Settings) string {
	if st.DefaultCountry != "" {
		return st.DefaultCountry
	}
	return countryOfCurrency(panel.CurrencyCode)
}

// Eligibility is the member's eligibleToRedeem value.
func (s *Service) Eligibility(ctx context.Context, panel *web.Panel, participantID string) (string, error) {
	if panel == nil {
		return "", errors.New("mobile eligibility: no panel")
	}
	st, err := s.store.Settings(ctx, panel.ID)
	if err != nil {
		return "", err
	}
	p, err := s.store.Phone(ctx, panel.ID, participantID)
	if err != nil {
		return "", err
	}
	return eligibility(st, p, s.now().UTC()), nil
}

// Status is the member's mobile: numbers, verification status and eligibility.
func (s *Service) Status(ctx context.Context, panel *web.Panel, participantID string) (Status, error) {
	st, err := s.store.Settings(ctx, panel.ID)
	if err != nil {
		return Status{}, err
	}
	p, err := s.store.Phone(ctx, panel.ID, participantID)
	if err != nil {
		return Status{}, err
	}
	now := s.now().UTC()
	out := Status{VerificationStatus: verificationStatus(p), Eligibility: eligibility(st, p, now), DefaultCountry: defaultCountry(panel, st)}
	if p == nil {
		return out, nil
	}
	out.MobileNumber, out.Country = p.MobileNumber, p.Country
	if p.VerifiedNumber != nil {
		out.VerifiedNumber, out.VerifiedAt = *p.VerifiedNumber, utc(p.VerifiedAt)
	}
	if out.Eligibility == VerifiedTooRecently {
		at := p.VerifiedSince.Add(st.coolingOff()).UTC()
		out.RedeemFrom = &at
	}
	if p.MobileNumber != "" {
		c, err := s.store.CurrentCode(ctx, participantID, p.MobileNumber)
		if err != nil {
			return Status{}, err
		}
		switch {
		case c != nil && c.UsedAt == nil && c.SMSStatus == SMSFailed:
			out.SMSFailed = true
		case c != nil && c.UsedAt == nil && c.Attempts < maxAttempts && now.Before(c.ExpiresAt):
			out.CodeExpiresAt = utc(&c.ExpiresAt)
			out.CodeQueued = c.SMSStatus == SMSQueued
		}
	}
	return out, nil
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// Validate checks and normalises a number (country: ISO 3166 alpha-2 for a national form,
// else the panel's default) and puts it on file as the member's unverified number.
// countryField names the country's parameter in errors (the API's code, the page's country).
func (s *Service) Validate(ctx context.Context, panel *web.Panel, participantID, raw, country, countryField string) (Number, error) {
	st, err := s.store.Settings(ctx, panel.ID)
	if err != nil {
		return Number{}, err
	}
	if strings.TrimSpace(country) == "" {
		country = defaultCountry(panel, st)
	}
	n, err := Normalize(raw, country)
	if err != nil {
		return Number{}, phoneError(err, countryField)
	}
	if err := s.store.SetNumber(ctx, panel.ID, participantID, n, s.now().UTC()); err != nil {
		return Number{}, err
	}
	return n, nil
}

// Send texts a code to the member's number on file, after putting raw on file when given.
func (s *Service) Send(ctx context.Context, panel *web.Panel, participantID, lang, raw, country, countryField string) (Sent, error) {
	if strings.TrimSpace(raw) != "" {
		if _, err := s.Validate(ctx, panel, participantID, raw, country, countryField); err != nil {
			return Sent{}, err
		}
	}
	st, p, err := s.load(ctx, panel, participantID)
	if err != nil {
		return Sent{}, err
	}
	if p == nil || p.MobileNumber == "" {
		return Sent{}, web.Invalid("phone", "error.mobile_no_number", nil).WithCode("no_mobile_number")
	}
	return s.send(ctx, panel, st, p, lang)
}

// Reverify texts a code to the member's number on file when their eligibility is Reverify:
// the verified number, or the number that replaced it.
func (s *Service) Reverify(ctx context.Context, panel *web.Panel, participantID, lang string) (Sent, error) {
	st, p, err := s.load(ctx, panel, participantID)
	if err != nil {
		return Sent{}, err
	}
	if eligibility(st, p, s.now().UTC()) != Reverify {
		return Sent{}, web.Fail(fiber.StatusConflict, "error.mobile_reverify_not_needed", nil).WithCode("reverify_not_needed")
	}
	return s.send(ctx, panel, st, p, lang)
}

func (s *Service) load(ctx context.Context, panel *web.Panel, participantID string) (Settings, *Phone, error) {
	st, err := s.store.Settings(ctx, panel.ID)
	if err != nil {
		return Settings{}, nil, err
	}
	p, err := s.store.Phone(ctx, panel.ID, participantID)
	return st, p, err
}

func (s *Service) send(ctx context.Context, panel *web.Panel, st Settings, p *Phone, lang string) (Sent, error) {
	now := s.now().UTC()
	phone := p.MobileNumber
	if p.verified() && !reverifyDue(st, p, now) {
		return Sent{}, alreadyVerified()
	}
	other, err := s.store.VerifiedBy(ctx, panel.ID, phone)
	if err != nil {
		return Sent{}, err
	}
	if other != "" && other != p.ParticipantID {
		return Sent{}, inUse()
	}
	if err := s.limit(ctx, p.ParticipantID, phone); err != nil {
		return Sent{}, err
	}
	code, err := newCode()
	if err != nil {
		return Sent{}, err
	}
	c := &Code{ID: uuid.NewString(), ParticipantID: p.ParticipantID, Phone: phone, SMSStatus: SMSQueued, CreatedAt: now, ExpiresAt: now.Add(codeTTL)}
	c.CodeHash = s.hash(c.ID, phone, code)
	// The code and its text's job in one transaction: no text without its code, and no code
	// whose text is lost. A member who types fast finds the code stored.
	err = s.store.NewCode(ctx, c, func(tx *gorm.DB) error {
		return s.outbox.QueueSMS(tx, CodeEvent(c.ID), phone, s.message(lang, appName(panel), code), c.ExpiresAt)
	})
	if err != nil {
		// Only an outbox that sends at once (no job queue) reports the provider's refusal here.
		if errors.Is(err, ErrUndeliverable) {
			return Sent{}, web.Invalid("phone", "error.mobile_sms_undeliverable", nil).WithCode("sms_undeliverable")
		}
		var sendErr *sendError
		if errors.As(err, &sendErr) {
			return Sent{}, &web.Error{Status: fiber.StatusServiceUnavailable, ID: "error.mobile_sms_failed", Err: fmt.Errorf("send code to %s: %w", phone, err)}
		}
		return Sent{}, err
	}
	return Sent{MobileNumber: phone, ExpiresAt: c.ExpiresAt}, nil
}

// limit counts one code against the member's and the number's limits.
func (s *Service) limit(ctx context.Context, participantID, phone string) error {
	for _, l := range []struct {
		key    string
		window time.Duration
		max    int
		id     string
	}{
		{"sms:member:" + participantID, time.Hour, s.limits.PerMemberHour, "error.mobile_rate_member"},
		{"sms:phone:" + phone, 10 * time.Minute, s.limits.PerPhone10Min, "error.mobile_rate_phone"},
		{"sms:phone-day:" + phone, 24 * time.Hour, s.limits.PerPhoneDay, "error.mobile_rate_phone_day"},
	} {
		n, err := s.limiter.Hit(ctx, l.key, l.window)
		if err != nil {
			return err
		}
		if n > l.max {
			return web.Fail(fiber.StatusTooManyRequests, l.id, nil).WithCode("rate_limited")
		}
	}
	return nil
}

// Check verifies the code sent to a number (raw, or the number on file when empty). On
// success the number is the member's verified number.
func (s *Service) Check(ctx context.Context, panel *web.Panel, participantID, raw, code string) (Status, error) {
	st, p, err := s.load(ctx, panel, participantID)
	if err != nil {
		return Status{}, err
	}
	var phone string
	if strings.TrimSpace(raw) != "" {
		n, err := Normalize(raw, defaultCountry(panel, st))
		if err != nil {
			return Status{}, phoneError(err, "phone")
		}
		phone = n.E164
	} else if p != nil {
		phone = p.MobileNumber
	}
	if phone == "" {
		return Status{}, web.Invalid("phone", "error.mobile_no_number", nil).WithCode("no_mobile_number")
	}
	code = strings.TrimSpace(code)
	if len(code) != 6 || !allDigits(code) {
		return Status{}, web.Invalid("code", "error.mobile_code_format", nil)
	}
	now := s.now().UTC()
	if p != nil && p.VerifiedNumber != nil && *p.VerifiedNumber == phone && !reverifyDue(st, p, now) {
		return Status{}, alreadyVerified()
	}
	c, err := s.store.CurrentCode(ctx, participantID, phone)
	if err != nil {
		return Status{}, err
	}
	if c == nil {
		return Status{}, codeError(fiber.StatusBadRequest, "error.mobile_code_not_requested", "code_not_requested")
	}
	if c.UsedAt != nil {
		if s.matches(c, code) {
			return Status{}, codeError(fiber.StatusGone, "error.mobile_code_used", "code_used")
		}
		return Status{}, codeError(fiber.StatusBadRequest, "error.mobile_code_not_requested", "code_not_requested")
	}
	if err := deadCode(c, now); err != nil {
		return Status{}, err
	}
	if s.matches(c, code) {
		// The right code counts its attempt and spends the code in one statement, so a
		// double submit never loses to its own twin's attempt (the twin finds it used).
		switch err := s.store.Verify(ctx, panel.ID, c, maxAttempts, now); {
		case errors.Is(err, errSpent):
			return Status{}, s.whyNotCounted(ctx, c.ID, now)
		case errors.Is(err, errInUse):
			return Status{}, inUse()
		case err != nil:
			return Status{}, err
		}
		return s.Status(ctx, panel, participantID)
	}
	counted, err := s.store.CountAttempt(ctx, c.ID, maxAttempts, now)
	if err != nil {
		return Status{}, err
	}
	if !counted {
		return Status{}, s.whyNotCounted(ctx, c.ID, now)
	}
	if c, err = s.store.Code(ctx, c.ID); err != nil {
		return Status{}, err
	}
	left := maxAttempts - c.Attempts
	if left <= 0 {
		return Status{}, codeError(fiber.StatusTooManyRequests, "error.mobile_code_attempts", "too_many_attempts")
	}
	e := web.Invalid("code", "error.mobile_code_wrong", map[string]any{"Left": left}).WithCode("wrong_code")
	e.Body = map[string]any{"attemptsLeft": left}
	return Status{}, e
}

// whyNotCounted is the refusal of a try another request got ahead of: it used the code, or
// its last attempt, or the code expired meanwhile.
func (s *Service) whyNotCounted(ctx context.Context, id string, now time.Time) error {
	c, err := s.store.Code(ctx, id)
	if err != nil {
		return err
	}
	if c.UsedAt != nil {
		return codeError(fiber.StatusGone, "error.mobile_code_used", "code_used")
	}
	if err := deadCode(c, now); err != nil {
		return err
	}
	return codeError(fiber.StatusTooManyRequests, "error.mobile_code_attempts", "too_many_attempts")
}

// deadCode is the error of a code that can no longer be entered, or nil.
func deadCode(c *Code, now time.Time) error {
	switch {
	case !now.Before(c.ExpiresAt):
		return codeError(fiber.StatusGone, "error.mobile_code_expired", "code_expired")
	case c.Attempts >= maxAttempts:
		return codeError(fiber.StatusTooManyRequests, "error.mobile_code_attempts", "too_many_attempts")
	}
	return nil
}

// SetVerified records a verified number for a member who has none (demo data): it reports
// whether it did, and changes nothing for a member who already gave a number.
func (s *Service) SetVerified(ctx context.Context, panel *web.Panel, participantID, raw string, at time.Time) (bool, error) {
	n, err := Normalize(raw, countryOfCurrency(panel.CurrencyCode))
	if err != nil {
		return false, fmt.Errorf("verified number %q: %w", raw, err)
	}
	return s.store.SetVerified(ctx, panel.ID, participantID, n, at.UTC())
}

func (s *Service) hash(id, phone, code string) string {
	mac := hmac.New(sha256.New, s.key)
	mac.Write([]byte(id + "\x00" + phone + "\x00" + code))
	return hex.EncodeToString(mac.Sum(nil))
}

// matches compares in constant time, so the time taken tells nothing about the code.
func (s *Service) matches(c *Code, code string) bool {
	return hmac.Equal([]byte(s.hash(c.ID, c.Phone, code)), []byte(c.CodeHash))
}

func newCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("new sms code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

func appName(panel *web.Panel) string {
	if panel.WebAppName != "" {
		return panel.WebAppName
	}
	return panel.Name
}

func phoneError(err error, countryField string) *web.Error {
	switch {
	case errors.Is(err, errPhoneEmpty):
		return web.Invalid("phone", "error.mobile_phone_required", nil)
	case errors.Is(err, errPhoneInternational):
		return web.Invalid("phone", "error.mobile_phone_international", nil)
	case errors.Is(err, errCountry):
		return web.Invalid(countryField, "error.mobile_country_invalid", nil)
	}
	return web.Invalid("phone", "error.mobile_phone_invalid", nil)
}

func codeError(status int, id, code string) *web.Error {
	e := web.Invalid("code", id, nil).WithCode(code)
	e.Status = status
	return e
}

// alreadyVerified is the spec's user_already_verified, which clients treat as success.
func alreadyVerified() *web.Error {
	e := web.Invalid("phone", "error.mobile_already_verified", nil).WithCode("user_already_verified")
	e.Status = fiber.StatusConflict
	return e
}

func inUse() *web.Error {
	e := web.Invalid("phone", "error.mobile_in_use", nil).WithCode("mobile_in_use")
	e.Status = fiber.StatusConflict
	return e
}
