package onboarding

import (
	"encoding/json"
	"slices"
	"time"
)

// State is one onboarding in progress, found by the hash of its cookie's secret (or, for a
// member, by their participant id). It is the spec's Onboarding data, kept on the server: the
// panel, the provider identity (provider and userId) or the member (the spec's userProfile),
// the campaigns completed and the answers so far.
type State struct {
	ID                 string `gorm:"primaryKey"`
	PanelID            string
	Provider           string
	UserID             string
	ParticipantID      *string
	LanguageCode       string
	Redirect           string
	CompletedCampaigns []string `gorm:"serializer:json"`
	Answers            []Answer `gorm:"serializer:json"`
	Email              string   // the member's, once completed
	Version            int
	CompletedAt        *time.Time
	CreatedAt          time.Time
	UpdatedAt          time.Time
	ExpiresAt          time.Time
}

func (State) TableName() string { return "onboarding_states" }

// Answer is one answer of the spec's Onboarding data: a campaign's question and its VALUE.
type Answer struct {
	CampaignUUID string          `json:"campaignUuid"`
	QuestionUUID string          `json:"questionUuid"`
	Answer       json.RawMessage `json:"answer"`
}

// Valid is the spec's rule for keeping onboarding data: a provider identity (provider and
// userId), or a member (userProfile). Anything else is cleared.
func (s *State) Valid() bool {
	return (s.Provider != "" && s.UserID != "") || s.ParticipantID != nil
}

// ForMember tells whether the onboarding is a member's (the spec's userProfile) rather than a
// provider identity's.
func (s *State) ForMember() bool { return s.Provider == "" && s.ParticipantID != nil }

// AnswersOf are the answers kept for one campaign, by question id.
func (s *State) AnswersOf(campaignID string) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, a := range s.Answers {
		if a.CampaignUUID == campaignID {
			out[a.QuestionUUID] = a.Answer
		}
	}
	return out
}

// SetAnswers replaces a campaign's answers with kept, in the order of order (the questions as
// answered): a new answer replaces the earlier answer to the same campaign and question.
func (s *State) SetAnswers(campaignID string, kept map[string]json.RawMessage, order []string) {
	out := s.Answers[:0:0]
	for _, a := range s.Answers {
		if a.CampaignUUID != campaignID {
			out = append(out, a)
		}
	}
	for _, q := range order {
		if v, ok := kept[q]; ok {
			out = append(out, Answer{CampaignUUID: campaignID, QuestionUUID: q, Answer: v})
		}
	}
	s.Answers = out
}

// Completed tells whether the campaign is recorded as completed.
func (s *State) Completed(campaignID string) bool {
	return slices.Contains(s.CompletedCampaigns, campaignID)
}

// Complete records the campaign as completed, once.
func (s *State) Complete(campaignID string) {
	if !s.Completed(campaignID) {
		s.CompletedCampaigns = append(s.CompletedCampaigns, campaignID)
	}
}
