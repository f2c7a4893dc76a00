package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// instanceSiblings gives Canvass Demo's instance two more panels, Canvass Plus (USD, on
// plus.localhost) and Canvass Europa (EUR, on eu.localhost), and lets Canvass Demo's members
// move to both, and (which must never be offered) to Northwind of another instance.
func (e *env) instanceSiblings(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, s := range []struct{ key, name, currency, host string }{
		{"demo-plus", "Canvass Plus", "USD", "plus.localhost"}, {"demo-eu", "Canvass Europa", "EUR", "eu.localhost"},
	} {
		var spec tenancy.PanelSpec
		spec.Instance.Code, spec.Key, spec.Name, spec.CurrencyCode = "demo", s.key, s.name, s.currency
		spec.Hosts, spec.Languages = []string{s.host}, []string{"en", "es"}
		_, err := e.app.Tenancy.Apply(ctx, spec)
		require.NoError(t, err)
	}
	demo := demoPanels()[0]
	demo.AppSettings.ChangeInstanceTo = []string{"demo-plus", "demo-eu", "northwind", "no-such-panel"}
	_, err := e.app.Tenancy.Apply(ctx, demo)
	require.NoError(t, err)
}

type canChangeJSON struct {
	CanChangeInstance bool   `json:"canChangeInstance"`
	Balance           string `json:"balance"`
	Currency          string `json:"currency_code"`
	Panels            []struct {
		Key          string `json:"key"`
		CurrencyCode string `json:"currency_code"`
		BalanceMoves bool   `json:"balanceMoves"`
		Allowed      bool   `json:"allowed"`
		Reason       string `json:"reason"`
	} `json:"panels"`
}

type changedJSON struct {
	PPToken     string `json:"ppToken"`
	PanelKey    string `json:"panelKey"`
	InstanceURL string `json:"instanceUrl"`
	ContinueURL string `json:"continueUrl"`
	Moved       string `json:"moved"`
}

func TestCanChangeInstanceOffersTheOperatorsPanelsOfTheSameInstanceWithTheBalanceRule(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		none := decodeJSON[canChangeJSON](t, c.get("/ah/api/v1/can-change-instance"), http.StatusOK)
		assert.False(t, none.CanChangeInstance, "a panel that lists none offers none")
		assert.Empty(t, none.Panels)

		e.instanceSiblings(t)
		got := decodeJSON[canChangeJSON](t, c.get("/ah/api/v1/can-change-instance"), http.StatusOK)
		assert.True(t, got.CanChangeInstance)
		assert.Equal(t, "25.00", got.Balance)
		require.Len(t, got.Panels, 2, "never another instance's panel, nor one that does not exist")
		assert.Equal(t, "demo-plus", got.Panels[0].Key)
		assert.True(t, got.Panels[0].BalanceMoves && got.Panels[0].Allowed, "same currency: the balance moves")
		assert.Equal(t, "demo-eu", got.Panels[1].Key)
		assert.False(t, got.Panels[1].Allowed, "another currency with a balance: not until it is zero")
		assert.Equal(t, "balance_not_zero", got.Panels[1].Reason)

		fresh := e.apiMember("localhost", "fresh@demo.test")
		zero := decodeJSON[canChangeJSON](t, fresh.get("/ah/api/v1/can-change-instance"), http.StatusOK)
		assert.True(t, zero.Panels[1].Allowed, "with nothing to move, another currency is fine")

		settings := c.get("/settings")
		assert.Contains(t, settings.Body, `<option value="demo-plus">Canvass Plus</option>`)
		assert.NotContains(t, settings.Body, `<option value="demo-eu">`, "a move the balance blocks is not offered")
		assert.Contains(t, settings.Body, "redeem your balance of $25.00 first")
	})
}

func TestAMoveTheBalanceRuleOrTheOperatorForbidsChangesNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.instanceSiblings(t)
		c := e.member()
		c.header.Set("pp-token", c.cookie("pp-token"))
		tests := []struct {
			name, body string
			status     int
			code       string
		}{
			{"another currency with a balance", `{"panelKey":"demo-eu","password":"demo-password-1"}`, http.StatusConflict, "balance_not_zero"},
			{"another instance's panel", `{"panelKey":"northwind","password":"demo-password-1"}`, http.StatusNotFound, ""},
			{"an unknown panel", `{"panelKey":"nowhere","password":"demo-password-1"}`, http.StatusNotFound, ""},
			{"its own panel", `{"panelKey":"demo","password":"demo-password-1"}`, http.StatusNotFound, ""},
			{"a wrong password", `{"panelKey":"demo-plus","password":"not-my-password"}`, http.StatusBadRequest, "invalid"},
			{"no password", `{"panelKey":"demo-plus"}`, http.StatusBadRequest, "invalid"},
			{"no panel", `{"password":"demo-password-1"}`, http.StatusBadRequest, "invalid"},
		}
		for _, tt := range tests {
			res := c.postJSON("/ah/api/v1/change-instance", tt.body)
			body := decodeJSON[apiErrorJSON](t, res, tt.status)
			if tt.code != "" {
				require.NotEmpty(t, body.Details, tt.name)
				assert.Equal(t, tt.code, body.Details[0].Code, tt.name)
			}
		}
		assert.Equal(t, http.StatusOK, c.get("/ah/api/v1/user/profile").StatusCode, "still a member here")
		var n int64
		require.NoError(t, e.db.Table("account_holders").Where("email_normalized = ?", DemoEmail).Count(&n).Error)
		assert.EqualValues(t, 1, n, "no membership was made anywhere")

		e.apiMember("plus.localhost", "both@demo.test")
		mover := e.apiMember("localhost", "both@demo.test")
		dup := decodeJSON[apiErrorJSON](t, mover.postJSON("/ah/api/v1/change-instance", `{"panelKey":"demo-plus","password":"mobile-pass-1"}`), http.StatusConflict)
		assert.Equal(t, "email_already_used", dup.Details[0].Code)
	})
}

