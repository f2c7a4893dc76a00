package accounts

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// What the operator console's members part reads and does through accounts (issue 21, part 5):
// find a panel's members, read one's profile and sessions, suspend or unsuspend them, end
// their sessions and mail the validation link again (closing the account is the profile
// module's CloseByOperator). Every call names the panel, and a member of another panel is
// ErrNotFound: the console never reaches across panels.

// MemberSummary is one member as the console's search lists them.
type MemberSummary struct {
	ParticipantID   string
	AccountHolderID string
	Email           string
	Username        string
	Status          string
	JoinedAt        time.Time
}

// MemberProfile is what the console's member page shows of the account.
type MemberProfile struct {
	MemberSummary
	FirstName        string
	LastName         string
	LanguageCode     string
	EmailValidatedAt *time.Time
	// LastLoginAt is when the newest session still kept began (sessions end on logout, so nil
	// when the member has none).
	LastLoginAt *time.Time
}

// MemberSession is one signed-in device of a member, summarised: never its token.
type MemberSession struct {
	ID         string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	AppName    string
	Device     string // browser and system read from the user agent
	Network    string // the address with its last part hidden
}

// likeEscaper makes s a literal inside a LIKE pattern with ESCAPE '!'.
var likeEscaper = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")

// MaxMemberPageSize bounds one page of the console's member search.
const MaxMemberPageSize = 100

// FindMembers lists the panel's members whose email, username or participant id is query or
// starts with it (case-insensitive; every member when query is empty), exact matches first
// then the newest, one page at a time; more tells whether another page follows.
func (m *Module) FindMembers(ctx context.Context, panelID, query string, page, pageSize int) (rows []MemberSummary, more bool, err error) {
	if page < 1 {
		page = 1
	}
	if pageSize < 1 || pageSize > MaxMemberPageSize {
		pageSize = 25
	}
	q := strings.ToLower(strings.TrimSpace(query))
	tx := m.svc.store.db.WithContext(ctx).Table("account_holders AS h").
		Select("p.id AS participant_id, h.id AS account_holder_id, h.email, h.username, h.status, h.created_at AS joined_at").
		Joins("JOIN participants p ON p.account_holder_id = h.id").
		Where("h.panel_id = ? AND p.panel_id = ?", panelID, panelID)
	order := clause.Expr{SQL: "h.created_at DESC, p.id"}
	if q != "" {
		pre := likeEscaper.Replace(q) + "%"
		tx = tx.Where("(h.email_normalized LIKE ? ESCAPE '!' OR lower(h.username) LIKE ? ESCAPE '!' OR p.id LIKE ? ESCAPE '!')", pre, pre, pre)
		order = clause.Expr{SQL: "CASE WHEN h.email_normalized = ? OR lower(h.username) = ? OR p.id = ? THEN 0 ELSE 1 END, h.created_at DESC, p.id", Vars: []any{q, q, q}}
	}
	err = tx.Clauses(clause.OrderBy{Expression: order}).Limit(pageSize + 1).Offset((page - 1) * pageSize).Scan(&rows).Error
	if err != nil {
		return nil, false, fmt.Errorf("find members of panel %s: %w", panelID, err)
	}
	if len(rows) > pageSize {
		rows, more = rows[:pageSize], true
	}
	return rows, more, nil
}

// memberOf is the account holder and participant of a panel's member by participant id;
// ErrNotFound for an unknown id or another panel's member.
func (m *Module) memberOf(ctx context.Context, panelID, participantID string) (*AccountHolder, *Participant, error) {
	p, err := m.svc.store.Participant(ctx, participantID)
	if err != nil {
		return nil, nil, err
	}
	if p.PanelID != panelID {
		return nil, nil, fmt.Errorf("member %s is not of panel %s: %w", participantID, panelID, ErrNotFound)
	}
	ah, err := m.svc.store.Holder(ctx, p.AccountHolderID)
	if err != nil {
		return nil, nil, err
	}
	return ah, p, nil
}

