package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/testsupport/imagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// personalData are the demo member's details this test gives them, each distinctive enough
// that finding it anywhere in the database means it was kept.
var personalData = []string{
	DemoEmail, "Quintessa", "Vandermolen", "qvandermolen", "742 Evergreen Terrace", "Springfield Gardens",
	DemoMobile, "google-subject-8675309", "quintessa@gmail.example", "1984-07-14", "Quintessa-Browser/1.0",
}

// rowsHolding lists, for every table, the rows whose text holds any of needles (case-insensitive).
func rowsHolding(t *testing.T, db *gorm.DB, needles []string) []string {
	t.Helper()
	tables := tableNames(t, db)
	var found []string
	for _, table := range tables {
		var rows []map[string]any
		require.NoError(t, db.Table(table).Find(&rows).Error, table)
		for _, row := range rows {
			text := strings.ToLower(fmt.Sprint(row))
			for k, v := range row {
				if b, ok := v.([]byte); ok {
					text += " " + k + "=" + strings.ToLower(string(b))
				}
			}
			for _, n := range needles {
				if strings.Contains(text, strings.ToLower(n)) {
					found = append(found, fmt.Sprintf("%s holds %q: %v", table, n, row))
				}
			}
		}
	}
	return found
}

// givePersonalData fills in everything the demo member can have: names, username, address,
// a picture, metadata, a connected network, a failed login, a reset mail, a session with its
// browser's name (the verified mobile number comes with the demo).
func (e *env) givePersonalData(t *testing.T, c *client) {
	t.Helper()
	ctx := context.Background()
	panel, pid := e.demoParticipant()
	c.header.Set("pp-token", c.cookie("pp-token"))
	c.header.Set("User-Agent", "Quintessa-Browser/1.0")
	for target, body := range map[string]string{
		"/ah/api/v1/user/profile":             `{"firstName":"Quintessa","lastName":"Vandermolen"}`,
		"/ah/api/v1/change-username":          `{"username":"qvandermolen"}`,
		"/ah/api/v1/profile/postal-address":   `{"addressLine1":"742 Evergreen Terrace","addressLine2":"Springfield Gardens","postcode":"02108"}`,
		"/ah/api/v1/user/profile/metadata":    `{"dateOfBirth":"1984-07-14"}`,
		"/ah/api/v1/user/profile/location":    `{"postcode":"10001"}`,
		"/ah/api/v1/subscriptions":            `{"reminders":false}`,
		"/ah/api/v2/user/forgot-password":     `{"email":"` + DemoEmail + `"}`,
		"/ah/api/v1/request-validation-email": ``,
	} {
		res := c.postJSON(target, body)
		if strings.HasSuffix(target, "request-validation-email") {
			continue
		}
		require.Less(t, res.StatusCode, 300, "%s: %s", target, res.Body)
	}
	res := c.postFile("/ah/api/v1/user/profile/pic", "me.jpg", "image/jpeg", imagetest.JPEG(imagetest.Quadrants(30, 30)), nil)
	require.Equal(t, http.StatusCreated, res.StatusCode, res.Body)
	holder := e.holderID(t, pid)
	require.NoError(t, accounts.NewStore(e.db).Connect(ctx, &accounts.OAuthConnection{
		PanelID: panel.ID, Provider: "google", Subject: "google-subject-8675309", AccountHolderID: holder,
		Email: "quintessa@gmail.example", CreatedAt: time.Now().UTC(),
	}))
	e.client("localhost").login(DemoEmail, "a-wrong-password") // a failure counted by the address
	require.NotEmpty(t, rowsHolding(t, e.db, personalData), "the fixture holds personal data")
	require.NotEmpty(t, e.storedFiles(t))
}

