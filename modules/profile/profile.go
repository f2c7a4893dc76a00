package profile

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Tracking gives the member's ids at third parties for the profile's trackingIds (the offers
// module: hasOffersId, the member's sub-id at the panel's offers provider).
type Tracking interface {
	TrackingIDs(ctx context.Context, panel *web.Panel, participantID string) (map[string]string, error)
}

// SetTracking plugs in the profile's trackingIds; call it while wiring the app.
func (m *Module) SetTracking(t Tracking) { m.svc.tracking = t }

// Profile builds the profile of the signed-in member (accounts.Profiles: a login and a sign-up
// answer it too); origin is the instance URL (same origin).
func (m *Module) Profile(ctx context.Context, panel *web.Panel, member *web.Member, origin string) (*accounts.UserProfile, error) {
	return m.svc.Profile(ctx, panel, member, origin)
}

// Profile builds the profile of the signed-in member; origin is the instance URL (same origin).
func (s *Service) Profile(ctx context.Context, panel *web.Panel, m *web.Member, origin string) (*accounts.UserProfile, error) {
	ah, err := s.accounts.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return nil, err
	}
	p, err := s.accounts.Participant(ctx, m.ParticipantID)
	if err != nil {
		return nil, err
	}
	md := p.Metadata
	if md == nil {
		md = accounts.Metadata{}
	}
	conns, err := s.accounts.ConnectionsOf(ctx, ah.ID)
	if err != nil {
		return nil, err
	}
	if conns == nil {
		conns = []string{}
	}
	pics, err := s.profilePics(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	tracking := map[string]string{}
	if s.tracking != nil {
		if tracking, err = s.tracking.TrackingIDs(ctx, panel, p.ID); err != nil {
			return nil, err
		}
	}
	return &accounts.UserProfile{
		PPToken: m.Token, PPUUID: p.ID, GUID: ah.ID, InstanceURL: origin, InstanceCode: panel.InstanceCode,
		InstanceKey: panel.InstanceKey, PanelKey: panel.Key, LanguageCode: ah.LanguageCode,
		AcceptedTermsConditions: ah.AcceptedTermsAt != nil, EmailValidated: ah.EmailValidatedAt != nil,
		PlatformName: panel.Name, IsEligibleToRefer: p.IsEligibleToRefer, Metadata: md,
		ProfilePics: pics, TrackingIDs: tracking, OAuthConnections: conns,
		Email: ah.Email, Username: ah.Username, FirstName: ah.FirstName, LastName: ah.LastName,
		HasPassword: ah.PasswordHash != "",
	}, nil
}

// editable are the profile fields a member may change (accounts.Module.SetProfileFields).
var editable = map[string]bool{"username": true, "firstName": true, "lastName": true, "languageCode": true}

// ErrBlankUpdate is the spec's error for a profile save that changes nothing.
var ErrBlankUpdate = web.Literal(fiber.StatusBadRequest, "saveProfile: blank update attempted")

// SaveProfile applies changed fields. Fields equal to the current value are stripped first;
// nothing left is the spec's "saveProfile: blank update attempted" error.
func (s *Service) SaveProfile(ctx context.Context, panel *web.Panel, m *web.Member, body []byte) error {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(body, &in); err != nil || in == nil {
		return web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	ah, err := s.accounts.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return err
	}
	current := map[string]string{"username": ah.Username, "firstName": ah.FirstName, "lastName": ah.LastName, "languageCode": ah.LanguageCode}
	changes := map[string]string{}
	var verr *web.Error
	for field, raw := range in {
		if !editable[field] {
			verr = appendInvalid(verr, field, "error.field_not_editable")
			continue
		}
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			verr = appendInvalid(verr, field, "error.must_be_text")
			continue
		}
		v = strings.TrimSpace(v)
		if v == current[field] {
			continue
		}
		max := accounts.MaxNameLength
		if field == "username" {
			max = accounts.MaxUsernameLength
		}
		if field == "languageCode" && !panel.Offers(v) {
			verr = appendInvalid(verr, field, "error.language_not_offered")
			continue
		}
		if field == "username" && v != "" {
			// The username rule of change-username holds here too; "" clears it.
			if e := checkUsername(field, v); e != nil {
				if verr == nil {
					verr = e
				} else {
					verr.Details = append(verr.Details, e.Details...)
				}
				continue
			}
		}
		if e := accounts.CheckText(nil, field, v, max); e != nil {
			if verr == nil {
				verr = e
			} else {
				verr.Details = append(verr.Details, e.Details...)
			}
			continue
		}
		changes[field] = v
	}
	if verr != nil {
		return verr
	}
	if len(changes) == 0 {
		return ErrBlankUpdate
	}
	err = s.accounts.SetProfileFields(ctx, ah.ID, changes)
	if errors.Is(err, accounts.ErrUsernameTaken) {
		return errUsernameTaken("username")
	}
	return err
}

func appendInvalid(e *web.Error, field, id string) *web.Error {
	if e == nil {
		return web.Invalid(field, id, nil)
	}
	return e.Also(field, id, nil)
}

// GET user/profile (account host) and GET /api/v3/user/profile (instance API).
func (m *Module) apiProfile(c fiber.Ctx) error {
	profile, err := m.svc.Profile(c.Context(), web.PanelOf(c), web.MemberOf(c), c.BaseURL())
	if err != nil {
		return err
	}
	return c.JSON(profile)
}

// POST /ah/api/v1/user/profile with the changed fields.
func (m *Module) apiSaveProfile(c fiber.Ctx) error {
	var raw json.RawMessage
	if err := web.DecodeJSON(c, &raw); err != nil {
		return err
	}
	if err := m.svc.SaveProfile(c.Context(), web.PanelOf(c), web.MemberOf(c), raw); err != nil {
		return err
	}
	return m.apiProfile(c)
}

// GET /ah/api/v1/user/profile/jwt: a short-lived HS256 token naming the member, for services
// that verify the member without our session store.
func (m *Module) apiProfileJWT(c fiber.Ctx) error {
	member, panel := web.MemberOf(c), web.PanelOf(c)
	now := time.Now().Unix()
	header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims, _ := json.Marshal(map[string]any{"sub": member.ParticipantID, "guid": member.AccountHolderID, "panelKey": panel.Key, "iat": now, "exp": now + 900, "iss": "canvass"})
	body := header + "." + base64.RawURLEncoding.EncodeToString(claims)
	mac := hmac.New(sha256.New, m.kit.Secret("profile-jwt"))
	mac.Write([]byte(body))
	c.Set(fiber.HeaderCacheControl, "no-store") // a bearer token
	return c.JSON(fiber.Map{"token": body + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))})
}