// MemberProfile is a panel's member's account; ErrNotFound when the panel has no such member.
func (m *Module) MemberProfile(ctx context.Context, panelID, participantID string) (*MemberProfile, error) {
	ah, p, err := m.memberOf(ctx, panelID, participantID)
	if err != nil {
		return nil, err
	}
	out := &MemberProfile{
		MemberSummary: MemberSummary{ParticipantID: p.ID, AccountHolderID: ah.ID, Email: ah.Email, Username: ah.Username, Status: ah.Status, JoinedAt: ah.CreatedAt},
		FirstName:     ah.FirstName, LastName: ah.LastName, LanguageCode: ah.LanguageCode, EmailValidatedAt: ah.EmailValidatedAt,
	}
	var last []time.Time
	err = m.svc.store.db.WithContext(ctx).Model(&Session{}).Where("participant_id = ?", p.ID).
		Order("created_at DESC").Limit(1).Pluck("created_at", &last).Error
	if err != nil {
		return nil, fmt.Errorf("last login of %s: %w", p.ID, err)
	}
	if len(last) == 1 {
		out.LastLoginAt = &last[0]
	}
	return out, nil
}

// MemberSessions are a panel's member's sessions, newest first (expired ones included until
// they are cleared), summarised.
func (m *Module) MemberSessions(ctx context.Context, panelID, participantID string) ([]MemberSession, error) {
	if _, _, err := m.memberOf(ctx, panelID, participantID); err != nil {
		return nil, err
	}
	var rows []Session
	if err := m.svc.store.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("created_at DESC").Limit(50).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("sessions of %s: %w", participantID, err)
	}
	out := make([]MemberSession, len(rows))
	for i, s := range rows {
		out[i] = MemberSession{ID: s.ID, CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, ExpiresAt: s.ExpiresAt, AppName: s.AppName,
			Device: DeviceSummary(s.UserAgent), Network: NetworkSummary(s.IP)}
	}
	return out, nil
}

// DeviceSummary names the browser and system of a user agent ("Firefox on Windows"), enough
// for support to tell devices apart; "" for none.
func DeviceSummary(ua string) string {
	if ua == "" {
		return ""
	}
	l := strings.ToLower(ua)
	browser := "Other browser"
	for _, b := range []struct{ key, name string }{
		{"edg/", "Edge"}, {"opr/", "Opera"}, {"firefox/", "Firefox"}, {"headlesschrome", "Chrome"}, {"chrome/", "Chrome"},
		{"chromium", "Chromium"}, {"safari/", "Safari"}, {"curl/", "curl"}, {"go-http-client", "Go client"},
	} {
		if strings.Contains(l, b.key) {
			browser = b.name
			break
		}
	}
	system := ""
	for _, s := range []struct{ key, name string }{
		{"android", "Android"}, {"iphone", "iOS"}, {"ipad", "iPadOS"}, {"windows", "Windows"}, {"mac os x", "macOS"},
		{"cros", "ChromeOS"}, {"linux", "Linux"},
	} {
		if strings.Contains(l, s.key) {
			system = s.name
			break
		}
	}
	if system == "" {
		return browser
	}
	return browser + " on " + system
}

// NetworkSummary hides the host part of an address: 203.0.113.x, 2001:db8:1::/48.
func NetworkSummary(ip string) string {
	a := net.ParseIP(ip)
	switch {
	case a == nil:
		return ""
	case a.To4() != nil:
		v4 := a.To4()
		return fmt.Sprintf("%d.%d.%d.x", v4[0], v4[1], v4[2])
	}
	return (&net.IPNet{IP: a.Mask(net.CIDRMask(48, 128)), Mask: net.CIDRMask(48, 128)}).String()
}

// ErrMemberClosed refuses to change the standing of a closed account.
var ErrMemberClosed = errors.New("the account is closed")

