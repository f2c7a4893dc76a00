package console

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	consoleviews "github.com/canvass/canvass/views/console"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// APIToken is an operator's token for the console's JSON API (issue 21, part 6). Only the
// token's SHA-256 is kept; the token itself is shown once, when it is created.
type APIToken struct {
	ID         string `gorm:"primaryKey"`
	OperatorID string
	Name       string
	TokenHash  string
	Scopes     string // space-separated actions
	PanelID    string // "" for every panel the operator holds a role on
	CreatedAt  time.Time
	ExpiresAt  *time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

func (APIToken) TableName() string { return "operator_api_tokens" }

// ScopeList is the token's actions.
func (t *APIToken) ScopeList() []Action {
	var out []Action
	for _, s := range strings.Fields(t.Scopes) {
		out = append(out, Action(s))
	}
	return out
}

// TokenPrefix starts every operator API token, so a leaked one is recognisable (secret scanners).
const TokenPrefix = "cvo_"

// Token limits: a name's length, the lifetimes offered (days; 0 never expires), and how often
// a token's last use is written (not at every call: one write a minute at most).
const (
	tokenNameMax     = 80
	tokenTouchEvery  = time.Minute
	apiFailuresPerIP = 60
)

// TokenLifetimes are the lifetimes a new token may have, in days (0: never expires).
var TokenLifetimes = []int{30, 90, 365, 0}

var (
	ErrTokenName   = fmt.Errorf("a token needs a name of 1 to %d characters", tokenNameMax)
	ErrTokenScopes = errors.New("a token needs at least one scope among the actions the operator may do")
	ErrTokenPanel  = errors.New("the token's panel must be one the operator holds a role on")
	ErrTokenExpiry = errors.New("the token's lifetime must be 30, 90 or 365 days, or never")
)

// TokenInput is what an operator asks for when creating a token.
type TokenInput struct {
	Name     string
	Scopes   []Action
	PanelKey string // "" for all their panels
	Days     int    // one of TokenLifetimes
}

// CreateToken makes a token for op: its scopes must be actions op may do on the chosen panel
// (or on some panel, for a token of all of them). The token is returned once, never kept.
func (s *Service) CreateToken(ctx context.Context, who Actor, op *Operator, in TokenInput) (string, *APIToken, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" || utf8.RuneCountInString(name) > tokenNameMax {
		return "", nil, ErrTokenName
	}
	if !slices.Contains(TokenLifetimes, in.Days) {
		return "", nil, ErrTokenExpiry
	}
	access, err := s.Access(ctx, op.ID)
	if err != nil {
		return "", nil, err
	}
	panelID := ""
	if in.PanelKey != "" {
		i := slices.IndexFunc(access, func(a PanelAccess) bool { return a.Panel.Key == in.PanelKey })
		if i < 0 {
			return "", nil, ErrTokenPanel
		}
		panelID, access = access[i].Panel.ID, access[i:i+1]
	}
	var scopes []string
	for _, a := range Actions { // in the catalogue's order, each once
		if !slices.Contains(in.Scopes, a) {
			continue
		}
		if !slices.ContainsFunc(access, func(p PanelAccess) bool { return p.Can(a) }) {
			return "", nil, ErrTokenScopes
		}
		scopes = append(scopes, string(a))
	}
	if len(scopes) == 0 || len(scopes) != len(uniqueActions(in.Scopes)) {
		return "", nil, ErrTokenScopes
	}
	token := TokenPrefix + strings.ToLower(randomBase32(32))
	now := s.now().UTC()
	t := &APIToken{
		ID: uuid.NewString(), OperatorID: op.ID, Name: name, TokenHash: HashToken(token),
		Scopes: strings.Join(scopes, " "), PanelID: panelID, CreatedAt: now,
	}
	if in.Days > 0 {
		exp := now.AddDate(0, 0, in.Days)
		t.ExpiresAt = &exp
	}
	err = s.store.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(t).Error; err != nil {
			return fmt.Errorf("create API token: %w", err)
		}
		return s.auditTx(ctx, tx, who, panelID, "token.create", t.Name+" ("+t.ID+")", nil, tokenAudit(t))
	})
	if err != nil {
		return "", nil, err
	}
	return token, t, nil
}

