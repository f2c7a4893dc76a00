package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type addressJSON struct {
	Address *struct {
		Line1      string `json:"addressLine1"`
		Line2      string `json:"addressLine2"`
		City       string `json:"city"`
		Region     string `json:"region"`
		Postcode   string `json:"postcode"`
		PostcodeID string `json:"postcodeId"`
		Country    string `json:"country"`
	} `json:"address"`
}

func TestThePostalAddressIsCheckedAgainstThePanelsPostcodes(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "home@demo.test")
		none := decodeJSON[addressJSON](t, c.get("/ah/api/v1/profile/postal-address"), http.StatusOK)
		assert.Nil(t, none.Address, "no address yet")
		pid := c.participantID(t)
		has, err := e.app.Profile.HasPostalAddress(context.Background(), pid)
		require.NoError(t, err)
		assert.False(t, has)

		tests := []struct {
			name, body, field, message string
		}{
			{"no first line", `{"city":"Boston","postcode":"02108"}`, "addressLine1", "This field is required."},
			{"a postcode the panel does not have", `{"addressLine1":"1 Main St","city":"Springfield","postcode":"99999"}`, "postcode", "This postcode is not one we know."},
			{"a chosen postcode id the panel does not have", `{"addressLine1":"1 Main St","postcodeId":"SW1A"}`, "postcode", "This postcode is not one we know."},
			{"a country of three letters", `{"addressLine1":"1 Main St","postcode":"02108","country":"USA"}`, "country", "A country code has two letters"},
			{"a line too long", `{"addressLine1":"` + strings.Repeat("x", 101) + `","postcode":"02108"}`, "addressLine1", "at most 100 characters"},
		}
		for _, tt := range tests {
			body := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/profile/postal-address", tt.body), http.StatusBadRequest)
			require.NotEmpty(t, body.Details, tt.name)
			fields := map[string]string{}
			for _, d := range body.Details {
				fields[d.Field] = d.Message
			}
			assert.Contains(t, fields[tt.field], tt.message, "%s: %s", tt.name, body.Message)
		}
		has, err = e.app.Profile.HasPostalAddress(context.Background(), pid)
		require.NoError(t, err)
		assert.False(t, has, "no refusal wrote anything")

		// A typed postcode in any form is the panel's; its town and state fill the blanks.
		saved := decodeJSON[addressJSON](t, c.postJSON("/ah/api/v1/profile/postal-address",
			`{"addressLine1":" 1  Beacon St ","postcode":" 02108 ","country":"us"}`), http.StatusOK)
		require.NotNil(t, saved.Address)
		assert.Equal(t, "1 Beacon St", saved.Address.Line1, "white space collapsed (the spec's text helper), line breaks too")
		assert.Equal(t, "Boston", saved.Address.City)
		assert.Equal(t, "MA", saved.Address.Region)
		assert.Equal(t, "02108", saved.Address.PostcodeID)
		assert.Equal(t, "US", saved.Address.Country)

		// Chosen from the lookup by id, with a town of the member's own.
		saved = decodeJSON[addressJSON](t, c.postJSON("/ah/api/v1/profile/postal-address",
			`{"addressLine1":"350 5th Ave","city":"Manhattan","postcodeId":"10001"}`), http.StatusOK)
		assert.Equal(t, "10001", saved.Address.Postcode)
		assert.Equal(t, "Manhattan", saved.Address.City, "a town given is kept")
		got := decodeJSON[addressJSON](t, c.get("/ah/api/v1/profile/postal-address"), http.StatusOK)
		assert.Equal(t, saved.Address, got.Address)
		has, err = e.app.Profile.HasPostalAddress(context.Background(), pid)
		require.NoError(t, err)
		assert.True(t, has)
	})
}

func TestAPanelWithoutPostcodesTakesAWellFormedPostcodeAsTyped(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		require.NoError(t, e.db.Exec(`DELETE FROM postcodes WHERE panel_id = (SELECT id FROM panels WHERE key = 'northwind')`).Error)
		c := e.apiMember("northwind.localhost", "home@northwind.test")
		saved := decodeJSON[addressJSON](t, c.postJSON("/ah/api/v1/profile/postal-address",
			`{"addressLine1":"10 Downing St","city":"London","postcode":"sw1a 2aa"}`), http.StatusOK)
		assert.Equal(t, "SW1A 2AA", saved.Address.Postcode)
		assert.Empty(t, saved.Address.PostcodeID)
		bad := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/profile/postal-address",
			`{"addressLine1":"10 Downing St","city":"London","postcode":"<b>"}`), http.StatusBadRequest)
		assert.Equal(t, "postcode", bad.Details[0].Field)
	})
}