func TestAMemberMovesToAnotherPanelWithTheirBalanceInOneGo(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		e.instanceSiblings(t)
		panel, oldPID := e.demoParticipant()
		c := e.member()
		c.header.Set("pp-token", c.cookie("pp-token"))
		require.Equal(t, http.StatusOK, c.postJSON("/ah/api/v1/change-username", `{"username":"traveller"}`).StatusCode)
		require.Equal(t, http.StatusOK, c.postJSON("/ah/api/v1/subscriptions", `{"newsletters":false}`).StatusCode)
		laptop := e.member()
		var entriesBefore int64
		require.NoError(t, e.db.Table("ledger_entries").Where("participant_id = ?", oldPID).Count(&entriesBefore).Error)

		moved := decodeJSON[changedJSON](t, c.postJSON("/ah/api/v1/change-instance", `{"panelKey":"demo-plus","password":"demo-password-1"}`), http.StatusOK)
		assert.Equal(t, "demo-plus", moved.PanelKey)
		assert.Equal(t, "http://plus.localhost", moved.InstanceURL)
		assert.True(t, strings.HasPrefix(moved.ContinueURL, "http://plus.localhost/widgets/continue?code="), moved.ContinueURL)
		assert.Equal(t, "25.00", moved.Moved)

		// Here, the membership is over: every session ended, the login refused.
		assert.Equal(t, http.StatusUnauthorized, c.get("/ah/api/v1/user/profile").StatusCode)
		assert.Equal(t, http.StatusSeeOther, laptop.get("/settings").StatusCode, "the other session ended too")
		assert.Equal(t, http.StatusUnauthorized, e.client("localhost").login(DemoEmail, DemoPassword).StatusCode, "the login form says no")

		// There, the same person, signed in, with the balance.
		plus := e.client("plus.localhost")
		plus.header.Set("pp-token", moved.PPToken)
		p := decodeJSON[profileJSON](t, plus.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.Equal(t, DemoEmail, p.Email)
		assert.Equal(t, "traveller", p.Username)
		assert.Equal(t, oldPID, p.Metadata["movedFrom"])
		balance := decodeJSON[struct {
			Balance string `json:"balance"`
		}](t, plus.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, "25.00", balance.Balance)
		sub := decodeJSON[subscriptionsJSON](t, plus.get("/ah/api/v1/subscriptions"), http.StatusOK)
		assert.False(t, sub.Newsletters, "the member's choices come along")
		relogin := e.client("plus.localhost")
		assert.Equal(t, http.StatusSeeOther, relogin.login(DemoEmail, DemoPassword).StatusCode, "the same password works there")

		// The ledger: the old entries stay, the move is a debit here and a credit there.
		var entriesAfter int64
		require.NoError(t, e.db.Table("ledger_entries").Where("participant_id = ?", oldPID).Count(&entriesAfter).Error)
		assert.Equal(t, entriesBefore+1, entriesAfter)
		var closure struct {
			Reason       string
			BalanceMinor int64
			MovedTo      string
		}
		require.NoError(t, e.db.Table("account_closures").Where("participant_id = ?", oldPID).Take(&closure).Error)
		assert.Equal(t, "changed-instance", closure.Reason)
		assert.EqualValues(t, 2500, closure.BalanceMinor)
		assert.Equal(t, p.PPUUID, closure.MovedTo)
		for _, pid := range []string{oldPID, p.PPUUID} {
			bad, err := e.app.Wallet.Reconcile(ctx, pid)
			require.NoError(t, err)
			assert.Empty(t, bad, "balances add up")
		}
		old, err := e.app.Wallet.Balance(ctx, panel, oldPID)
		require.NoError(t, err)
		assert.Zero(t, old.Minor)

		// The browser's way over: the hand-off signs the member in on the new panel, once.
		u, err := url.Parse(moved.ContinueURL)
		require.NoError(t, err)
		browser := e.client("plus.localhost")
		in := browser.get(u.RequestURI())
		require.Equal(t, http.StatusSeeOther, in.StatusCode, in.Body)
		assert.Equal(t, "/feed", in.Header.Get("Location"))
		assert.NotEqual(t, http.StatusSeeOther, e.client("plus.localhost").get(u.RequestURI()).StatusCode, "a hand-off code works once")
	})
}

func TestTheSettingsPageMovesTheMemberAndOpensTheNewPanel(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.instanceSiblings(t)
		c := e.member()
		c.get("/settings")
		wrong := c.postForm("/settings/change-instance", url.Values{"panelKey": {"demo-plus"}, "instancePassword": {"nope-nope-nope"}})
		require.Equal(t, http.StatusBadRequest, wrong.StatusCode)
		assert.Contains(t, wrong.Body, `id="e-instancePassword"`)
		blocked := c.postForm("/settings/change-instance", url.Values{"panelKey": {"demo-eu"}, "instancePassword": {DemoPassword}})
		require.Equal(t, http.StatusConflict, blocked.StatusCode)
		assert.Contains(t, blocked.Body, "can&#39;t move to a panel with another currency")

		res := c.postForm("/settings/change-instance", url.Values{"panelKey": {"demo-plus"}, "instancePassword": {DemoPassword}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.True(t, strings.HasPrefix(res.Header.Get("Location"), "http://plus.localhost/widgets/continue?code="), res.Header.Get("Location"))
		assert.Equal(t, http.StatusSeeOther, c.get("/settings").StatusCode, "signed out here")
	})
}
