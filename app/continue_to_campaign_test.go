package main

import (
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"testing"

	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type tagEvent struct {
	Name   string            `json:"name"`
	Params map[string]string `json:"params"`
}

var tagEventsRE = regexp.MustCompile(`<script[^>]* data-events="([^"]*)"`)

// tagEvents are the analytics events a page's tag reports (its data-events), nil for none.
func tagEvents(t *testing.T, body string) []tagEvent {
	t.Helper()
	m := tagEventsRE.FindStringSubmatch(body)
	if m == nil {
		return nil
	}
	var out []tagEvent
	require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &out))
	return out
}

func TestArrivingAtASurveyFromAnotherSurveyReportsContinueToMyCampaign(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		setDemoTags(t, e, "G-TEST1234", "")
		c := e.member()
		poll, coffee := e.campaignID("demo", "Quick poll"), e.campaignID("demo", "Your coffee habits")
		from := func(referer string) *response {
			res := c.do(http.MethodGet, "/survey/"+poll, nil, http.Header{"Referer": {referer}})
			require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
			return res
		}

		events := tagEvents(t, from("http://localhost/survey/"+coffee).Body)
		require.Len(t, events, 1)
		assert.Equal(t, "Continue to my campaign", surveys.ContinueLabel)
		assert.Equal(t, surveys.ContinueLabel, events[0].Params["event_label"])
		assert.Equal(t, "survey/"+coffee, events[0].Params["previous_path"], "the previous path, minus its leading slash")

		assert.Nil(t, tagEvents(t, from("http://localhost/survey/"+poll).Body), "already on that survey (an answer's redirect)")
		assert.Nil(t, tagEvents(t, from("http://localhost/feed").Body), "from the feed")
		assert.Nil(t, tagEvents(t, from("https://elsewhere.example/survey/"+coffee).Body), "from another site")
		assert.Nil(t, tagEvents(t, c.get("/survey/"+poll).Body), "no previous page")

		// A Tag Manager container alone gets it as a dataLayer event.
		setDemoTags(t, e, "", "GTM-ABC123")
		events = tagEvents(t, from("http://localhost/survey/"+coffee+"/leave").Body)
		require.Len(t, events, 1)
		assert.Equal(t, "survey/"+coffee+"/leave", events[0].Params["previous_path"])

		// A panel without a tag reports nothing, and its page carries no byte of it.
		setDemoTags(t, e, "", "")
		page := from("http://localhost/survey/" + coffee)
		assert.NotContains(t, page.Body, "data-events")
		assert.NotContains(t, page.Body, surveys.ContinueLabel)
	})
}