func uniqueActions(in []Action) []Action {
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}

// tokenAudit is what the audit log keeps of a token: never the token or its hash.
func tokenAudit(t *APIToken) map[string]any {
	return map[string]any{"name": t.Name, "scopes": t.Scopes, "panel_id": t.PanelID, "expires_at": t.ExpiresAt, "revoked": t.RevokedAt != nil}
}

// Tokens lists an operator's tokens, newest first (revoked ones too, marked).
func (s *Service) Tokens(ctx context.Context, operatorID string) ([]APIToken, error) {
	var out []APIToken
	err := s.store.db.WithContext(ctx).Where("operator_id = ?", operatorID).Order("created_at DESC, id").Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list API tokens of %s: %w", operatorID, err)
	}
	return out, nil
}

// RevokeToken ends one of op's tokens at once; revoking a revoked token changes nothing.
// Another operator's token is ErrNotFound.
func (s *Service) RevokeToken(ctx context.Context, who Actor, op *Operator, id string) (bool, error) {
	changed := false
	err := s.store.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var t APIToken
		err := tx.Where("id = ? AND operator_id = ?", id, op.ID).Take(&t).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("revoke API token %s: %w", id, err)
		}
		if t.RevokedAt != nil {
			return nil
		}
		before := tokenAudit(&t)
		now := s.now().UTC()
		res := tx.Model(&APIToken{}).Where("id = ? AND revoked_at IS NULL", id).Update("revoked_at", now)
		if res.Error != nil {
			return fmt.Errorf("revoke API token %s: %w", id, res.Error)
		}
		if res.RowsAffected == 0 {
			return nil
		}
		t.RevokedAt, changed = &now, true
		return s.auditTx(ctx, tx, who, t.PanelID, "token.revoke", t.Name+" ("+t.ID+")", before, tokenAudit(&t))
	})
	return changed, err
}

// TokenOwner finds a live token's operator: ErrNotFound for an unknown, revoked or expired
// token (one answer for all, so a caller learns nothing about which). Its last use is noted.
func (s *Service) TokenOwner(ctx context.Context, token string) (*APIToken, *Operator, error) {
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 200 {
		return nil, nil, ErrNotFound
	}
	var t APIToken
	err := s.store.db.WithContext(ctx).Where("token_hash = ?", HashToken(token)).Take(&t).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("find API token: %w", err)
	}
	now := s.now().UTC()
	if t.RevokedAt != nil || (t.ExpiresAt != nil && !now.Before(*t.ExpiresAt)) {
		return nil, nil, ErrNotFound
	}
	op, err := s.store.OperatorByID(ctx, t.OperatorID)
	if err != nil {
		return nil, nil, err
	}
	if s.production && op.TOTPSecret == "" {
		return nil, nil, ErrNotFound // as at sign-in: no second factor, no access in production
	}
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= tokenTouchEvery {
		if err := s.store.db.WithContext(ctx).Model(&APIToken{}).Where("id = ?", t.ID).Update("last_used_at", now).Error; err != nil {
			return nil, nil, fmt.Errorf("note use of API token %s: %w", t.ID, err)
		}
		t.LastUsedAt = &now
	}
	return &t, op, nil
}

// apiTokenOf is the API call's token, nil for a page request.
func apiTokenOf(c fiber.Ctx) *APIToken {
	t, _ := c.Locals(apiTokenKey).(*APIToken)
	return t
}

