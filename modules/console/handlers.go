package console

import (
	"bytes"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"time"

	consoleviews "github.com/canvass/canvass/views/console"
	"github.com/gofiber/fiber/v3"
)

func (m *Module) loginPage(c fiber.Ctx) error {
	return m.kit.RenderPage(c, m.page(c), fiber.StatusOK, consoleviews.Login(consoleviews.LoginProps{}))
}

// overLimit counts one attempt under each key; any past its limit makes the request a 429.
func (m *Module) overLimit(c fiber.Ctx, limits map[string]int) error {
	over := false
	for key, limit := range limits {
		n, err := m.limiter.Hit(c.Context(), key, loginWindow)
		if err != nil {
			return err
		}
		over = over || n > limit
	}
	if over {
		return fiber.ErrTooManyRequests
	}
	return nil
}

// login checks the password. The answer to a wrong password and to an unknown email is the
// same page after the same argon2id work; a signed-in session is replaced (rotation).
func (m *Module) login(c fiber.Ctx) error {
	email := NormalizeEmail(c.FormValue("email"))
	if err := m.overLimit(c, map[string]int{"console:login:ip:" + c.IP(): loginPerIP, "console:login:email:" + email: loginPerEmail}); err != nil {
		return err
	}
	op, err := m.svc.Authenticate(c.Context(), email, c.FormValue("password"))
	if err != nil {
		return err
	}
	if op == nil {
		return m.kit.RenderPage(c, m.page(c), fiber.StatusUnprocessableEntity, consoleviews.Login(consoleviews.LoginProps{
			Email: c.FormValue("email"), Error: m.kit.Locales.Translate(m.lang(c), "console.login.refused", nil, nil),
		}))
	}
	stage := m.svc.StageAfterPassword(op)
	if err := m.rotate(c, op, stage); err != nil {
		return err
	}
	switch stage {
	case StageTOTP:
		return m.redirect(c, "/console/login/totp")
	case StageEnrol:
		return m.redirect(c, "/console/totp/enrol")
	}
	if err := m.svc.Audit(c.Context(), ActorOf(op), "", "login", op.Email, nil, nil); err != nil {
		return err
	}
	return m.redirect(c, "/console/")
}

// rotate ends the request's session, if any, and starts a new one at stage: a token seen
// before a step up is never the one that carries it.
func (m *Module) rotate(c fiber.Ctx, op *Operator, stage string) error {
	if old, _ := c.Locals(tokenKey).(string); old != "" {
		if err := m.svc.EndSession(c.Context(), old); err != nil {
			return err
		}
	}
	token, err := m.svc.StartSession(c.Context(), op, stage)
	if err != nil {
		return err
	}
	m.setCookie(c, SessionCookie, token, 0)
	// What this response renders (its forms' CSRF token) belongs to the new session.
	c.Locals(sessionKey, &Session{TokenHash: HashToken(token), OperatorID: op.ID, Stage: stage})
	c.Locals(tokenKey, token)
	return nil
}

func (m *Module) totpPage(c fiber.Ctx) error {
	if s := sessionOf(c); s == nil || s.Stage != StageTOTP {
		return m.redirect(c, "/console/login")
	}
	return m.kit.RenderPage(c, m.page(c), fiber.StatusOK, consoleviews.TOTP(""))
}

func (m *Module) totp(c fiber.Ctx) error {
	sess, op := sessionOf(c), operatorOf(c)
	if sess == nil || sess.Stage != StageTOTP {
		return m.redirect(c, "/console/login")
	}
	if err := m.overLimit(c, map[string]int{"console:factor:" + op.ID: factorPerOp}); err != nil {
		return err
	}
	ok, err := m.svc.CheckSecondFactor(c.Context(), op, c.FormValue("code"))
	if err != nil {
		return err
	}
	if !ok {
		return m.kit.RenderPage(c, m.page(c), fiber.StatusUnprocessableEntity, consoleviews.TOTP(m.kit.Locales.Translate(m.lang(c), "console.totp.refused", nil, nil)))
	}
	if err := m.rotate(c, op, StageFull); err != nil {
		return err
	}
	if err := m.svc.Audit(c.Context(), ActorOf(op), "", "login", op.Email, nil, nil); err != nil {
		return err
	}
	return m.redirect(c, "/console/")
}

