package main

import (
	"cmp"
	"io/fs"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/static"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoCampaign is one parsed demo campaign document and the file it came from.
type demoCampaign struct {
	file string
	def  *campaigns.Definition
}

// demoPanelLanguages maps each demo panel key to the languages the panel offers.
func demoPanelLanguages() map[string][]string {
	langs := map[string][]string{}
	for _, p := range demoPanels() {
		langs[p.Key] = p.Languages
	}
	return langs
}

// loadDemoCampaigns parses every demo campaign document of one panel.
func loadDemoCampaigns(t *testing.T, panelKey string) []demoCampaign {
	t.Helper()
	files, err := demoCampaignFiles(panelKey)
	require.NoError(t, err)
	var out []demoCampaign
	for _, f := range files {
		def, err := campaigns.ParseFile(f.Name, f.Data)
		require.NoError(t, err, f.Name)
		require.NotNil(t, def, f.Name)
		out = append(out, demoCampaign{file: f.Name, def: def})
	}
	return out
}

func TestDemoCampaignFilesAreEachPanelsDocumentsSortedByName(t *testing.T) {
	t.Parallel()
	for key := range demoPanelLanguages() {
		files, err := demoCampaignFiles(key)
		require.NoError(t, err, key)
		require.NotEmpty(t, files, key)
		names := make([]string, len(files))
		for i, f := range files {
			names[i] = f.Name
			assert.True(t, strings.HasPrefix(f.Name, "demo/campaigns/"+key+"/"), f.Name)
			assert.NotEmpty(t, f.Data, f.Name)
		}
		assert.True(t, sort.StringsAreSorted(names), "%v", names)
	}
	for _, bad := range []string{"", "nowhere", "../campaigns", "demo/.."} {
		_, err := demoCampaignFiles(bad)
		assert.Error(t, err, "panel key %q", bad)
	}
}

func TestEveryDemoCampaignFileParses(t *testing.T) {
	t.Parallel()
	for key := range demoPanelLanguages() {
		files, err := demoCampaignFiles(key)
		require.NoError(t, err)
		for _, f := range files {
			_, err := campaigns.ParseFile(f.Name, f.Data)
			assert.NoError(t, err, f.Name)
		}
	}
}

func TestTheDemoPanelOffersAtLeastEightCampaignsAndNorthwindAtLeastFour(t *testing.T) {
	t.Parallel()
	assert.GreaterOrEqual(t, len(loadDemoCampaigns(t, "demo")), 8)
	assert.GreaterOrEqual(t, len(loadDemoCampaigns(t, "northwind")), 4)
}

func TestTheDemoPanelsCampaignsTogetherUseEveryControl(t *testing.T) {
	t.Parallel()
	used := map[string]bool{}
	for _, c := range loadDemoCampaigns(t, "demo") {
		for _, q := range c.def.Questions {
			used[q.ControlType] = true
		}
	}
	for _, control := range campaigns.ControlTypes {
		assert.True(t, used[control], "no demo campaign uses the %s control", control)
	}
}

func TestEachDemoPanelHasExactlyOneWelcomeCampaign(t *testing.T) {
	t.Parallel()
	for key := range demoPanelLanguages() {
		var welcome []demoCampaign
		for _, c := range loadDemoCampaigns(t, key) {
			if c.def.IsWelcome {
				welcome = append(welcome, c)
			}
		}
		require.Len(t, welcome, 1, key)
		def := welcome[0].def
		assert.Equal(t, campaigns.TypeProfiler, def.Type, welcome[0].file)
		assert.Nil(t, def.Competition, welcome[0].file)
		assert.NotEmpty(t, def.ThankYou.Title, welcome[0].file)
		assert.NotEmpty(t, def.ThankYou.Message, welcome[0].file)
	}
}

func TestTheDemoPanelHasAQuickPollOfOneRadioQuestionForFiftyCents(t *testing.T) {
	t.Parallel()
	var polls []*campaigns.Definition
	for _, c := range loadDemoCampaigns(t, "demo") {
		if c.def.Name["en"] == "Quick poll" {
			polls = append(polls, c.def)
		}
	}
	require.Len(t, polls, 1)
	poll := polls[0]
	assert.Equal(t, "Encuesta rápida", poll.Name["es"])
	assert.Equal(t, "0.50", poll.Reward)
	assert.Equal(t, 1, poll.EstimatedMinutes)
	require.Len(t, poll.Questions, 1)
	assert.Equal(t, campaigns.ControlRadio, poll.Questions[0].ControlType)
}

func TestTheDemoPanelHasScreenOutAndDisqualifyRoutes(t *testing.T) {
	t.Parallel()
	outcomes := map[string]bool{}
	for _, c := range loadDemoCampaigns(t, "demo") {
		for _, q := range c.def.Questions {
			for _, r := range q.Routes {
				outcomes[r.Then] = true
			}
		}
	}
	assert.True(t, outcomes[campaigns.ThenScreenOut], "a screen_out route")
	assert.True(t, outcomes[campaigns.ThenDisqualify], "a disqualify route")
	assert.True(t, outcomes[campaigns.ThenSkipTo], "a skip_to route")
}

func TestTheDemoPanelHasACampaignWithAQuotaWithoutConditions(t *testing.T) {
	t.Parallel()
	found := false
	for _, c := range loadDemoCampaigns(t, "demo") {
		for _, q := range c.def.Quotas {
			if len(q.When) == 0 {
				found = true
				assert.LessOrEqual(t, q.Limit, 5, "%s fills after a few completes", c.file)
			}
		}
	}
	assert.True(t, found)
}

func TestEachDemoPanelHasACompetitionThatInvitesToTheDraw(t *testing.T) {
	t.Parallel()
	for key := range demoPanelLanguages() {
		var found []demoCampaign
		for _, c := range loadDemoCampaigns(t, key) {
			if c.def.Type == campaigns.TypeCompetition {
				found = append(found, c)
			}
		}
		require.NotEmpty(t, found, key)
		for _, c := range found {
			require.NotNil(t, c.def.Competition, c.file)
			assert.GreaterOrEqual(t, c.def.Competition.Winners, 1, c.file)
			assert.NotEmpty(t, c.def.Competition.Prize, c.file)
			assert.NotNil(t, c.def.Competition.DrawAt, c.file)
			assert.Equal(t, campaigns.ThankYouCompetitionInvitation, c.def.ThankYou.Kind, c.file)
		}
	}
}

func TestDemoCampaignUUIDsAreUniqueAcrossBothPanels(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for key := range demoPanelLanguages() {
		for _, c := range loadDemoCampaigns(t, key) {
			if other, dup := seen[c.def.UUID]; dup {
				t.Errorf("%s and %s share the uuid %s", other, c.file, c.def.UUID)
			}
			seen[c.def.UUID] = c.file
		}
	}
}

func TestTheDemoPanelShowsOffTheAuthoringFeatures(t *testing.T) {
	t.Parallel()
	has := map[string]bool{}
	for _, c := range loadDemoCampaigns(t, "demo") {
		d := c.def
		has["footer links"] = has["footer links"] || len(d.FooterLinks) > 0
		has["completion_url"] = has["completion_url"] || d.ThankYou.CompletionURL != ""
		has["redirect_url"] = has["redirect_url"] || d.ThankYou.RedirectURL != ""
		has["open_in_new_tab"] = has["open_in_new_tab"] || d.ThankYou.OpenInNewTab
		has["language targeting"] = has["language targeting"] || len(d.Targeting.Languages) > 0
		has["profile targeting"] = has["profile targeting"] || len(d.Targeting.Profile) > 0
		for _, q := range d.Questions {
			has["question image"] = has["question image"] || q.Image != nil
			has["html"] = has["html"] || len(q.HTML) > 0
			has["scale labels"] = has["scale labels"] || len(q.ScaleLabels) > 0
			for _, a := range q.Answers {
				has["exclusive option"] = has["exclusive option"] || a.Exclusive
			}
		}
	}
	for _, feature := range []string{"footer links", "completion_url", "redirect_url", "open_in_new_tab",
		"language targeting", "profile targeting", "question image", "html", "scale labels", "exclusive option"} {
		assert.True(t, has[feature], "no demo campaign has %s", feature)
	}
}

func TestEveryDemoTextExistsInEveryLanguageOfItsPanel(t *testing.T) {
	t.Parallel()
	for key, langs := range demoPanelLanguages() {
		for _, c := range loadDemoCampaigns(t, key) {
			assert.NotEmpty(t, c.def.Name, c.file)
			walkDemoTexts(reflect.ValueOf(c.def), "campaign", func(where string, text campaigns.Text) {
				for _, lang := range langs {
					assert.True(t, text.Has(lang), "%s: %s has no %s text", c.file, where, lang)
				}
				for lang := range text {
					assert.Contains(t, langs, lang, "%s: %s has a text in %q, which %s does not offer", c.file, where, lang, key)
				}
			})
		}
	}
}

func TestEveryDemoImageIsASmallStaticSVGWithATitle(t *testing.T) {
	t.Parallel()
	for key := range demoPanelLanguages() {
		for _, c := range loadDemoCampaigns(t, key) {
			walkDemoImages(reflect.ValueOf(c.def), func(img *campaigns.Image) {
				name, ok := strings.CutPrefix(img.URL, "/static/")
				require.True(t, ok, "%s: %s is not a static file", c.file, img.URL)
				data, err := fs.ReadFile(static.FS, name)
				require.NoError(t, err, c.file)
				assert.Less(t, len(data), 2048, img.URL)
				assert.Contains(t, string(data), "<title>", img.URL)
			})
		}
	}
}

var (
	demoTextType  = reflect.TypeFor[campaigns.Text]()
	demoImageType = reflect.TypeFor[campaigns.Image]()
)

// walkDemoTexts calls fn with every non-empty Text reachable from v, named by its JSON path.
func walkDemoTexts(v reflect.Value, where string, fn func(string, campaigns.Text)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkDemoTexts(v.Elem(), where, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			walkDemoTexts(v.Field(i), where+"."+cmp.Or(name, f.Name), fn)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkDemoTexts(v.Index(i), where+"["+strconv.Itoa(i)+"]", fn)
		}
	case reflect.Map:
		if v.Type() == demoTextType {
			if v.Len() > 0 {
				fn(where, v.Interface().(campaigns.Text))
			}
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			walkDemoTexts(v.MapIndex(k), where+"."+k.String(), fn)
		}
	}
}

// walkDemoImages calls fn with every Image reachable from v.
func walkDemoImages(v reflect.Value, fn func(*campaigns.Image)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Elem() == demoImageType {
			fn(v.Interface().(*campaigns.Image))
			return
		}
		walkDemoImages(v.Elem(), fn)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkDemoImages(v.Field(i), fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkDemoImages(v.Index(i), fn)
		}
	}
}
