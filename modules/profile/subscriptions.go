package profile

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// MailKind is a kind of bulk mail a member may stop: every mail that is not the answer to
// something they did (a password reset, a validation link, a closing confirmation). Those
// transactional mails always come.
type MailKind string

const (
	KindSurveyInvitations MailKind = "surveyInvitations"
	KindNewsletters       MailKind = "newsletters"
	KindReminders         MailKind = "reminders"
)

// MailKinds are the bulk kinds, in the order pages list them.
var MailKinds = []MailKind{KindSurveyInvitations, KindNewsletters, KindReminders}

// ParseMailKind reads a kind by its name ("newsletters"); ok is false for anything else.
func ParseMailKind(s string) (MailKind, bool) {
	for _, k := range MailKinds {
		if string(k) == s {
			return k, true
		}
	}
	return "", false
}

// receives tells whether the subscription lets this kind through.
func (sub Subscription) receives(k MailKind) bool {
	switch k {
	case KindSurveyInvitations:
		return sub.SurveyInvitations
	case KindNewsletters:
		return sub.Newsletters
	case KindReminders:
		return sub.Reminders
	}
	return false
}

func (sub *Subscription) set(k MailKind, on bool) {
	switch k {
	case KindSurveyInvitations:
		sub.SurveyInvitations = on
	case KindNewsletters:
		sub.Newsletters = on
	case KindReminders:
		sub.Reminders = on
	}
}

// SubscriptionsJSON is GET subscriptions: which bulk mails the member receives.
type SubscriptionsJSON struct {
	SurveyInvitations bool `json:"surveyInvitations"`
	Newsletters       bool `json:"newsletters"`
	Reminders         bool `json:"reminders"`
}

func subscriptionsJSON(sub Subscription) SubscriptionsJSON {
	return SubscriptionsJSON{SurveyInvitations: sub.SurveyInvitations, Newsletters: sub.Newsletters, Reminders: sub.Reminders}
}

// Subscriptions is what the member receives (every kind until they say otherwise).
func (s *Service) Subscriptions(ctx context.Context, participantID string) (Subscription, error) {
	return s.store.Subscription(ctx, participantID)
}

// SetSubscriptions turns the named kinds on or off, leaving the others as they are.
func (s *Service) SetSubscriptions(ctx context.Context, participantID string, changes map[MailKind]bool) (Subscription, error) {
	sub, err := s.store.Subscription(ctx, participantID)
	if err != nil {
		return sub, err
	}
	for k, on := range changes {
		sub.set(k, on)
	}
	return sub, s.store.SaveSubscription(ctx, sub)
}

// subscriptionChanges reads a body naming kinds with true or false; any other key or value is
// refused by name.
func subscriptionChanges(body []byte) (map[MailKind]bool, error) {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(body, &in); err != nil || in == nil {
		return nil, web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	changes := map[MailKind]bool{}
	var verr *web.Error
	for _, key := range keys {
		kind, ok := ParseMailKind(key)
		raw := bytes.TrimSpace(in[key])
		switch {
		case !ok:
			verr = appendInvalid(verr, key, "error.field_not_editable")
		case bytes.Equal(raw, []byte("true")), bytes.Equal(raw, []byte("false")):
			changes[kind] = bytes.Equal(raw, []byte("true"))
		default:
			verr = appendInvalid(verr, key, "error.must_be_boolean")
		}
	}
	if verr != nil {
		return nil, verr
	}
	return changes, nil
}

// GET subscriptions (account host and the panel-instance API)
func (m *Module) apiSubscriptions(c fiber.Ctx) error {
	sub, err := m.svc.Subscriptions(c.Context(), web.MemberOf(c).ParticipantID)
	if err != nil {
		return err
	}
	return c.JSON(subscriptionsJSON(sub))
}

// POST subscriptions {"newsletters": false, ...}: the named kinds on or off.
func (m *Module) apiSaveSubscriptions(c fiber.Ctx) error {
	var raw json.RawMessage
	if err := web.DecodeJSON(c, &raw); err != nil {
		return err
	}
	changes, err := subscriptionChanges(raw)
	if err != nil {
		return err
	}
	sub, err := m.svc.SetSubscriptions(c.Context(), web.MemberOf(c).ParticipantID, changes)
	if err != nil {
		return err
	}
	return c.JSON(subscriptionsJSON(sub))
}

// POST /settings/subscriptions: the settings page's checkboxes (an unchecked box is not sent).
func (m *Module) settingsSubscriptions(c fiber.Ctx) error {
	changes := map[MailKind]bool{}
	for _, k := range MailKinds {
		changes[k] = c.FormValue(string(k)) != ""
	}
	if _, err := m.svc.SetSubscriptions(c.Context(), web.MemberOf(c).ParticipantID, changes); err != nil {
		return err
	}
	m.kit.FlashNext(c, "success", "flash.subscriptions_saved")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#subscriptions")
}