// enrolOK: enrolment is for an operator past their password (StageEnrol) or signed in.
func enrolOK(s *Session) bool { return s != nil && (s.Stage == StageEnrol || s.Stage == StageFull) }

func (m *Module) enrolPage(c fiber.Ctx) error {
	sess, op := sessionOf(c), operatorOf(c)
	if !enrolOK(sess) {
		return m.redirect(c, "/console/login")
	}
	return m.renderEnrol(c, sess, op, fiber.StatusOK, "")
}

func (m *Module) renderEnrol(c fiber.Ctx, sess *Session, op *Operator, status int, errMsg string) error {
	e, err := m.svc.BeginEnrol(c.Context(), sess, op)
	if err != nil {
		return err
	}
	return m.kit.RenderPage(c, m.page(c), status, consoleviews.Enrol(consoleviews.EnrolProps{
		Email: op.Email, Secret: e.Secret, URI: e.URI, Required: sess.Stage == StageEnrol, Error: errMsg,
	}))
}

// enrol confirms the shown secret with a code, then shows the recovery codes once.
func (m *Module) enrol(c fiber.Ctx) error {
	sess, op := sessionOf(c), operatorOf(c)
	if !enrolOK(sess) {
		return m.redirect(c, "/console/login")
	}
	if err := m.overLimit(c, map[string]int{"console:factor:" + op.ID: factorPerOp}); err != nil {
		return err
	}
	codes, err := m.svc.FinishEnrol(c.Context(), sess, op, c.FormValue("code"))
	if errors.Is(err, ErrBadCode) {
		return m.renderEnrol(c, sess, op, fiber.StatusUnprocessableEntity, m.kit.Locales.Translate(m.lang(c), "console.enrol.refused", nil, nil))
	}
	if err != nil {
		return err
	}
	if sess.Stage == StageEnrol {
		if err := m.rotate(c, op, StageFull); err != nil {
			return err
		}
		if err := m.svc.Audit(c.Context(), ActorOf(op), "", "login", op.Email, nil, nil); err != nil {
			return err
		}
	}
	return m.kit.RenderPage(c, m.page(c), fiber.StatusOK, consoleviews.RecoveryCodes(op.Email, codes))
}

func (m *Module) logout(c fiber.Ctx) error {
	if op := operatorOf(c); op != nil {
		token, _ := c.Locals(tokenKey).(string)
		if err := m.svc.EndSession(c.Context(), token); err != nil {
			return err
		}
		if err := m.svc.Audit(c.Context(), ActorOf(op), "", "logout", op.Email, nil, nil); err != nil {
			return err
		}
	}
	m.clearCookie(c, SessionCookie)
	return m.redirect(c, "/console/login")
}

func (m *Module) roleLabel(c fiber.Ctx, r Role) string {
	return m.kit.Locales.Translate(m.lang(c), "console.role."+string(r), nil, nil)
}

// panelSections are the parts of a panel the home page links to, each shown to the operators
// whose roles there allow its action.
var panelSections = []struct {
	path, label string
	action      Action
}{
	{"/settings", "console.section.settings", ActionEditPanel},
	{"/campaigns", "console.section.campaigns", ActionEditCampaigns},
	{"/redemptions", "console.section.redemptions", ActionRedemptions},
	{"/ledger", "console.section.ledger", ActionLedger},
	{"/competitions", "console.section.competitions", ActionCompetitions},
	{"/summary", "console.section.summary", ActionLedger},
	{"/offer-holds", "console.section.offer_holds", ActionLedger},
	{"/members", "console.section.members", ActionReadMembers},
	{"/webhooks", "console.section.webhooks", ActionManageWebhooks},
	{"/operators", "console.section.operators", ActionManageOperators},
	{"/audit", "console.section.audit", ActionReadAudit},
}

