package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const consoleCampaignID = "3f6c1a2e-8b7d-4e5f-9a01-2b3c4d5e6f70"

// consoleCampaignDoc is a campaign an editor writes: Spanish beside English, one quota.
const consoleCampaignDoc = `# Written in the console.
uuid: 3f6c1a2e-8b7d-4e5f-9a01-2b3c4d5e6f70
type: survey
default_language: en
name: {en: "Breakfast habits", es: "Hábitos de desayuno"}
reward: "0.75"
estimated_minutes: 2
quotas:
  - id: everyone
    limit: 50
questions:
  - id: breakfast
    control_type: radio
    text: {en: "Do you eat breakfast?", es: "¿Desayunas?"}
    answers:
      - {id: "yes", text: {en: "Yes", es: "Sí"}}
      - {id: "no", text: {en: "No", es: "No"}}
`

// withSchemaError puts a control type the schema does not know on line 13.
var consoleCampaignBroken = strings.Replace(consoleCampaignDoc, "control_type: radio", "control_type: radoi", 1)

// consoleAudits counts the audit entries of an action on a target.
func consoleAudits(t *testing.T, e *env, action, target string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, e.db.Table("console_audit").Where("action = ? AND target = ?", action, target).Count(&n).Error)
	return n
}

func (e *env) campaignState(t *testing.T, panelKey, id string) string {
	t.Helper()
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), panelKey)
	require.NoError(t, err)
	c, err := e.app.Campaigns.Campaign(context.Background(), panel, id)
	require.NoError(t, err)
	return e.app.Campaigns.State(c)
}

func (e *env) editorClient(t *testing.T) *client {
	c := e.client(consoleHost)
	require.Equal(t, http.StatusSeeOther, c.consoleLogin("editor@ops.demo.test", "console-editor-1", "").StatusCode)
	return c
}

func TestAnEditorSavesACampaignWithASchemaErrorFixesItOpensClosesAndDuplicatesIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.editorClient(t)
		base := "/console/panels/demo/campaigns"
		require.Equal(t, http.StatusOK, c.get(base+"/new").StatusCode)

		refused := c.consolePost(base+"/new", base+"/new", url.Values{"format": {"yaml"}, "document": {consoleCampaignBroken}})
		require.Equal(t, http.StatusUnprocessableEntity, refused.StatusCode)
		assert.Contains(t, refused.Body, "Line 13:", "the problem's line")
		assert.Contains(t, refused.Body, "/questions/0/control_type")
		assert.Contains(t, refused.Body, "control_type: radoi", "the text as the author sent it")
		panel, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
		require.NoError(t, err)
		assert.ErrorIs(t, e.app.Campaigns.Exists(t.Context(), panel, consoleCampaignID), campaigns.ErrNotFound, "nothing imported")

		saved := c.consolePost(base+"/new", base+"/new", url.Values{"format": {"yaml"}, "document": {consoleCampaignDoc}})
		require.Equal(t, http.StatusSeeOther, saved.StatusCode, saved.Body)
		assert.Equal(t, base+"/"+consoleCampaignID+"/edit?done=created", saved.Header.Get("Location"))
		assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.create", consoleCampaignID))
		edit := c.get(base + "/" + consoleCampaignID + "/edit")
		require.Equal(t, http.StatusOK, edit.StatusCode)
		assert.Contains(t, edit.Body, "# Written in the console.", "the editor shows what the author wrote")
		assert.Contains(t, edit.Body, `data-console-island="campaign-editor"`)
		assert.Contains(t, edit.Body, `data-lang="es"`, "a preview in Spanish")
		assert.Contains(t, edit.Body, "http://localhost/survey/"+consoleCampaignID+"/preview/es/", "signed, on the panel's host")

		// Saving the same text again (a double click) writes nothing.
		again := c.consolePost(base+"/"+consoleCampaignID+"/edit", base+"/"+consoleCampaignID+"/edit", url.Values{"format": {"yaml"}, "document": {consoleCampaignDoc}})
		assert.Equal(t, base+"/"+consoleCampaignID+"/edit?done=unchanged", again.Header.Get("Location"))
		assert.EqualValues(t, 0, consoleAudits(t, e, "campaign.update", consoleCampaignID))

		page := base + "/" + consoleCampaignID
		for _, step := range []struct{ action, done, state string }{
			{"close", "closed", campaigns.StateClosed}, {"close", "already_closed", campaigns.StateClosed},
			{"open", "opened", campaigns.StateOpen}, {"open", "already_open", campaigns.StateOpen},
		} {
			res := c.consolePost(page, page+"/"+step.action, url.Values{})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
			assert.Equal(t, page+"?done="+step.done, res.Header.Get("Location"))
			assert.Equal(t, step.state, e.campaignState(t, "demo", consoleCampaignID))
		}
		assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.close", consoleCampaignID), "closing twice is audited once")
		assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.open", consoleCampaignID))

		form := url.Values{"key": {"one-form"}}
		first := c.consolePost(page, page+"/duplicate", form)
		require.Equal(t, http.StatusSeeOther, first.StatusCode, first.Body)
		second := c.consolePost(page, page+"/duplicate", form)
		assert.Equal(t, first.Header.Get("Location"), second.Header.Get("Location"), "the same form twice makes one copy")
		copyID := strings.TrimSuffix(strings.TrimPrefix(first.Header.Get("Location"), base+"/"), "/edit?done=duplicated")
		assert.NotEqual(t, consoleCampaignID, copyID)
		assert.Equal(t, campaigns.StateClosed, e.campaignState(t, "demo", copyID), "a copy starts closed")
		assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.duplicate", copyID))

		list := c.get(base + "?q=breakfast&sort=name")
		require.Equal(t, http.StatusOK, list.StatusCode)
		assert.Equal(t, 2, strings.Count(list.Body, "Breakfast habits</a>"))
		assert.Contains(t, c.get(base+"?state=closed").Body, copyID)
		assert.NotContains(t, c.get(base+"?state=closed").Body, `data-campaign="`+consoleCampaignID+`"`)
	})
}

