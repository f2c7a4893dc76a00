package profile

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The profile's metadata is read by campaign targeting and quotas (metadata.KEY) and by the
// app itself. A member may set only the keys below, each checked by its rule; everything else
// is the app's (welcomeCampaignCompleted, onboardingCompleted, siteId, inviteId, location, ...)
// or unknown, and refused by name.

// memberMetadata are the keys a member sets (POST user/profile/metadata) and their rules.
var memberMetadata = map[string]func(raw json.RawMessage, now time.Time) (any, bool){
	// dateOfBirth is what min_age campaigns read: a real date, not in the future, after 1900.
	"dateOfBirth": func(raw json.RawMessage, now time.Time) (any, bool) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		d, err := time.Parse("2006-01-02", s)
		if err != nil || d.Year() < 1900 || d.After(now) {
			return nil, false
		}
		return s, true
	},
	"gender": oneOf("female", "male", "non-binary", "other", "prefer-not-to-say"),
	"householdSize": func(raw json.RawMessage, _ time.Time) (any, bool) {
		var n float64
		if json.Unmarshal(raw, &n) != nil || n != float64(int(n)) || n < 1 || n > 20 {
			return nil, false
		}
		return int(n), true
	},
	// smartFuelCard is the spec's "smart fuel card entry": a card number as printed on it.
	"smartFuelCard": func(raw json.RawMessage, _ time.Time) (any, bool) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		s = strings.TrimSpace(s)
		return s, fuelCardRE.MatchString(s)
	},
}

var fuelCardRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 -]{3,39}$`)

func oneOf(values ...string) func(json.RawMessage, time.Time) (any, bool) {
	return func(raw json.RawMessage, _ time.Time) (any, bool) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, false
		}
		for _, v := range values {
			if s == v {
				return s, true
			}
		}
		return nil, false
	}
}

// systemMetadata are keys the app sets; a member's attempt is named as such, not as unknown.
var systemMetadata = map[string]bool{
	"welcomeCampaignCompleted": true, "onboardingCompleted": true, "siteId": true, "inviteId": true,
	"location": true, "referrerId": true, "referredBy": true, "affiliateCode": true, "movedFrom": true,
}

// SaveMetadata applies the member's metadata changes: each key must be one a member may set,
// with a valid value; null removes it. Nothing is written when any key is refused.
func (s *Service) SaveMetadata(ctx context.Context, m *web.Member, body []byte) error {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(body, &in); err != nil || in == nil {
		return web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	// The spec names the payload "metadata": a body of that one object is taken as its content.
	if inner, ok := in["metadata"]; ok && len(in) == 1 && bytes.HasPrefix(bytes.TrimSpace(inner), []byte("{")) {
		in = nil
		if err := json.Unmarshal(inner, &in); err != nil || in == nil {
			return web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
		}
	}
	now := s.now().UTC()
	changes := map[string]any{}
	var verr *web.Error
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the same request names its refusals in the same order
	for _, key := range keys {
		raw := in[key]
		field := "metadata." + key
		rule, ok := memberMetadata[key]
		switch {
		case systemMetadata[key]:
			verr = appendInvalid(verr, field, "error.metadata_system_key")
			verr.Details[len(verr.Details)-1].Code = "metadata_system_key"
			continue
		case !ok:
			verr = appendInvalid(verr, field, "error.metadata_unknown_key")
			verr.Details[len(verr.Details)-1].Code = "metadata_unknown_key"
			continue
		case bytes.Equal(bytes.TrimSpace(raw), []byte("null")):
			changes[key] = nil
			continue
		}
		v, valid := rule(raw, now)
		if !valid {
			verr = appendInvalid(verr, field, "error.metadata_invalid_"+key)
			continue
		}
		changes[key] = v
	}
	if verr != nil {
		return verr
	}
	if len(changes) == 0 {
		return nil
	}
	return s.accounts.UpdateMetadata(ctx, m.ParticipantID, func(md accounts.Metadata) error {
		for k, v := range changes {
			if v == nil {
				delete(md, k)
			} else {
				md[k] = v
			}
		}
		return nil
	})
}

// LocationInput is the user/profile/location payload: a postcode of the panel (as the survey's
// location control answers it: the postcode and, from the lookup, its id).
type LocationInput struct {
	Postcode string `json:"postcode"`
	ID       string `json:"id"`
}

// SaveLocation sets the profile's metadata.location from a postcode: one of the panel's list
// when it has one (with its label, town and region), else the postcode as typed.
func (s *Service) SaveLocation(ctx context.Context, panel *web.Panel, m *web.Member, in LocationInput) error {
	typed := strings.ToUpper(clean(in.Postcode))
	place, found, err := s.placeOf(ctx, panel, typed, strings.TrimSpace(in.ID))
	if err != nil {
		return err
	}
	loc := map[string]any{}
	switch {
	case found:
		loc = map[string]any{"postcode": place.Postcode, "id": place.ID, "label": place.Label, "locality": place.Locality, "region": place.Region}
	case typed == "" && strings.TrimSpace(in.ID) == "":
		return web.Invalid("postcode", "error.required", nil)
	case strings.TrimSpace(in.ID) != "" || s.hasPostcodes(ctx, panel):
		return web.Invalid("postcode", "error.postcode_not_found", nil)
	case len(typed) > maxPostcode || !postcodeRE.MatchString(typed):
		return web.Invalid("postcode", "error.postcode_invalid", nil)
	default:
		loc["postcode"] = typed
	}
	return s.accounts.UpdateMetadata(ctx, m.ParticipantID, func(md accounts.Metadata) error {
		md["location"] = loc
		return nil
	})
}

// POST /ah/api/v1/user/profile/metadata with the keys to set (or {"metadata": {...}}).
func (m *Module) apiSaveMetadata(c fiber.Ctx) error {
	var raw json.RawMessage
	if err := web.DecodeJSON(c, &raw); err != nil {
		return err
	}
	if err := m.svc.SaveMetadata(c.Context(), web.MemberOf(c), raw); err != nil {
		return err
	}
	return m.apiProfile(c)
}

// POST /ah/api/v1/user/profile/location {postcode, id}
func (m *Module) apiSaveLocation(c fiber.Ctx) error {
	var in LocationInput
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if err := m.svc.SaveLocation(c.Context(), web.PanelOf(c), web.MemberOf(c), in); err != nil {
		return err
	}
	return m.apiProfile(c)
}

// aboutFields are the settings page's "About you" form: the keys a member sets, each a field.
var aboutFields = []string{"dateOfBirth", "gender", "householdSize", "smartFuelCard"}

// POST /settings/about: the member's metadata through the same rules as the API; an empty
// field removes its key.
func (m *Module) settingsAbout(c fiber.Ctx) error {
	values := map[string]string{}
	body := map[string]any{}
	for _, key := range aboutFields {
		v := strings.TrimSpace(c.FormValue(key))
		values[key] = v
		switch {
		case v == "":
			body[key] = nil
		case key == "householdSize":
			// A number field: its text is the number the API's rule checks (and refuses as text).
			if n, err := strconv.Atoi(v); err == nil {
				body[key] = n
			} else {
				body[key] = v
			}
		default:
			body[key] = v
		}
	}
	raw, _ := json.Marshal(body)
	if err := m.svc.SaveMetadata(c.Context(), web.MemberOf(c), raw); err != nil {
		return m.settingsFailed(c, err, sectionAbout, values)
	}
	m.kit.FlashNext(c, "success", "flash.about_saved")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#about")
}

// POST /settings/location {locationPostcode}: the member's area, one of the panel's postcodes.
func (m *Module) settingsLocation(c fiber.Ctx) error {
	postcode := c.FormValue("locationPostcode")
	if err := m.svc.SaveLocation(c.Context(), web.PanelOf(c), web.MemberOf(c), LocationInput{Postcode: postcode}); err != nil {
		return m.settingsFailed(c, err, sectionLocation, map[string]string{"postcode": postcode})
	}
	m.kit.FlashNext(c, "success", "flash.location_saved")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#about")
}
