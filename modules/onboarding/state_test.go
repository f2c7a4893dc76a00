package onboarding

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOnboardingDataIsKeptOnlyForAProviderIdentityOrAMember(t *testing.T) {
	t.Parallel()
	pid := "p-1"
	for _, tc := range []struct {
		name  string
		state State
		valid bool
	}{
		{"provider and userId", State{Provider: "google", UserID: "u-1"}, true},
		{"a member (the userProfile)", State{ParticipantID: &pid}, true},
		{"a provider without a userId", State{Provider: "google"}, false},
		{"a userId without a provider", State{UserID: "u-1"}, false},
		{"nothing", State{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.valid, tc.state.Valid()) })
	}
}

func TestANewAnswerReplacesTheEarlierAnswerToTheSameCampaignAndQuestion(t *testing.T) {
	t.Parallel()
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	st := State{Answers: []Answer{
		{CampaignUUID: "c1", QuestionUUID: "q1", Answer: raw(`"a"`)},
		{CampaignUUID: "c2", QuestionUUID: "q1", Answer: raw(`"other campaign"`)},
		{CampaignUUID: "c1", QuestionUUID: "q2", Answer: raw(`2`)},
	}}
	st.SetAnswers("c1", map[string]json.RawMessage{"q1": raw(`"b"`), "q3": raw(`true`)}, []string{"q1", "q2", "q3"})
	assert.Equal(t, []Answer{
		{CampaignUUID: "c2", QuestionUUID: "q1", Answer: raw(`"other campaign"`)},
		{CampaignUUID: "c1", QuestionUUID: "q1", Answer: raw(`"b"`)},
		{CampaignUUID: "c1", QuestionUUID: "q3", Answer: raw(`true`)},
	}, st.Answers, "q2 was not kept (off the route); the other campaign's answer is untouched")
	assert.Equal(t, map[string]json.RawMessage{"q1": raw(`"b"`), "q3": raw(`true`)}, st.AnswersOf("c1"))

	st.Complete("c1")
	st.Complete("c1")
	assert.Equal(t, []string{"c1"}, st.CompletedCampaigns, "a campaign is recorded completed once")
}

func TestTheRedirectQueryIsHonouredOnlyAsAnHTTPSAddressOnTheProvidersDomain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw, domain string
		ok          bool
	}{
		{"https://google.com/welcome", "google.com", true},
		{"https://accounts.google.com/x?y=1", "google.com", true},
		{"https://GOOGLE.com/", "google.com", true},
		{"http://google.com/welcome", "google.com", false},
		{"https://evilgoogle.com/", "google.com", false},
		{"https://google.com.evil.example/", "google.com", false},
		{"https://user@google.com/", "google.com", false},
		{"//google.com/", "google.com", false},
		{"/feed", "google.com", false},
		{"javascript:alert(1)", "google.com", false},
		{"https://google.com/", "", false},
		{"", "google.com", false},
	} {
		assert.Equal(t, tc.ok, onDomain(tc.raw, tc.domain), "%q on %q", tc.raw, tc.domain)
	}
}
