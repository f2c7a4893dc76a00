package profile

import (
	"context"
	"database/sql"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/profile"
	"github.com/gofiber/fiber/v3"
)

// Postcodes is what the module needs of the panel's postcode list (modules/postcodes, wired in
// app/server.go): whether the panel has one, the place a typed postcode or a chosen id is, and
// the lookup the settings page offers (the spec's limits: 99 with a search term, 1000 without).
type Postcodes interface {
	HasAny(ctx context.Context, panelID string) (bool, error)
	Resolve(ctx context.Context, panelID, typed string) (Place, bool, error)
	Find(ctx context.Context, panelID, id string) (Place, bool, error)
	Lookup(ctx context.Context, panelID, search string, pageSize int) ([]Place, error)
}

// Place is one of a panel's postcodes.
type Place struct {
	ID, Postcode, Label, Locality, Region string
}

// Address limits: lines and towns of real addresses fit in 100 characters, postcodes in 16.
const (
	maxAddressLine = 100
	maxPostcode    = 16
)

var (
	postcodeRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 -]*$`)
	countryRE  = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

// AddressInput is the profile/postal-address payload. PostcodeID, when given, is a postcode of
// the panel's list chosen from the lookup; it wins over a typed postcode.
type AddressInput struct {
	Line1      string `json:"addressLine1"`
	Line2      string `json:"addressLine2"`
	City       string `json:"city"`
	Region     string `json:"region"`
	Postcode   string `json:"postcode"`
	PostcodeID string `json:"postcodeId"`
	Country    string `json:"country"`
}

// AddressJSON is the address as the API answers it.
type AddressJSON struct {
	AddressInput
	UpdatedAt *time.Time `json:"updatedAt"`
}

func addressJSON(a *PostalAddress) AddressJSON {
	if a == nil {
		return AddressJSON{}
	}
	at := a.UpdatedAt
	return AddressJSON{AddressInput: AddressInput{
		Line1: a.Line1, Line2: a.Line2, City: a.City, Region: a.Region, Postcode: a.Postcode, PostcodeID: a.PostcodeID, Country: a.Country,
	}, UpdatedAt: &at}
}

// PostalAddress is the member's address, nil when they have none.
func (s *Service) PostalAddress(ctx context.Context, participantID string) (*PostalAddress, error) {
	return s.store.PostalAddress(ctx, participantID)
}

// HasPostalAddress tells whether the member has given their postal address (the "complete your
// address" card asks it).
func (m *Module) HasPostalAddress(ctx context.Context, participantID string) (bool, error) {
	a, err := m.svc.store.PostalAddress(ctx, participantID)
	return a != nil, err
}

// hasAddressKey holds whether the member has a postal address, read with the session.
type hasAddressKey struct{}

// AddressJoin reads whether the member has a postal address with the session of the requests
// when holds for (web.MemberJoin): the "complete your address" card asks it on every feed.
func (m *Module) AddressJoin(when func(c fiber.Ctx) bool) web.MemberJoin {
	return web.MemberJoin{
		Columns: []string{"maddr.participant_id"},
		From:    "LEFT JOIN postal_addresses maddr ON maddr.participant_id = p.id",
		When:    when,
		Scan: func() ([]any, func(fiber.Ctx)) {
			var pid sql.NullString
			return []any{&pid}, func(c fiber.Ctx) { c.Locals(hasAddressKey{}, pid.Valid) }
		},
	}
}

// MemberHasAddress tells whether the signed-in member has a postal address: as the session read
// it (AddressJoin), else from the database.
func (m *Module) MemberHasAddress(c fiber.Ctx) (bool, error) {
	if has, ok := c.Locals(hasAddressKey{}).(bool); ok {
		return has, nil
	}
	return m.HasPostalAddress(c.Context(), web.MemberOf(c).ParticipantID)
}

// SavePostalAddress checks and stores the member's address. When the panel has a list of
// postcodes the postcode must be one of them (typed, or chosen by id); the town and region the
// list knows fill those left blank.
func (s *Service) SavePostalAddress(ctx context.Context, panel *web.Panel, m *web.Member, in AddressInput) (*PostalAddress, error) {
	a := &PostalAddress{
		ParticipantID: m.ParticipantID, PanelID: panel.ID, Line1: clean(in.Line1), Line2: clean(in.Line2), City: clean(in.City),
		Region: clean(in.Region), Postcode: strings.ToUpper(clean(in.Postcode)), Country: strings.ToUpper(strings.TrimSpace(in.Country)),
		UpdatedAt: s.now().UTC(),
	}
	var verr *web.Error
	place, found, err := s.placeOf(ctx, panel, a.Postcode, strings.TrimSpace(in.PostcodeID))
	if err != nil {
		return nil, err
	}
	if found {
		a.Postcode, a.PostcodeID = place.Postcode, place.ID
		if a.City == "" {
			a.City = place.Locality
		}
		if a.Region == "" {
			a.Region = place.Region
		}
	}
	if a.Line1 == "" {
		verr = appendInvalid(verr, "addressLine1", "error.required")
	}
	if a.City == "" {
		verr = appendInvalid(verr, "city", "error.required")
	}
	switch {
	case !found && s.postcodes != nil && strings.TrimSpace(in.PostcodeID) != "":
		verr = appendInvalid(verr, "postcode", "error.postcode_not_found")
	case a.Postcode == "" && !found:
		verr = appendInvalid(verr, "postcode", "error.required")
	case !found && s.hasPostcodes(ctx, panel):
		verr = appendInvalid(verr, "postcode", "error.postcode_not_found")
	case !found && (len(a.Postcode) > maxPostcode || !postcodeRE.MatchString(a.Postcode)):
		verr = appendInvalid(verr, "postcode", "error.postcode_invalid")
	}
	if a.Country != "" && !countryRE.MatchString(a.Country) {
		verr = appendInvalid(verr, "country", "error.country_invalid")
	}
	for _, f := range []struct{ field, v string }{{"addressLine1", a.Line1}, {"addressLine2", a.Line2}, {"city", a.City}, {"region", a.Region}} {
		verr = accounts.CheckText(verr, f.field, f.v, maxAddressLine)
	}
	if verr != nil {
		return nil, verr
	}
	return a, s.store.SavePostalAddress(ctx, a)
}

// placeOf finds the panel's postcode the member chose (by id) or typed; found is false when the
// panel has no list, or the postcode is not on it.
func (s *Service) placeOf(ctx context.Context, panel *web.Panel, typed, id string) (Place, bool, error) {
	if s.postcodes == nil {
		return Place{}, false, nil
	}
	if id != "" {
		return s.postcodes.Find(ctx, panel.ID, id)
	}
	if typed == "" {
		return Place{}, false, nil
	}
	return s.postcodes.Resolve(ctx, panel.ID, typed)
}

// hasPostcodes tells whether the panel has a list to check postcodes against; a failure to
// read it counts as none, so the member is never blocked by a lookup that did not answer.
func (s *Service) hasPostcodes(ctx context.Context, panel *web.Panel) bool {
	if s.postcodes == nil {
		return false
	}
	ok, err := s.postcodes.HasAny(ctx, panel.ID)
	if err != nil {
		s.log.Warn("postcode list", "panel", panel.Key, "err", err)
		return false
	}
	return ok
}

// LookupPostcodes searches the panel's postcodes for the settings page (at most 99 results
// with a search term, the spec's rule).
func (s *Service) LookupPostcodes(ctx context.Context, panel *web.Panel, search string) ([]Place, error) {
	if s.postcodes == nil || strings.TrimSpace(search) == "" {
		return nil, nil
	}
	return s.postcodes.Lookup(ctx, panel.ID, search, 0)
}

// clean trims a one-line text and collapses its runs of white space (the spec's text helper).
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// GET /ah/api/v1/profile/postal-address
func (m *Module) apiPostalAddress(c fiber.Ctx) error {
	a, err := m.svc.PostalAddress(c.Context(), web.MemberOf(c).ParticipantID)
	if err != nil {
		return err
	}
	if a == nil {
		return c.JSON(fiber.Map{"address": nil})
	}
	return c.JSON(fiber.Map{"address": addressJSON(a)})
}

// POST /ah/api/v1/profile/postal-address
func (m *Module) apiSavePostalAddress(c fiber.Ctx) error {
	var in AddressInput
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	a, err := m.svc.SavePostalAddress(c.Context(), web.PanelOf(c), web.MemberOf(c), in)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"address": addressJSON(a)})
}

// addressForm reads the settings page's address form.
func addressForm(c fiber.Ctx) AddressInput {
	return AddressInput{
		Line1: c.FormValue("addressLine1"), Line2: c.FormValue("addressLine2"), City: c.FormValue("city"),
		Region: c.FormValue("region"), Postcode: c.FormValue("postcode"), PostcodeID: c.FormValue("postcodeId"),
		Country: c.FormValue("country"),
	}
}

func (in AddressInput) values() map[string]string {
	var m map[string]string
	b, _ := json.Marshal(in)
	_ = json.Unmarshal(b, &m)
	return m
}

// POST /settings/address: save the address form.
func (m *Module) settingsAddress(c fiber.Ctx) error {
	in := addressForm(c)
	if _, err := m.svc.SavePostalAddress(c.Context(), web.PanelOf(c), web.MemberOf(c), in); err != nil {
		return m.settingsFailed(c, err, sectionAddress, in.values())
	}
	m.kit.FlashNext(c, "success", "flash.address_saved")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#address")
}

// POST /settings/address/lookup: the "Find" button of the address form. The page comes back
// with the form as it was typed and the panel's postcodes matching the postcode field to
// choose from (an htmx request swaps in the address section alone).
func (m *Module) settingsAddressLookup(c fiber.Ctx) error {
	in := addressForm(c)
	props, err := m.settingsProps(c)
	if err != nil {
		return err
	}
	props.Address.Values = in.values()
	search := strings.TrimSpace(in.Postcode)
	if search == "" {
		props.Address.Errors = map[string]string{"postcode": m.kit.T(c, "error.postcode_search_empty", nil)}
		return m.renderSettings(c, fiber.StatusBadRequest, props)
	}
	places, err := m.svc.LookupPostcodes(c.Context(), web.PanelOf(c), search)
	if err != nil {
		return err
	}
	props.LookupDone = true
	for _, p := range places {
		props.Places = append(props.Places, views.Option{Value: p.ID, Label: p.Label})
	}
	return m.renderSettings(c, fiber.StatusOK, props)
}
