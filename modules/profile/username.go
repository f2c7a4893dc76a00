package profile

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Username rules: 3 to 30 characters, ASCII letters, digits, dot, dash and underscore,
// starting with a letter or a digit. Unique per panel whatever the case ("Dana" and "dana"
// are one name), so members can't pass for one another.
const (
	minUsernameLength = 3
	maxUsernameRule   = 30
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// reservedUsernames would let a member pass for the panel's staff.
var reservedUsernames = map[string]bool{
	"admin": true, "administrator": true, "support": true, "help": true, "moderator": true, "staff": true,
	"system": true, "root": true, "canvass": true, "official": true, "security": true, "team": true,
}

// checkUsername is the username rule's first failure, for the field.
func checkUsername(field, v string) *web.Error {
	n := len(v) // ASCII only, so bytes are characters; a longer text fails the characters rule anyway
	switch {
	case v == "":
		return web.Invalid(field, "error.required", nil)
	case !usernameRE.MatchString(v):
		return web.Invalid(field, "error.username_characters", nil)
	case n < minUsernameLength || n > maxUsernameRule:
		return web.Invalid(field, "error.username_length", map[string]any{"Min": minUsernameLength, "Max": maxUsernameRule})
	case reservedUsernames[strings.ToLower(v)]:
		return web.Invalid(field, "error.username_reserved", nil)
	}
	return nil
}

// errUsernameTaken is the 409 of a username another member of the panel has.
func errUsernameTaken(field string) *web.Error {
	e := web.Invalid(field, "error.username_taken", nil).WithCode("username_taken")
	e.Status = fiber.StatusConflict
	return e
}

// ChangeUsername gives the member a new username (POST change-username). The member's own
// name again, even in another case, is theirs to take.
func (s *Service) ChangeUsername(ctx context.Context, panel *web.Panel, m *web.Member, username string) error {
	username = strings.TrimSpace(username)
	if err := checkUsername("username", username); err != nil {
		return err
	}
	err := s.accounts.SetUsername(ctx, panel.ID, m.AccountHolderID, username)
	if errors.Is(err, accounts.ErrUsernameTaken) {
		return errUsernameTaken("username")
	}
	return err
}

// POST /ah/api/v1/change-username {username}
func (m *Module) apiChangeUsername(c fiber.Ctx) error {
	var in struct {
		Username string `json:"username"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if err := m.svc.ChangeUsername(c.Context(), web.PanelOf(c), web.MemberOf(c), in.Username); err != nil {
		return err
	}
	return m.apiProfile(c)
}

// POST /settings/username: the settings page's form.
func (m *Module) settingsUsername(c fiber.Ctx) error {
	username := c.FormValue("username")
	err := m.svc.ChangeUsername(c.Context(), web.PanelOf(c), web.MemberOf(c), username)
	if err == nil {
		m.kit.FlashNext(c, "success", "flash.username_changed")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings#username")
	}
	return m.settingsFailed(c, err, sectionUsername, map[string]string{"username": username})
}