// StatusChange is what a suspension or its lifting did: the status before and after, and how
// many sessions it ended. Changed is false when the member already had that status.
type StatusChange struct {
	Before, After string
	SessionsEnded int64
	Changed       bool
}

// SuspendMember suspends a panel's member and ends every session of theirs in one
// transaction; a suspended member who signs in again is sent to /suspended. Suspending a
// suspended member changes nothing (their sessions are ended again, in case one began).
func (m *Module) SuspendMember(ctx context.Context, panelID, participantID string) (StatusChange, error) {
	return m.setStatus(ctx, panelID, participantID, StatusSuspended)
}

// UnsuspendMember makes a suspended member active again; an active one is left as is.
func (m *Module) UnsuspendMember(ctx context.Context, panelID, participantID string) (StatusChange, error) {
	return m.setStatus(ctx, panelID, participantID, StatusActive)
}

func (m *Module) setStatus(ctx context.Context, panelID, participantID, to string) (StatusChange, error) {
	ah, p, err := m.memberOf(ctx, panelID, participantID)
	if err != nil {
		return StatusChange{}, err
	}
	ch := StatusChange{Before: ah.Status, After: to}
	if ah.Status == StatusClosed {
		return StatusChange{Before: ah.Status, After: ah.Status}, ErrMemberClosed
	}
	now := m.svc.now().UTC()
	err = migrations.InTx(ctx, m.svc.store.db, func(tx *gorm.DB) error {
		res := tx.Model(&AccountHolder{}).Where("id = ? AND status <> ? AND status <> ?", ah.ID, to, StatusClosed).
			Updates(map[string]any{"status": to, "updated_at": now})
		if res.Error != nil {
			return fmt.Errorf("set status of %s: %w", ah.ID, res.Error)
		}
		ch.Changed = res.RowsAffected == 1
		if to != StatusSuspended {
			return nil
		}
		del := tx.Where("participant_id = ?", p.ID).Delete(&Session{})
		if del.Error != nil {
			return fmt.Errorf("end sessions of %s: %w", p.ID, del.Error)
		}
		ch.SessionsEnded = del.RowsAffected
		return nil
	})
	if err != nil {
		return StatusChange{}, err
	}
	if !ch.Changed {
		ch.Before = to
	}
	return ch, nil
}

// EndMemberSessions signs a panel's member out everywhere; it returns how many sessions ended.
func (m *Module) EndMemberSessions(ctx context.Context, panelID, participantID string) (int64, error) {
	if _, _, err := m.memberOf(ctx, panelID, participantID); err != nil {
		return 0, err
	}
	res := m.svc.store.db.WithContext(ctx).Where("participant_id = ?", participantID).Delete(&Session{})
	if res.Error != nil {
		return 0, fmt.Errorf("end sessions of %s: %w", participantID, res.Error)
	}
	return res.RowsAffected, nil
}

// ResendValidation mails a panel's member the link that validates their email, as the
// member's own request would (the same mail, token and hourly limit: a 429 past it). origin is
// where the panel answers (the module's BaseURL wins when set). sent is false, and nothing is
// mailed, when the email is validated already; a closed account is ErrMemberClosed.
func (m *Module) ResendValidation(ctx context.Context, panel *web.Panel, participantID, origin string) (sent bool, err error) {
	ah, _, err := m.memberOf(ctx, panel.ID, participantID)
	if err != nil {
		return false, err
	}
	switch {
	case ah.Status == StatusClosed:
		return false, ErrMemberClosed
	case ah.EmailValidatedAt != nil:
		return false, nil
	}
	if m.baseURL != "" {
		origin = m.baseURL
	}
	member := &web.Member{AccountHolderID: ah.ID, Email: ah.Email, LanguageCode: ah.LanguageCode}
	if err := m.svc.RequestValidationEmail(ctx, panel, member, ah.LanguageCode, Link{Origin: origin, Path: "/validate-email/confirm"}); err != nil {
		return false, err
	}
	return true, nil
}