func TestClosingAnAccountLeavesNoPersonalDataAndKeepsTheLedger(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		panel, pid := e.demoParticipant()
		c := e.member()
		e.givePersonalData(t, c)
		laptop := e.member()
		var entriesBefore int64
		require.NoError(t, e.db.Table("ledger_entries").Where("participant_id = ?", pid).Count(&entriesBefore).Error)
		settings := laptop.get("/settings")
		assert.Contains(t, settings.Body, "Your balance of $25.00 will be forfeited", "the member is told first")

		res := c.postJSON("/ah/api/v1/close-account", `{"reasonForClosing":"closed-by-user","password":"demo-password-1"}`)
		closed := decodeJSON[struct {
			Success          bool   `json:"success"`
			BalanceForfeited string `json:"balanceForfeited"`
		}](t, res, http.StatusOK)
		assert.True(t, closed.Success)
		assert.Equal(t, "25.00", closed.BalanceForfeited)

		assert.Empty(t, rowsHolding(t, e.db, personalData), "no table holds the member's personal data")
		assert.Empty(t, e.storedFiles(t), "the picture's file is gone")

		// Every session ended.
		assert.Equal(t, http.StatusUnauthorized, c.get("/ah/api/v1/user/profile").StatusCode)
		assert.Equal(t, http.StatusSeeOther, laptop.get("/settings").StatusCode)
		var sessions int64
		require.NoError(t, e.db.Table("sessions").Where("participant_id = ?", pid).Count(&sessions).Error)
		assert.Zero(t, sessions)

		// The ledger keeps every entry, and the forfeit as one more.
		var entriesAfter int64
		require.NoError(t, e.db.Table("ledger_entries").Where("participant_id = ?", pid).Count(&entriesAfter).Error)
		assert.Equal(t, entriesBefore+1, entriesAfter)
		bad, err := e.app.Wallet.Reconcile(ctx, pid)
		require.NoError(t, err)
		assert.Empty(t, bad)
		b, err := e.app.Wallet.Balance(ctx, panel, pid)
		require.NoError(t, err)
		assert.Zero(t, b.Minor)
		var reason string
		require.NoError(t, e.db.Table("account_closures").Where("participant_id = ?", pid).Pluck("reason", &reason).Error)
		assert.Equal(t, "closed-by-user", reason)

		e.mailWithSubject(t, DemoEmail, "Your Canvass Demo account is closed")

		// The address is free: its owner joins again as a new member.
		again := e.client("localhost")
		again.get("/join")
		joined := again.postForm("/join", url.Values{"email": {DemoEmail}, "password": {"a-fresh-start-1"}, "firstName": {"Q"}})
		require.Equal(t, http.StatusSeeOther, joined.StatusCode, joined.Body)
		newPID, err := e.app.Accounts.Service().ParticipantByEmail(ctx, panel, DemoEmail)
		require.NoError(t, err)
		assert.NotEqual(t, pid, newPID, "a new member, not the old one back")
		nb, err := e.app.Wallet.Balance(ctx, panel, newPID)
		require.NoError(t, err)
		assert.Zero(t, nb.Minor, "with nothing of the old balance")
	})
}

// mailWithSubject waits for a mail to an address with that subject. Not the last mail: the
// job queue sends mails queued a moment apart in either order (a retried one comes later).
func (e *env) mailWithSubject(t *testing.T, to, subject string) mailertest.Received {
	t.Helper()
	var subjects []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		subjects = subjects[:0]
		for _, m := range e.smtp.Messages() {
			for _, r := range m.To {
				if strings.EqualFold(r, to) {
					if m.Subject == subject {
						return m
					}
					subjects = append(subjects, m.Subject)
				}
			}
		}
	}
	t.Fatalf("no mail %q to %s within 30 s; it received: %q", subject, to, subjects)
	return mailertest.Received{}
}

func TestClosingNeedsTheSpecsReasonAndThePasswordAndOtherwiseChangesNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.header.Set("pp-token", c.cookie("pp-token"))
		tests := []struct {
			name, body, field, code string
		}{
			{"no reason", `{"password":"demo-password-1"}`, "reasonForClosing", "closing_reason"},
			{"another reason", `{"reasonForClosing":"too-many-emails","password":"demo-password-1"}`, "reasonForClosing", "closing_reason"},
			{"the reason in capitals", `{"reasonForClosing":"CLOSED-BY-USER","password":"demo-password-1"}`, "reasonForClosing", "closing_reason"},
			{"no password", `{"reasonForClosing":"closed-by-user"}`, "password", "invalid"},
			{"a wrong password", `{"reasonForClosing":"closed-by-user","password":"demo-password-2"}`, "password", "invalid"},
			{"someone else's link", `{"reasonForClosing":"closed-by-user","token":"0123456789abcdef0123456789abcdef"}`, "", "token_invalid"},
		}
		for _, tt := range tests {
			body := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/close-account", tt.body), http.StatusBadRequest)
			require.NotEmpty(t, body.Details, tt.name)
			assert.Equal(t, tt.code, body.Details[0].Code, tt.name)
			if tt.field != "" {
				assert.Equal(t, tt.field, body.Details[0].Field, tt.name)
			}
		}
		reason := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/close-account", `{"reasonForClosing":"x","password":"demo-password-1"}`), http.StatusBadRequest)
		assert.Equal(t, "reasonForClosing must be closed-by-user.", reason.Message)

		nw := e.apiMember("northwind.localhost", "stay@northwind.test")
		here := e.client("localhost")
		here.header.Set("pp-token", nw.header.Get("pp-token"))
		assert.Equal(t, http.StatusUnauthorized, here.postJSON("/ah/api/v1/close-account", `{"reasonForClosing":"closed-by-user","password":"mobile-pass-1"}`).StatusCode)
		assert.Equal(t, http.StatusOK, nw.get("/ah/api/v1/user/profile").StatusCode)

		assert.Equal(t, http.StatusOK, c.get("/ah/api/v1/user/profile").StatusCode, "still a member")
		var closures int64
		require.NoError(t, e.db.Table("account_closures").Count(&closures).Error)
		assert.Zero(t, closures)

		// The page asks for the box to be ticked before it closes anything.
		page := e.member()
		page.get("/settings")
		unticked := page.postForm("/settings/close-account", url.Values{"reasonForClosing": {"closed-by-user"}, "password": {DemoPassword}})
		require.Equal(t, http.StatusBadRequest, unticked.StatusCode)
		assert.Contains(t, unticked.Body, `id="e-confirm"`)
		assert.Equal(t, http.StatusOK, page.get("/settings").StatusCode)
	})
}