func TestTheSettingsPageFindsTheAddressByPostcode(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.get("/settings")

		empty := c.postForm("/settings/address/lookup", url.Values{"postcode": {""}})
		assert.Equal(t, http.StatusBadRequest, empty.StatusCode)
		assert.Contains(t, empty.Body, "Type a postcode to find your address.")

		found := c.postForm("/settings/address/lookup", url.Values{"postcode": {"1000"}, "addressLine1": {"350 5th Ave"}})
		require.Equal(t, http.StatusOK, found.StatusCode)
		assert.Contains(t, found.Body, "9 places match: choose yours", "every 1000x ZIP of the demo")
		assert.Contains(t, found.Body, `value="10001" checked`, "the first is chosen")
		assert.Contains(t, found.Body, `value="350 5th Ave"`, "what was typed stays")

		nothing := c.postForm("/settings/address/lookup", url.Values{"postcode": {"zzz"}})
		assert.Contains(t, nothing.Body, "No address was found for this postcode.")

		saved := c.postForm("/settings/address", url.Values{"addressLine1": {"350 5th Ave"}, "postcodeId": {"10001"}, "postcode": {"1000"}})
		require.Equal(t, http.StatusSeeOther, saved.StatusCode, saved.Body)
		page := c.get("/settings")
		assert.Contains(t, page.Body, `value="10001"`)
		assert.Contains(t, page.Body, `value="New York"`, "the town from the postcode")
		assert.Contains(t, page.Body, "Your address has been saved.")

		refused := c.postForm("/settings/address", url.Values{"addressLine1": {""}, "postcode": {"99999"}})
		require.Equal(t, http.StatusBadRequest, refused.StatusCode)
		assert.Contains(t, refused.Body, `id="e-addressLine1"`)
		assert.Contains(t, refused.Body, `id="e-postcode"`)
	})
}

func TestAMemberSetsOnlyTheMetadataKeysMembersMaySet(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "meta@demo.test")
		tests := []struct {
			name, body, field, code string
		}{
			{"the welcome campaign's flag", `{"welcomeCampaignCompleted":true}`, "metadata.welcomeCampaignCompleted", "metadata_system_key"},
			{"onboarding's flag", `{"onboardingCompleted":true}`, "metadata.onboardingCompleted", "metadata_system_key"},
			{"the site", `{"siteId":"northwind"}`, "metadata.siteId", "metadata_system_key"},
			{"an invitation", `{"inviteId":"abc"}`, "metadata.inviteId", "metadata_system_key"},
			{"the location, which has its own call", `{"location":{"postcode":"02108"}}`, "metadata.location", "metadata_system_key"},
			{"a key nobody knows", `{"isAdmin":true}`, "metadata.isAdmin", "metadata_unknown_key"},
			{"wrapped, a system key", `{"metadata":{"welcomeCampaignCompleted":true}}`, "metadata.welcomeCampaignCompleted", "metadata_system_key"},
			{"a date of birth in the future", `{"dateOfBirth":"2999-01-01"}`, "metadata.dateOfBirth", "invalid"},
			{"a date of birth that is no date", `{"dateOfBirth":"1990-02-30"}`, "metadata.dateOfBirth", "invalid"},
			{"a gender outside the list", `{"gender":"<script>"}`, "metadata.gender", "invalid"},
			{"a household of 1.5", `{"householdSize":1.5}`, "metadata.householdSize", "invalid"},
			{"a household as text", `{"householdSize":"3"}`, "metadata.householdSize", "invalid"},
		}
		for _, tt := range tests {
			body := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/user/profile/metadata", tt.body), http.StatusBadRequest)
			require.NotEmpty(t, body.Details, tt.name)
			assert.Equal(t, tt.field, body.Details[0].Field, tt.name)
			assert.Equal(t, tt.code, body.Details[0].Code, tt.name)
			assert.NotEmpty(t, body.Message, tt.name)
		}
		mixed := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/user/profile/metadata", `{"gender":"female","welcomeCampaignCompleted":true}`), http.StatusBadRequest)
		assert.Len(t, mixed.Details, 1, "the allowed key of a refused body is not written either")
		p := decodeJSON[profileJSON](t, c.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.NotContains(t, p.Metadata, "welcomeCampaignCompleted")
		assert.NotContains(t, p.Metadata, "gender")

		p = decodeJSON[profileJSON](t, c.postJSON("/ah/api/v1/user/profile/metadata",
			`{"dateOfBirth":"1990-04-01","gender":"non-binary","householdSize":3,"smartFuelCard":"7000 1234 5678"}`), http.StatusOK)
		assert.Equal(t, "1990-04-01", p.Metadata["dateOfBirth"])
		assert.Equal(t, "non-binary", p.Metadata["gender"])
		assert.EqualValues(t, 3, p.Metadata["householdSize"])
		assert.Equal(t, "demo", p.Metadata["siteId"], "the app's own keys stay")

		p = decodeJSON[profileJSON](t, c.postJSON("/ah/api/v1/user/profile/metadata", `{"metadata":{"gender":null}}`), http.StatusOK)
		assert.NotContains(t, p.Metadata, "gender", "null removes a key; the spec's {metadata} wrapper is read")
		assert.Equal(t, "1990-04-01", p.Metadata["dateOfBirth"])

		// The profile save keeps the spec's rule.
		blank := c.postJSON("/ah/api/v1/user/profile", `{}`)
		_, message, _ := apiError(t, blank)
		assert.Equal(t, "saveProfile: blank update attempted", message)
	})
}