func (m *Module) home(c fiber.Ctx) error {
	op := operatorOf(c)
	access, err := m.svc.Access(c.Context(), op.ID)
	if err != nil {
		return err
	}
	props := consoleviews.HomeProps{Email: op.Email, TOTPEnabled: op.TOTPSecret != ""}
	for _, a := range access {
		props.CanCreatePanel = props.CanCreatePanel || slices.Contains(a.Roles, RoleOwner)
		row := consoleviews.PanelRow{Key: a.Panel.Key, Name: a.Panel.Name}
		for _, s := range panelSections {
			if a.Can(s.action) {
				row.Links = append(row.Links, consoleviews.Link{Href: "/console/panels/" + a.Panel.Key + s.path, Label: m.kit.Locales.Translate(m.lang(c), s.label, nil, nil)})
			}
		}
		for _, r := range a.Roles {
			row.Roles = append(row.Roles, m.roleLabel(c, r))
		}
		props.Panels = append(props.Panels, row)
	}
	if props.TOTPEnabled {
		if props.CodesLeft, err = m.svc.UnusedRecoveryCodes(c.Context(), op.ID); err != nil {
			return err
		}
	}
	return m.kit.RenderPage(c, m.page(c), fiber.StatusOK, consoleviews.Home(props))
}

func (m *Module) operatorsProps(c fiber.Ctx, a PanelAccess) (consoleviews.OperatorsProps, error) {
	props := consoleviews.OperatorsProps{Email: operatorOf(c).Email, PanelKey: a.Panel.Key, PanelName: a.Panel.Name}
	grants, err := m.svc.GrantsOn(c.Context(), a.Panel.ID)
	if err != nil {
		return props, err
	}
	for _, g := range grants {
		props.Rows = append(props.Rows, consoleviews.OperatorRow{OperatorID: g.OperatorID, Email: g.Email, Role: string(g.Role), RoleLabel: m.roleLabel(c, g.Role)})
	}
	for _, r := range Roles {
		props.Roles = append(props.Roles, consoleviews.RoleOption{Value: string(r), Label: m.roleLabel(c, r)})
	}
	return props, nil
}

func (m *Module) operatorsPage(c fiber.Ctx, a PanelAccess) error {
	props, err := m.operatorsProps(c, a)
	if err != nil {
		return err
	}
	return m.kit.RenderPage(c, m.page(c), fiber.StatusOK, consoleviews.Operators(props))
}

// addOperator grants a role; a new operator's generated password is shown this once.
func (m *Module) addOperator(c fiber.Ctx, a PanelAccess) error {
	role, _ := ParseRole(c.FormValue("role"))
	res, err := m.svc.AddOperator(c.Context(), ActorOf(operatorOf(c)), c.FormValue("email"), role, a.Panel.ID, "")
	status := fiber.StatusOK
	var errMsg string
	switch {
	case errors.Is(err, ErrBadEmail):
		status, errMsg = fiber.StatusUnprocessableEntity, m.kit.Locales.Translate(m.lang(c), "console.operators.bad_email", nil, nil)
	case errors.Is(err, ErrBadRole):
		status, errMsg = fiber.StatusUnprocessableEntity, m.kit.Locales.Translate(m.lang(c), "console.operators.bad_role", nil, nil)
	case err != nil:
		return err
	}
	props, perr := m.operatorsProps(c, a)
	if perr != nil {
		return perr
	}
	props.Error = errMsg
	if err == nil {
		props.NewEmail, props.NewPassword = res.Operator.Email, res.Password
		key := "console.operators.added"
		if !res.Granted {
			key = "console.operators.already"
		}
		props.Notice = m.kit.Locales.Translate(m.lang(c), key, map[string]any{"Email": res.Operator.Email, "Role": m.roleLabel(c, role)}, nil)
	}
	return m.kit.RenderPage(c, m.page(c), status, consoleviews.Operators(props))
}