// apiAuth reads the bearer token of an API call: a missing or dead token is a 401 (the same
// answer for each), and failures are limited per client address.
func (m *Module) apiAuth(c fiber.Ctx) error {
	auth := c.Get(fiber.HeaderAuthorization)
	token, ok := strings.CutPrefix(auth, "Bearer ")
	if ok {
		t, op, err := m.svc.TokenOwner(c.Context(), strings.TrimSpace(token))
		switch {
		case err == nil:
			c.Locals(operatorKey, op)
			c.Locals(apiTokenKey, t)
			return c.Next()
		case !errors.Is(err, ErrNotFound):
			return err
		}
	}
	if err := m.overLimit(c, map[string]int{"console:api:ip:" + c.IP(): apiFailuresPerIP}); err != nil {
		return err
	}
	c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="console"`)
	return web.Unauthorized()
}

// tokenCovers tells whether the request's API token, if any, reaches the panel at all.
func tokenCovers(c fiber.Ctx, a PanelAccess) bool {
	t := apiTokenOf(c)
	return t == nil || t.PanelID == "" || t.PanelID == a.Panel.ID
}

// tokenAllows tells whether the request's API token, if any, covers the panel and has action
// in its scopes (the operator's roles are checked besides).
func tokenAllows(c fiber.Ctx, a PanelAccess, action Action) bool {
	t := apiTokenOf(c)
	return t == nil || (tokenCovers(c, a) && slices.Contains(t.ScopeList(), action))
}

// apiError answers an API call's error in the spec's error shape, in English (the console
// API's language).
func (m *Module) apiError(c fiber.Ctx, err error) error {
	e := web.AsError(err)
	if e.Status >= 500 {
		m.log.Error("console API request failed", "method", c.Method(), "path", c.Path(), "err", err)
	}
	if e.Status == fiber.StatusTooManyRequests {
		c.Set(fiber.HeaderRetryAfter, "60")
	}
	return c.Status(e.Status).JSON(e.ToAPI(m.kit.Locales.Tr("en")))
}

// tokenRoutes: the tokens page (create, list, revoke) and the API's call about its own token.
func (m *Module) tokenRoutes(r, api fiber.Router) {
	r.Get("/console/tokens", m.full(m.tokensPage))
	r.Post("/console/tokens", m.full(m.createToken))
	r.Post("/console/tokens/revoke", m.full(m.revokeToken))
	api.Get("/token", m.apiWhoAmI)
}

func (m *Module) tokensProps(c fiber.Ctx) (consoleviews.TokensProps, error) {
	op := operatorOf(c)
	props := consoleviews.TokensProps{Email: op.Email, Days: 90, Lifetimes: TokenLifetimes}
	access, err := m.svc.Access(c.Context(), op.ID)
	if err != nil {
		return props, err
	}
	keys := map[string]string{}
	for _, a := range access {
		keys[a.Panel.ID] = a.Panel.Name
		props.Panels = append(props.Panels, consoleviews.Link{Href: a.Panel.Key, Label: a.Panel.Name})
	}
	for _, a := range Actions {
		if slices.ContainsFunc(access, func(p PanelAccess) bool { return p.Can(a) }) {
			props.Scopes = append(props.Scopes, consoleviews.RoleOption{Value: string(a), Label: m.T(c, "console.scope."+strings.ReplaceAll(string(a), ".", "_"), nil)})
		}
	}
	tokens, err := m.svc.Tokens(c.Context(), op.ID)
	if err != nil {
		return props, err
	}
	now := time.Now()
	for _, t := range tokens {
		row := consoleviews.TokenRow{ID: t.ID, Name: t.Name, Created: t.CreatedAt.UTC().Format("2006-01-02 15:04"), Panel: m.T(c, "console.tokens.all_panels", nil)}
		if t.PanelID != "" {
			row.Panel = keys[t.PanelID]
		}
		for _, s := range t.ScopeList() {
			row.Scopes = append(row.Scopes, m.T(c, "console.scope."+strings.ReplaceAll(string(s), ".", "_"), nil))
		}
		switch {
		case t.RevokedAt != nil:
			row.State = m.T(c, "console.tokens.revoked", nil)
		case t.ExpiresAt != nil && !now.Before(*t.ExpiresAt):
			row.State = m.T(c, "console.tokens.expired", nil)
		default:
			row.Live = true
			row.State = m.T(c, "console.tokens.never_expires", nil)
			if t.ExpiresAt != nil {
				row.State = m.T(c, "console.tokens.expires", map[string]any{"Date": t.ExpiresAt.UTC().Format("2006-01-02")})
			}
		}
		if t.LastUsedAt != nil {
			row.LastUsed = t.LastUsedAt.UTC().Format("2006-01-02 15:04")
		}
		props.Rows = append(props.Rows, row)
	}
	return props, nil
}

func (m *Module) tokensPage(c fiber.Ctx) error {
	props, err := m.tokensProps(c)
	if err != nil {
		return err
	}
	return m.Render(c, fiber.StatusOK, consoleviews.Tokens(props))
}

func (m *Module) createToken(c fiber.Ctx) error {
	in := TokenInput{Name: c.FormValue("name"), PanelKey: c.FormValue("panel")}
	days, err := strconv.Atoi(c.FormValue("days"))
	if err != nil {
		days = -1
	}
	in.Days = days
	for _, s := range c.Request().PostArgs().PeekMulti("scope") {
		in.Scopes = append(in.Scopes, Action(s))
	}
	token, _, err := m.svc.CreateToken(c.Context(), actor(c), operatorOf(c), in)
	props, perr := m.tokensProps(c)
	if perr != nil {
		return perr
	}
	status := fiber.StatusOK
	switch {
	case err == nil:
		props.NewToken = token
	case errors.Is(err, ErrTokenName), errors.Is(err, ErrTokenScopes), errors.Is(err, ErrTokenPanel), errors.Is(err, ErrTokenExpiry):
		status = fiber.StatusUnprocessableEntity
		props.Error = m.T(c, "console.tokens.refused."+tokenRefusal(err), nil)
		props.Name, props.Panel, props.Days = in.Name, in.PanelKey, in.Days
		for _, a := range in.Scopes {
			props.Chosen = append(props.Chosen, string(a))
		}
	default:
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store") // the new token is on this page only
	return m.Render(c, status, consoleviews.Tokens(props))
}

func tokenRefusal(err error) string {
	switch {
	case errors.Is(err, ErrTokenName):
		return "name"
	case errors.Is(err, ErrTokenPanel):
		return "panel"
	case errors.Is(err, ErrTokenExpiry):
		return "days"
	}
	return "scopes"
}

func (m *Module) revokeToken(c fiber.Ctx) error {
	if _, err := m.svc.RevokeToken(c.Context(), actor(c), operatorOf(c), c.FormValue("id")); err != nil {
		if errors.Is(err, ErrNotFound) {
			return fiber.ErrNotFound
		}
		return err
	}
	return m.redirect(c, "/console/tokens")
}

// whoAmI is GET /console/api/token: the calling token, its operator and what it reaches.
type whoAmI struct {
	Operator struct {
		ID    string `json:"id"`
		Email string `json:"email"`
	} `json:"operator"`
	Token struct {
		ID        string     `json:"id"`
		Name      string     `json:"name"`
		Scopes    []Action   `json:"scopes"`
		Panel     *string    `json:"panel"`
		ExpiresAt *time.Time `json:"expires_at"`
	} `json:"token"`
	Panels []whoAmIPanel `json:"panels"`
}

type whoAmIPanel struct {
	Key     string   `json:"key"`
	Name    string   `json:"name"`
	Roles   []Role   `json:"roles"`
	Actions []Action `json:"actions"` // what this token may do there: its scopes the roles allow
}

func (m *Module) apiWhoAmI(c fiber.Ctx) error {
	t, op := apiTokenOf(c), operatorOf(c)
	var out whoAmI
	out.Operator.ID, out.Operator.Email = op.ID, op.Email
	out.Token.ID, out.Token.Name, out.Token.Scopes, out.Token.ExpiresAt = t.ID, t.Name, t.ScopeList(), t.ExpiresAt
	access, err := m.svc.Access(c.Context(), op.ID)
	if err != nil {
		return err
	}
	out.Panels = []whoAmIPanel{}
	for _, a := range access {
		if !tokenCovers(c, a) {
			continue
		}
		if t.PanelID != "" {
			key := a.Panel.Key
			out.Token.Panel = &key
		}
		p := whoAmIPanel{Key: a.Panel.Key, Name: a.Panel.Name, Roles: a.Roles, Actions: []Action{}}
		for _, s := range t.ScopeList() {
			if a.Can(s) {
				p.Actions = append(p.Actions, s)
			}
		}
		out.Panels = append(out.Panels, p)
	}
	return c.JSON(out)
}

// OperatorByEmail finds an operator (ErrNotFound when there is none).
func (s *Service) OperatorByEmail(ctx context.Context, email string) (*Operator, error) {
	return s.store.OperatorByEmail(ctx, NormalizeEmail(email))
}