func TestTheLocationIsOneOfThePanelsPostcodes(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("northwind.localhost", "where@northwind.test")
		bad := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/user/profile/location", `{"postcode":"ZZ99"}`), http.StatusBadRequest)
		assert.Equal(t, "postcode", bad.Details[0].Field)
		empty := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/user/profile/location", `{}`), http.StatusBadRequest)
		assert.Equal(t, "postcode", empty.Details[0].Field)

		p := decodeJSON[profileJSON](t, c.postJSON("/ah/api/v1/user/profile/location", `{"postcode":"sw19"}`), http.StatusOK)
		loc, ok := p.Metadata["location"].(map[string]any)
		require.True(t, ok, "%v", p.Metadata)
		assert.Equal(t, "SW19", loc["postcode"])
		assert.Equal(t, "SW19, Wimbledon, London", loc["label"])

		p = decodeJSON[profileJSON](t, c.postJSON("/ah/api/v1/user/profile/location", `{"postcode":"","id":"AB10"}`), http.StatusOK)
		assert.Equal(t, "AB10", p.Metadata["location"].(map[string]any)["id"], "chosen by id")
	})
}

// participantID is the ppUuid of the member a client is signed in as.
func (c *client) participantID(t *testing.T) string {
	t.Helper()
	p := decodeJSON[profileJSON](t, c.get("/ah/api/v1/user/profile"), http.StatusOK)
	require.NotEmpty(t, p.PPUUID)
	return p.PPUUID
}

func TestTheSettingsPageSetsTheAboutYouAnswersAndTheArea(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.get("/settings")
		bad := c.postForm("/settings/about", url.Values{"dateOfBirth": {"1990-04-01"}, "householdSize": {"lots"}})
		require.Equal(t, http.StatusBadRequest, bad.StatusCode)
		assert.Contains(t, bad.Body, `id="e-householdSize"`, "the refusal is beside its field")
		assert.Contains(t, bad.Body, `value="lots"`)

		ok := c.postForm("/settings/about", url.Values{"dateOfBirth": {"1990-04-01"}, "gender": {"female"}, "householdSize": {"3"}, "smartFuelCard": {""}})
		require.Equal(t, http.StatusSeeOther, ok.StatusCode, ok.Body)
		page := c.get("/settings")
		assert.Contains(t, page.Body, `value="1990-04-01"`)
		assert.Contains(t, page.Body, `<option value="female" selected>`)
		assert.Contains(t, page.Body, `value="3"`)
		p := decodeJSON[profileJSON](t, c.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.EqualValues(t, 3, p.Metadata["householdSize"], "a number, as the API's rule keeps it")
		assert.Equal(t, true, p.Metadata["welcomeCampaignCompleted"], "the app's keys stay")

		cleared := c.postForm("/settings/about", url.Values{"dateOfBirth": {"1990-04-01"}, "gender": {""}, "householdSize": {"3"}})
		require.Equal(t, http.StatusSeeOther, cleared.StatusCode)
		p = decodeJSON[profileJSON](t, c.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.NotContains(t, p.Metadata, "gender", "an emptied field removes its key")

		area := c.postForm("/settings/location", url.Values{"locationPostcode": {"99999"}})
		require.Equal(t, http.StatusBadRequest, area.StatusCode)
		assert.Contains(t, area.Body, `id="e-locationPostcode"`)
		area = c.postForm("/settings/location", url.Values{"locationPostcode": {"02108"}})
		require.Equal(t, http.StatusSeeOther, area.StatusCode, area.Body)
		assert.Contains(t, c.get("/settings").Body, `<strong class="location-current">02108, Boston, MA</strong>`)
	})
}