func TestAMemberWithoutAPasswordClosesThroughTheMailedLink(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "social@demo.test")
		pid := c.participantID(t)
		require.NoError(t, e.db.Table("account_holders").Where("email_normalized = ?", "social@demo.test").Update("password_hash", "").Error,
			"as a member who joined through a provider")

		mailed := c.postJSON("/ah/api/v1/close-account", `{"reasonForClosing":"closed-by-user"}`)
		require.Equal(t, http.StatusAccepted, mailed.StatusCode, mailed.Body)
		mail := e.smtp.WaitFor(t, "social@demo.test", 30*time.Second)
		assert.Equal(t, "Close your Canvass Demo account", mail.Subject)
		link := mailertest.FirstLink(mail.HTML, "http://localhost/close-account?token=")
		require.NotEmpty(t, link, mail.HTML)
		u, err := url.Parse(link)
		require.NoError(t, err)

		browser := e.client("localhost") // another browser: the link is the proof
		page := browser.get(u.RequestURI())
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, "s***@demo.test")
		assert.Contains(t, page.Body, "You have no balance to lose.")

		unticked := browser.postForm("/close-account", url.Values{"token": {u.Query().Get("token")}, "reasonForClosing": {"closed-by-user"}})
		assert.Equal(t, http.StatusBadRequest, unticked.StatusCode)
		closed := browser.postForm("/close-account", url.Values{"token": {u.Query().Get("token")}, "reasonForClosing": {"closed-by-user"}, "confirm": {"yes"}})
		require.Equal(t, http.StatusSeeOther, closed.StatusCode, closed.Body)
		assert.Equal(t, "/login", closed.Header.Get("Location"))
		assert.Contains(t, browser.get("/login").Body, "Your account is closed.")

		assert.Equal(t, http.StatusUnauthorized, c.get("/ah/api/v1/user/profile").StatusCode, "its sessions ended")
		assert.Empty(t, rowsHolding(t, e.db, []string{"social@demo.test"}))
		var reason string
		require.NoError(t, e.db.Table("account_closures").Where("participant_id = ?", pid).Pluck("reason", &reason).Error)
		assert.Equal(t, "closed-by-user", reason)

		spent := browser.get(u.RequestURI())
		assert.Equal(t, http.StatusBadRequest, spent.StatusCode, "the link works once")
		assert.Contains(t, spent.Body, "This link has expired or was already used.")
	})
}

func TestTheSettingsPageClosesTheAccountAfterThePasswordAndTheTick(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		_, pid := e.demoParticipant()
		var payout int64
		require.NoError(t, e.db.Table("payout_details").Where("participant_id = ?", pid).Count(&payout).Error)
		require.NotZero(t, payout, "the demo member has a PayPal email on file")
		c := e.member()
		c.get("/settings")
		res := c.postForm("/settings/close-account", url.Values{"reasonForClosing": {"closed-by-user"}, "password": {DemoPassword}, "confirm": {"yes"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/login", res.Header.Get("Location"))
		assert.Empty(t, c.cookie("pp-token"), "the browser's session cookie is cleared")
		assert.Contains(t, c.get("/login").Body, "Your account is closed.")
		var mobiles int64
		_, closed := e.demoParticipantClosed(t)
		require.Equal(t, pid, closed)
		require.NoError(t, e.db.Table("mobile_numbers").Where("participant_id = ?", pid).Count(&mobiles).Error)
		assert.Zero(t, mobiles, "the mobile module's eraser ran in the closing")
		require.NoError(t, e.db.Table("payout_details").Where("participant_id = ?", pid).Count(&payout).Error)
		assert.Zero(t, payout, "and the redemptions module's: the saved PayPal email is gone (it is sealed, so no text search finds it)")
	})
}

// demoParticipantClosed is the demo member's participant after their account closed (its
// email is gone, so it is found by the closure).
func (e *env) demoParticipantClosed(t *testing.T) (string, string) {
	t.Helper()
	var rows []struct{ ParticipantID, PanelID string }
	require.NoError(t, e.db.Table("account_closures").Select("participant_id, panel_id").Find(&rows).Error)
	require.Len(t, rows, 1)
	return rows[0].PanelID, rows[0].ParticipantID
}