func TestAnEditorImportsAFileAndEditsAQuotaLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.editorClient(t)
	base := "/console/panels/demo/campaigns"
	token := consoleToken(t, c.get(base).Body)

	bad := c.postFile(base+"/import", "breakfast.yaml", "application/yaml", []byte(consoleCampaignBroken), url.Values{"_csrf": {token}})
	require.Equal(t, http.StatusUnprocessableEntity, bad.StatusCode)
	assert.Contains(t, bad.Body, "breakfast.yaml was not imported")
	assert.Contains(t, bad.Body, "Line 13:")
	wrong := c.postFile(base+"/import", "breakfast.txt", "text/plain", []byte(consoleCampaignDoc), url.Values{"_csrf": {token}})
	assert.Equal(t, http.StatusUnprocessableEntity, wrong.StatusCode)

	res := c.postFile(base+"/import", "breakfast.yaml", "application/yaml", []byte(consoleCampaignDoc), url.Values{"_csrf": {token}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	page := base + "/" + consoleCampaignID
	assert.Equal(t, page+"?done=imported", res.Header.Get("Location"))
	again := c.postFile(base+"/import", "breakfast.yaml", "application/yaml", []byte(consoleCampaignDoc), url.Values{"_csrf": {token}})
	assert.Equal(t, page+"?done=unchanged", again.Header.Get("Location"), "the same file twice")
	assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.import", consoleCampaignID))

	body := c.get(page).Body
	assert.Contains(t, body, `id="f-limit-everyone"`)
	assert.Contains(t, body, `value="50"`)
	refused := c.consolePost(page, page+"/quotas", url.Values{"quota": {"everyone"}, "limit": {"0"}})
	assert.Equal(t, http.StatusUnprocessableEntity, refused.StatusCode)
	assert.Contains(t, refused.Body, "A limit is a whole number of at least 1.")
	set := c.consolePost(page, page+"/quotas", url.Values{"quota": {"everyone"}, "limit": {"20"}})
	require.Equal(t, http.StatusSeeOther, set.StatusCode, set.Body)
	assert.Contains(t, c.get(page).Body, `value="20"`)
	assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.quota", consoleCampaignID+"/everyone"))
	assert.Equal(t, http.StatusNotFound, c.consolePost(page, page+"/quotas", url.Values{"quota": {"nobody"}, "limit": {"5"}}).StatusCode)
	edit := c.get(page + "/edit").Body
	assert.Contains(t, edit, "limit: 20")
	assert.Contains(t, edit, "# Written in the console.", "the author's text, with the new limit")
}

func TestTheEditorsIslandChecksADocumentThroughTheValidatePage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.editorClient(t)
	base := "/console/panels/demo/campaigns"
	check := func(doc string) Validation {
		res := c.consolePost(base+"/new", base+"/validate", url.Values{"format": {"yaml"}, "document": {doc}})
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		var v Validation
		require.NoError(t, json.Unmarshal([]byte(res.Body), &v))
		return v
	}
	assert.Equal(t, Validation{Valid: true, Problems: []ValidationProblem{}}, check(consoleCampaignDoc))
	v := check(consoleCampaignBroken)
	assert.False(t, v.Valid)
	require.NotEmpty(t, v.Problems)
	assert.Equal(t, 13, v.Problems[0].Line)
	assert.Equal(t, "/questions/0/control_type", v.Problems[0].Path)

	res := c.do(http.MethodPost, base+"/validate", strings.NewReader(url.Values{"document": {consoleCampaignDoc}}.Encode()),
		http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	assert.Equal(t, http.StatusForbidden, res.StatusCode, "without the form's CSRF token")
}

// Validation is the validate page's answer.
type Validation struct {
	Valid    bool                `json:"valid"`
	Problems []ValidationProblem `json:"problems"`
}

type ValidationProblem struct {
	Line    int    `json:"line"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

func TestOnlyEditorsAndOwnersReachCampaignsAndAnotherPanelsCampaignIsHidden(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	nwCampaign := e.campaignID("northwind", northwindCampaignName(t, e))
	poll := e.campaignID("demo", "Quick poll")
	cases := []struct {
		email, password, path string
		status                int
	}{
		{"support@ops.demo.test", "console-support-1", "/console/panels/demo/campaigns", http.StatusForbidden},
		{"finance@ops.demo.test", "console-finance-1", "/console/panels/demo/campaigns/" + poll, http.StatusForbidden},
		{"finance@ops.demo.test", "console-finance-1", "/console/panels/demo/campaigns/new", http.StatusForbidden},
		{"editor@ops.demo.test", "console-editor-1", "/console/panels/demo/campaigns/" + poll, http.StatusOK},
		{"editor@ops.demo.test", "console-editor-1", "/console/panels/demo/campaigns/" + poll + "/edit", http.StatusOK},
		{"editor@ops.demo.test", "console-editor-1", "/console/panels/northwind/campaigns", http.StatusNotFound},
		{"owner@ops.demo.test", "console-owner-1", "/console/panels/northwind/campaigns/" + nwCampaign, http.StatusOK},
		{"owner@ops.demo.test", "console-owner-1", "/console/panels/demo/campaigns/" + nwCampaign, http.StatusNotFound},
		{"owner@ops.demo.test", "console-owner-1", "/console/panels/demo/campaigns/" + nwCampaign + "/edit", http.StatusNotFound},
		{"owner@ops.demo.test", "console-owner-1", "/console/panels/demo/campaigns/not-a-uuid", http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.email+" "+tc.path, func(t *testing.T) {
			c := e.client(consoleHost)
			require.Equal(t, http.StatusSeeOther, c.consoleLogin(tc.email, tc.password, "").StatusCode)
			assert.Equal(t, tc.status, c.get(tc.path).StatusCode)
		})
	}
	// Posts too: support may not close a campaign, and the owner may not close Northwind's
	// through Canvass Demo's path.
	support := e.client(consoleHost)
	support.consoleLogin("support@ops.demo.test", "console-support-1", "")
	assert.Equal(t, http.StatusForbidden, support.consolePost("/console/", "/console/panels/demo/campaigns/"+poll+"/close", url.Values{}).StatusCode)
	owner := e.client(consoleHost)
	owner.consoleLogin("owner@ops.demo.test", "console-owner-1", "")
	assert.Equal(t, http.StatusNotFound, owner.consolePost("/console/", "/console/panels/demo/campaigns/"+nwCampaign+"/close", url.Values{}).StatusCode)
	assert.Equal(t, campaigns.StateOpen, e.campaignState(t, "northwind", nwCampaign))
}

func TestTheFunnelAndTheListCountADemoMembersComplete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	poll := e.campaignID("demo", "Quick poll")
	m := e.member()
	api := "/api/v1/demo/campaigns/" + poll
	require.Equal(t, http.StatusOK, m.get(api+"/go").StatusCode)
	require.Equal(t, http.StatusOK, m.postJSON(api+"/question/morning_drink", `{"answer":"tea"}`).StatusCode)

	c := e.editorClient(t)
	page := c.get("/console/panels/demo/campaigns/" + poll)
	require.Equal(t, http.StatusOK, page.StatusCode)
	assert.Regexp(t, `(?s)Started</th>\s*<td>1</td>`, page.Body)
	assert.Regexp(t, `(?s)Completed</th>\s*<td>1</td>\s*<td>100 %</td>`, page.Body)
	assert.Regexp(t, `(?s)id="median">Median time to complete: \d+(\.\d)? min`, page.Body)
	list := c.get("/console/panels/demo/campaigns?sort=completes")
	assert.Regexp(t, `(?s)<tr data-campaign="`+poll+`">.*?<td>1</td>`, list.Body)
	first := strings.Index(list.Body, `<tr data-campaign="`)
	require.GreaterOrEqual(t, first, 0)
	assert.True(t, strings.HasPrefix(list.Body[first:], `<tr data-campaign="`+poll+`"`), "the most completes first")
}

func TestTheCampaignsAPIListsAuthorsOpensClosesDuplicatesAndPreviews(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	token := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionEditCampaigns, console.ActionPreview)
	c := e.client(consoleHost)
	base := "/console/api/panels/demo/campaigns"
	doc := func(source string) string {
		b, _ := json.Marshal(map[string]string{"format": "yaml", "source": source})
		return string(b)
	}

	list := decodeJSON[struct {
		Campaigns []struct {
			ID, Name, State string
		} `json:"campaigns"`
		Total int `json:"total"`
	}](t, c.consoleCall(http.MethodGet, base+"?sort=name", token, ""), http.StatusOK)
	assert.Equal(t, len(list.Campaigns), list.Total)
	assert.NotEmpty(t, list.Campaigns)

	v := decodeJSON[Validation](t, c.consoleCall(http.MethodPost, base+"/validate", token, doc(consoleCampaignBroken)), http.StatusOK)
	assert.False(t, v.Valid)
	assert.Equal(t, 13, v.Problems[0].Line)

	refused := c.consoleCall(http.MethodPost, base, token, doc(consoleCampaignBroken))
	require.Equal(t, http.StatusUnprocessableEntity, refused.StatusCode)
	assert.Contains(t, refused.Body, `"line":13`)
	created := c.consoleCall(http.MethodPost, base, token, doc(consoleCampaignDoc))
	require.Equal(t, http.StatusCreated, created.StatusCode, created.Body)
	assert.Equal(t, http.StatusOK, c.consoleCall(http.MethodPost, base, token, doc(consoleCampaignDoc)).StatusCode, "the same create again")
	assert.EqualValues(t, 1, consoleAudits(t, e, "campaign.create", consoleCampaignID))

	one := base + "/" + consoleCampaignID
	got := decodeJSON[struct {
		Source string `json:"source"`
		Quotas []struct {
			ID    string `json:"id"`
			Limit int    `json:"limit"`
		} `json:"quotas"`
	}](t, c.consoleCall(http.MethodGet, one, token, ""), http.StatusOK)
	assert.Equal(t, consoleCampaignDoc, got.Source)
	updated := c.consoleCall(http.MethodPut, one, token, doc(strings.Replace(consoleCampaignDoc, `reward: "0.75"`, `reward: "1.25"`, 1)))
	require.Equal(t, http.StatusOK, updated.StatusCode, updated.Body)
	assert.Contains(t, updated.Body, `"reward":"1.25"`)

	closed := c.consoleCall(http.MethodPost, one+"/close", token, "")
	require.Equal(t, http.StatusOK, closed.StatusCode, closed.Body)
	assert.Contains(t, closed.Body, `"state":"closed"`)
	assert.Contains(t, c.consoleCall(http.MethodPost, one+"/close", token, "").Body, `"changed":false`)
	assert.Contains(t, c.consoleCall(http.MethodPost, one+"/open", token, "").Body, `"state":"open"`)

	dup := func() *response {
		return c.do(http.MethodPost, one+"/duplicate", nil, http.Header{"Authorization": {"Bearer " + token}, "Idempotency-Key": {"api-key-1"}})
	}
	first := dup()
	require.Equal(t, http.StatusCreated, first.StatusCode, first.Body)
	second := dup()
	require.Equal(t, http.StatusOK, second.StatusCode)
	var a, b struct {
		Campaign struct{ ID string } `json:"campaign"`
	}
	require.NoError(t, json.Unmarshal([]byte(first.Body), &a))
	require.NoError(t, json.Unmarshal([]byte(second.Body), &b))
	assert.Equal(t, a.Campaign.ID, b.Campaign.ID, "the same key answers the same copy")

	assert.Contains(t, c.consoleCall(http.MethodGet, one+"/quotas", token, "").Body, `"limit":50`)
	q := c.consoleCall(http.MethodPut, one+"/quotas/everyone", token, `{"limit":30}`)
	require.Equal(t, http.StatusOK, q.StatusCode, q.Body)
	assert.Contains(t, q.Body, `"limit":30`)
	assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodPut, one+"/quotas/everyone", token, `{"limit":0}`).StatusCode)
	assert.Equal(t, http.StatusNotFound, c.consoleCall(http.MethodPut, one+"/quotas/nobody", token, `{"limit":3}`).StatusCode)

	funnel := decodeJSON[map[string]any](t, c.consoleCall(http.MethodGet, one+"/funnel", token, ""), http.StatusOK)
	assert.Equal(t, 0.0, funnel["started"])
	previews := c.consoleCall(http.MethodGet, one+"/previews", token, "")
	require.Equal(t, http.StatusOK, previews.StatusCode)
	assert.Contains(t, previews.Body, `"lang":"es"`)

	nw := e.campaignID("northwind", northwindCampaignName(t, e))
	assert.Equal(t, http.StatusNotFound, c.consoleCall(http.MethodGet, base+"/"+nw, token, "").StatusCode, "another panel's campaign")
	narrow := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionEditCampaigns)
	assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodGet, one+"/previews", narrow, "").StatusCode, "previews need their scope")
}