func (m *Module) removeOperator(c fiber.Ctx, a PanelAccess) error {
	role, ok := ParseRole(c.FormValue("role"))
	if !ok {
		return fiber.ErrNotFound
	}
	err := m.svc.RemoveGrant(c.Context(), ActorOf(operatorOf(c)), a.Panel.ID, c.FormValue("operator"), role)
	switch {
	case errors.Is(err, ErrNotFound):
		return fiber.ErrNotFound
	case errors.Is(err, ErrLastOwner):
		props, perr := m.operatorsProps(c, a)
		if perr != nil {
			return perr
		}
		props.Error = m.kit.Locales.Translate(m.lang(c), "console.operators.last_owner", nil, nil)
		return m.kit.RenderPage(c, m.page(c), fiber.StatusConflict, consoleviews.Operators(props))
	case err != nil:
		return err
	}
	return m.redirect(c, "/console/panels/"+a.Panel.Key+"/operators")
}

// auditScope is the entries an operator may read: every panel they may read the log of (or
// the one the filter names: 404 when not theirs, 403 when their roles there do not allow it),
// and their own sign-ins and sign-outs.
func (m *Module) auditScope(c fiber.Ctx) (AuditFilter, []PanelAccess, error) {
	op := operatorOf(c)
	access, err := m.svc.Access(c.Context(), op.ID)
	if err != nil {
		return AuditFilter{}, nil, err
	}
	f := AuditFilter{OperatorID: op.ID, Limit: 500}
	var readable []PanelAccess
	for _, a := range access {
		if a.Can(ActionReadAudit) {
			readable = append(readable, a)
		}
	}
	if key := c.Query("panel"); key != "" {
		d, a, err := m.svc.Can(c.Context(), op, key, ActionReadAudit)
		if err != nil {
			return f, nil, err
		}
		switch d {
		case Hidden:
			return f, nil, fiber.ErrNotFound
		case Forbidden:
			return f, nil, fiber.ErrForbidden
		}
		f.PanelIDs, f.OperatorID = []string{a.Panel.ID}, ""
		return f, readable, nil
	}
	for _, a := range readable {
		f.PanelIDs = append(f.PanelIDs, a.Panel.ID)
	}
	return f, readable, nil
}

func panelNames(access []PanelAccess) map[string]string {
	out := map[string]string{"": "—"}
	for _, a := range access {
		out[a.Panel.ID] = a.Panel.Name
	}
	return out
}

func (m *Module) auditPage(c fiber.Ctx) error {
	f, readable, err := m.auditScope(c)
	if err != nil {
		return err
	}
	entries, err := m.svc.AuditLog(c.Context(), f)
	if err != nil {
		return err
	}
	names := panelNames(readable)
	props := consoleviews.AuditProps{Email: operatorOf(c).Email, Selected: c.Query("panel"), CSVURL: "/console/audit.csv"}
	if props.Selected != "" {
		props.CSVURL += "?panel=" + props.Selected
	}
	for _, a := range readable {
		props.Panels = append(props.Panels, consoleviews.PanelOption{Key: a.Panel.Key, Name: a.Panel.Name})
	}
	for _, e := range entries {
		props.Rows = append(props.Rows, consoleviews.AuditRow{
			At: e.At.UTC().Format("2006-01-02 15:04:05 UTC"), Who: e.OperatorEmail, Panel: names[e.PanelID], Action: e.Action,
			Target: e.Target, Before: orDash(e.BeforeJSON), After: orDash(e.AfterJSON),
		})
	}
	return m.kit.RenderPage(c, m.page(c), fiber.StatusOK, consoleviews.Audit(props))
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// auditCSV exports what the audit page shows, every entry in scope.
func (m *Module) auditCSV(c fiber.Ctx) error {
	f, readable, err := m.auditScope(c)
	if err != nil {
		return err
	}
	f.Limit = 0
	entries, err := m.svc.AuditLog(c.Context(), f)
	if err != nil {
		return err
	}
	keys := map[string]string{}
	for _, a := range readable {
		keys[a.Panel.ID] = a.Panel.Key
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"at", "operator", "panel", "action", "target", "before", "after"})
	for _, e := range entries {
		_ = w.Write([]string{e.At.UTC().Format(time.RFC3339), cell(e.OperatorEmail), keys[e.PanelID], cell(e.Action), cell(e.Target), cell(e.BeforeJSON), cell(e.AfterJSON)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="console-audit.csv"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Send(buf.Bytes())
}

// cell keeps a spreadsheet from reading a value as a formula (CSV injection).
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
