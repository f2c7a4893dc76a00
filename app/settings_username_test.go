package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type profileJSON struct {
	Username    string         `json:"username"`
	GUID        string         `json:"guid"`
	PPUUID      string         `json:"ppUuid"`
	Email       string         `json:"email"`
	Metadata    map[string]any `json:"metadata"`
	ProfilePics []struct {
		Key string `json:"key"`
		URL string `json:"url"`
	} `json:"profilePics"`
}

func TestAUsernameFollowsItsRulesAndEachRefusalNamesTheField(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "rules@demo.test")
		tests := []struct {
			name, username string
			message        string
		}{
			{"an empty one", "", "This field is required."},
			{"two characters", "ab", "A username has 3 to 30 characters."},
			{"31 characters", strings.Repeat("a", 31), "A username has 3 to 30 characters."},
			{"a space", "dana smith", "A username may use letters, digits, dots, dashes and underscores only"},
			{"a dash first", "-dana", "A username may use letters, digits, dots, dashes and underscores only"},
			{"a letter beyond ASCII", "dänä", "A username may use letters, digits, dots, dashes and underscores only"},
			{"markup", "<b>dana</b>", "A username may use letters, digits, dots, dashes and underscores only"},
			{"the staff's name", "Support", "This username is reserved."},
		}
		for _, tt := range tests {
			res := c.postJSON("/ah/api/v1/change-username", fmt.Sprintf(`{"username":%q}`, tt.username))
			body := decodeJSON[apiErrorJSON](t, res, http.StatusBadRequest)
			assert.Contains(t, body.Message, tt.message, tt.name)
			require.NotEmpty(t, body.Details, tt.name)
			assert.Equal(t, "username", body.Details[0].Field, tt.name)
		}
		p := decodeJSON[profileJSON](t, c.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.Empty(t, p.Username, "no refusal wrote anything")

		ok := decodeJSON[profileJSON](t, c.postJSON("/ah/api/v1/change-username", `{"username":" dana.smith_1 "}`), http.StatusOK)
		assert.Equal(t, "dana.smith_1", ok.Username, "trimmed and taken; the answer is the profile")
	})
}

func TestAUsernameIsUniquePerPanelWhateverItsCase(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		dana := e.apiMember("localhost", "dana@demo.test")
		sam := e.apiMember("localhost", "sam@demo.test")
		require.Equal(t, http.StatusOK, dana.postJSON("/ah/api/v1/change-username", `{"username":"DanaS"}`).StatusCode)

		taken := decodeJSON[apiErrorJSON](t, sam.postJSON("/ah/api/v1/change-username", `{"username":"danas"}`), http.StatusConflict)
		assert.Equal(t, "This username is taken. Please choose another.", taken.Message)
		require.NotEmpty(t, taken.Details)
		assert.Equal(t, "username", taken.Details[0].Field)
		assert.Equal(t, "username_taken", taken.Details[0].Code)

		profileSave := sam.postJSON("/ah/api/v1/user/profile", `{"username":"DANAS"}`)
		assert.Equal(t, http.StatusConflict, profileSave.StatusCode, "user/profile keeps the same rule: %s", profileSave.Body)
		assert.Equal(t, http.StatusBadRequest, sam.postJSON("/ah/api/v1/user/profile", `{"username":"no spaces please"}`).StatusCode)

		mine := decodeJSON[profileJSON](t, dana.postJSON("/ah/api/v1/change-username", `{"username":"danas"}`), http.StatusOK)
		assert.Equal(t, "danas", mine.Username, "a member may change the case of their own name")

		other := e.apiMember("northwind.localhost", "dana@northwind.test")
		assert.Equal(t, http.StatusOK, other.postJSON("/ah/api/v1/change-username", `{"username":"danas"}`).StatusCode, "another panel's members are apart")
	})
}

func TestAnotherPanelsMemberCannotChangeAUsernameHere(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		nw := e.apiMember("northwind.localhost", "visitor@northwind.test")
		here := e.client("localhost")
		here.header.Set("pp-token", nw.header.Get("pp-token"))
		assert.Equal(t, http.StatusUnauthorized, here.postJSON("/ah/api/v1/change-username", `{"username":"intruder"}`).StatusCode,
			"a pp-token names no member of this panel")
		p := decodeJSON[profileJSON](t, nw.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.Empty(t, p.Username)
	})
}

func TestTheSettingsPageChangesTheUsernameAndShowsWhyNot(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.apiMember("localhost", "first@demo.test").postJSON("/ah/api/v1/change-username", `{"username":"taken_name"}`)
		c := e.member()
		c.get("/settings")

		bad := c.postForm("/settings/username", url.Values{"username": {"a b"}})
		require.Equal(t, http.StatusBadRequest, bad.StatusCode)
		assert.Contains(t, bad.Body, `id="e-username"`, "the message is beside the field")
		assert.Contains(t, bad.Body, `value="a b"`, "what was typed comes back")

		taken := c.postForm("/settings/username", url.Values{"username": {"Taken_Name"}})
		require.Equal(t, http.StatusConflict, taken.StatusCode)
		assert.Contains(t, taken.Body, "This username is taken.")

		ok := c.postForm("/settings/username", url.Values{"username": {"demo_member"}})
		require.Equal(t, http.StatusSeeOther, ok.StatusCode, ok.Body)
		page := c.get("/settings")
		assert.Contains(t, page.Body, `<strong class="username-current">demo_member</strong>`)
		assert.Contains(t, page.Body, "Your username has been changed.")
	})
}
