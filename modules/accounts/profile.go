package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// UserProfile is the spec's user profile.
type UserProfile struct {
	PPToken                 string            `json:"ppToken,omitempty"`
	PPUUID                  string            `json:"ppUuid"`
	GUID                    string            `json:"guid"`
	InstanceURL             string            `json:"instanceUrl"`
	InstanceCode            string            `json:"instanceCode"`
	InstanceKey             string            `json:"instanceKey"`
	PanelKey                string            `json:"panelKey"`
	LanguageCode            string            `json:"languageCode"`
	AcceptedTermsConditions bool              `json:"acceptedTermsConditions"`
	EmailValidated          bool              `json:"emailValidated"`
	PlatformName            string            `json:"platformName"`
	AhAPIHost               string            `json:"ahApiHost,omitempty"`
	IsEligibleToRefer       bool              `json:"isEligibleToRefer"`
	Metadata                Metadata          `json:"metadata"`
	ProfilePics             []ProfilePic      `json:"profilePics"`
	TrackingIDs             map[string]string `json:"trackingIds"`
	OAuthConnections        []string          `json:"oauthConnections"`
	Email                   string            `json:"email"`
	Username                string            `json:"username"`
	FirstName               string            `json:"firstName"`
	LastName                string            `json:"lastName"`
	// HasPassword: the member can sign in with a password (the settings page; not in the API).
	HasPassword bool `json:"-"`
}

type ProfilePic struct {
	Key string `json:"key"`
	URL string `json:"url"`
}

// Tracking gives the member's ids at third parties for the profile's trackingIds (the offers
// module: hasOffersId, the member's sub-id at the panel's offers provider).
type Tracking interface {
	TrackingIDs(ctx context.Context, panel *web.Panel, participantID string) (map[string]string, error)
}

// SetTracking plugs in the profile's trackingIds; call it while wiring the app.
func (m *Module) SetTracking(t Tracking) { m.svc.tracking = t }

// Profile builds the profile of the signed-in member; origin is the instance URL (same origin).
func (s *Service) Profile(ctx context.Context, panel *web.Panel, m *web.Member, origin string) (*UserProfile, error) {
	ah, err := s.store.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return nil, err
	}
	p, err := s.store.Participant(ctx, m.ParticipantID)
	if err != nil {
		return nil, err
	}
	md := p.Metadata
	if md == nil {
		md = Metadata{}
	}
	conns, err := s.store.Connections(ctx, ah.ID)
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
	return &UserProfile{
		PPToken: m.Token, PPUUID: p.ID, GUID: ah.ID, InstanceURL: origin, InstanceCode: panel.InstanceCode,
		InstanceKey: panel.InstanceKey, PanelKey: panel.Key, LanguageCode: ah.LanguageCode,
		AcceptedTermsConditions: ah.AcceptedTermsAt != nil, EmailValidated: ah.EmailValidatedAt != nil,
		PlatformName: panel.Name, IsEligibleToRefer: p.IsEligibleToRefer, Metadata: md,
		ProfilePics: pics, TrackingIDs: tracking, OAuthConnections: conns,
		Email: ah.Email, Username: ah.Username, FirstName: ah.FirstName, LastName: ah.LastName,
		HasPassword: ah.PasswordHash != "",
	}, nil
}

// editable maps the profile fields a member may change to their columns.
var editable = map[string]string{"username": "username", "firstName": "first_name", "lastName": "last_name", "languageCode": "language_code"}

// ErrBlankUpdate is the spec's error for a profile save that changes nothing.
var ErrBlankUpdate = web.Literal(fiber.StatusBadRequest, "saveProfile: blank update attempted")

// SaveProfile applies changed fields. Fields equal to the current value are stripped first;
// nothing left is the spec's "saveProfile: blank update attempted" error.
func (s *Service) SaveProfile(ctx context.Context, panel *web.Panel, m *web.Member, body []byte) error {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(body, &in); err != nil || in == nil {
		return web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	ah, err := s.store.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return err
	}
	current := map[string]string{"username": ah.Username, "firstName": ah.FirstName, "lastName": ah.LastName, "languageCode": ah.LanguageCode}
	changes := map[string]any{}
	var verr *web.Error
	for field, raw := range in {
		col, ok := editable[field]
		if !ok {
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
		max := maxNameLength
		if field == "username" {
			max = maxUsernameLength
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
		if e := checkText(nil, field, v, max); e != nil {
			if verr == nil {
				verr = e
			} else {
				verr.Details = append(verr.Details, e.Details...)
			}
			continue
		}
		changes[col] = v
	}
	if verr != nil {
		return verr
	}
	if len(changes) == 0 {
		return ErrBlankUpdate
	}
	err = s.store.UpdateHolder(ctx, ah.ID, changes)
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return errUsernameTaken("username") // the one unique column a profile save writes
	}
	return err
}

func appendInvalid(e *web.Error, field, id string) *web.Error {
	if e == nil {
		return web.Invalid(field, id, nil)
	}
	return e.Also(field, id, nil)
}

// MarkWelcomeCompleted sets metadata.welcomeCampaignCompleted once (the campaigns module calls it).
func (s *Service) MarkWelcomeCompleted(ctx context.Context, participantID string) error {
	return s.setMetadataFlag(ctx, participantID, "welcomeCampaignCompleted")
}

// setMetadataFlag sets metadata.KEY to true in the member's profile, once.
func (s *Service) setMetadataFlag(ctx context.Context, participantID, key string) error {
	p, err := s.store.Participant(ctx, participantID)
	if err != nil {
		return err
	}
	if done, _ := p.Metadata[key].(bool); done {
		return nil
	}
	md := p.Metadata
	if md == nil {
		md = Metadata{}
	}
	md[key] = true
	return s.store.SetMetadata(ctx, participantID, md)
}

// ChangePassword checks the current password, sets the new one and ends the member's other sessions.
func (s *Service) ChangePassword(ctx context.Context, m *web.Member, oldPassword, newPassword string) error {
	if perr := checkPassword("newPassword", newPassword); perr != nil {
		return perr
	}
	ah, err := s.store.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return err
	}
	ok, err := CheckPassword(ah.PasswordHash, oldPassword)
	if err != nil {
		return err
	}
	if !ok {
		return web.Invalid("oldPassword", "error.old_password_wrong", nil)
	}
	hash, err := HashPassword(newPassword)
	if err != nil {
		return err
	}
	return s.store.SetPassword(ctx, ah.ID, m.ParticipantID, m.SessionID, hash)
}
