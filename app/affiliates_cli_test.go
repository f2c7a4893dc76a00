package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAffiliatesCommandsRefuseIncompleteArgumentsBeforeTouchingTheDatabase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "canvass affiliates needs a command: create, list"},
		{"an unknown action", []string{"delete", "--panel", "demo"}, `unknown command "delete" for "canvass affiliates"`},
		{"create without anything", []string{"create"}, `required flag(s) "code", "panel", "partner" not set`},
		{"create without a partner", []string{"create", "--panel", "demo", "--code", "X1Y"}, `required flag(s) "partner" not set`},
		{"create with a blank partner", []string{"create", "--panel", "demo", "--code", "X1Y", "--partner", " "}, "--partner must not be blank"},
		{"list without a panel", []string{"list"}, `required flag(s) "panel" not set`},
		{"a stray argument", []string{"list", "--panel", "demo", "extra"}, `canvass affiliates list takes no arguments, got "extra"`},
		{"an unknown flag", []string{"create", "--panel", "demo", "--code", "X1Y", "--partner", "P", "--amount", "2"}, "unknown flag: --amount"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := prepareAffiliatesCommand(c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	ac, err := prepareAffiliatesCommand([]string{"create", "--panel", "demo", "--code", "spring", "--partner", "Spring Co", "--bonus", "2.00", "--operator", "olga"})
	require.NoError(t, err)
	assert.Equal(t, affiliatesCommand{action: "create", panel: "demo", code: "spring", partner: "Spring Co", bonus: "2.00", operator: "olga"}, *ac)
}

// affiliatesCLI runs one `canvass affiliates` command against the env and returns its output.
func (e *env) affiliatesCLI(args ...string) (string, error) {
	e.t.Helper()
	ac, err := prepareAffiliatesCommand(args)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = ac.run(context.Background(), e.app, &out)
	return out.String(), err
}

func TestAnOperatorCreatesAPartnerCodeWhoseLinkBringsAMemberWithTheBonus(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		out, err := e.affiliatesCLI("create", "--panel", "northwind", "--code", "spring-25", "--partner", "Spring Offers", "--bonus", "2.50", "--operator", "olga")
		require.NoError(t, err)
		assert.Equal(t, "created affiliate SPRING-25 of panel northwind: Spring Offers, bonus 2.50 GBP\n"+
			"links: /affiliates/SPRING-25 (the partner's page) and /join?affiliate=SPRING-25 (joining with it)\n", out)

		_, err = e.affiliatesCLI("create", "--panel", "northwind", "--code", "Spring-25", "--partner", "Again")
		assert.ErrorContains(t, err, "panel northwind already has the code SPRING-25")
		_, err = e.affiliatesCLI("create", "--panel", "northwind", "--code", "x", "--partner", "P", "--bonus", "1.001")
		assert.ErrorContains(t, err, `--code: "x" must be 3-32`)
		assert.ErrorContains(t, err, `--bonus: "1.001" is not an amount of GBP`)
		_, err = e.affiliatesCLI("create", "--panel", "nowhere", "--code", "abc", "--partner", "P")
		assert.ErrorContains(t, err, "panel nowhere")

		// A visitor follows the partner's link and joins with the code.
		v := e.client("northwind.localhost")
		page := v.get("/join?affiliate=spring-25")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "You&#39;re joining through Spring Offers: you&#39;ll get a £2.50 welcome bonus.")
		res := v.postForm("/join", url.Values{"email": {"sol@example.com"}, "password": {"sol-password-1"}, "firstName": {"Sol"}, "affiliate": {"SPRING-25"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "2.50", e.balanceOf(v))

		out, err = e.affiliatesCLI("list", "--panel", "northwind")
		require.NoError(t, err)
		assert.Regexp(t, regexp.MustCompile(`(?m)^NW-DEALS +Northwind Deals +1\.00 GBP +0 +\S+ +demo$`), out)
		assert.Regexp(t, regexp.MustCompile(`(?m)^SPRING-25 +Spring Offers +2\.50 GBP +1 +\S+ +olga$`), out)
		assert.Contains(t, out, "2 affiliates\n")
	})
}

func TestTheReferralsBlockOfATenantFileSetsThePanelsRulesAndABadOneRefusesTheFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	dir := t.TempDir()
	good := writeCampaignTestFile(t, dir, "acme.yaml", `instance: {code: acme}
key: acme
name: Acme
currency_code: EUR
hosts: [acme.example]
languages: [en]
referrals:
  reward: "3.00"
  reward_when: joined
  eligible_when: [email_validated]
  expiry_days: 14
  daily_limit: 5
`)
	bad := writeCampaignTestFile(t, dir, "bad.yaml", `instance: {code: bad}
key: bad
name: Bad
currency_code: JPY
hosts: [bad.example]
languages: [en]
referrals:
  reward: "1.50"
  reward_when: someday
`)
	var out bytes.Buffer
	err := applyTenantFiles(context.Background(), e.app, []string{good, bad}, quietCLILog(), &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `bad.yaml: referrals.reward: "1.50" is not an amount of JPY`)
	assert.Contains(t, err.Error(), `referrals.reward_when: "someday" is not welcome_completed or joined`)
	_, perr := e.app.Tenancy.PanelByKey(context.Background(), "bad")
	assert.Error(t, perr, "a file refused for its referrals block applies nothing")

	acme, err := e.app.Tenancy.PanelByKey(context.Background(), "acme")
	require.NoError(t, err)
	st, err := e.app.Referrals.Service().Settings(context.Background(), acme)
	require.NoError(t, err)
	assert.Equal(t, int64(300), st.RewardMinor)
	assert.Equal(t, "EUR", st.CurrencyCode)
	assert.Equal(t, "joined", st.RewardWhen)
	assert.False(t, st.RequireWelcome)
	assert.True(t, st.RequireValidatedEmail)
	assert.Equal(t, []int{14, 5}, []int{st.ExpiryDays, st.DailyLimit})
}
