package campaigns

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestTheAudienceRuleSaysWhyAPersonMayNotSeeOrTakeACampaign(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	status := func(s string) *string { return &s }
	gb := []Condition{{Field: "metadata.country", Op: OpEq, Value: "GB"}}
	cases := []struct {
		name    string
		listing func(l *Listing)
		person  func(p *Person)
		see     string // CanSee's reason
		take    string // reasonNotToTake's
	}{
		{name: "an open campaign is for everyone"},
		{name: "one the person hid stays out of lists but may still be taken",
			listing: func(l *Listing) { l.Standing.HiddenAt = &past }, see: ReasonHidden},
		{name: "one the person started is still theirs", listing: func(l *Listing) { l.Standing.Status = status(StatusStarted) }},
		{name: "one the person completed is over for them",
			listing: func(l *Listing) { l.Standing.Status = status(StatusCompleted) }, see: StatusCompleted, take: StatusCompleted},
		{name: "one the person was screened out of says so",
			listing: func(l *Listing) { l.Standing.Status = status(StatusScreened) }, see: StatusScreened, take: StatusScreened},
		{name: "a closed one has expired", listing: func(l *Listing) { l.ClosesAt = &past }, see: StatusExpired, take: StatusExpired},
		{name: "one closing right now has expired", listing: func(l *Listing) { l.ClosesAt = &now }, see: StatusExpired, take: StatusExpired},
		{name: "one not open yet is unavailable", listing: func(l *Listing) { l.OpensAt = &future }, see: StatusUnavailable, take: StatusUnavailable},
		{name: "one open between its dates is for everyone", listing: func(l *Listing) { l.OpensAt, l.ClosesAt = &past, &future }},
		{name: "one in another language is unavailable", listing: func(l *Listing) { l.AudienceLanguages = ",es," },
			see: StatusUnavailable, take: StatusUnavailable},
		{name: "one in the person's language is theirs", listing: func(l *Listing) { l.AudienceLanguages = ",en,es," }},
		{name: "one whose targeting misses the person is unavailable", listing: func(l *Listing) { l.ProfileTargeting = gb },
			see: StatusUnavailable, take: StatusUnavailable},
		{name: "one whose targeting the person meets is theirs", listing: func(l *Listing) { l.ProfileTargeting = gb },
			person: func(p *Person) { p.Fields["metadata.country"] = "GB" }},
		{name: "a full quota closes it to everyone", listing: func(l *Listing) { l.QuotaFull = true }, see: StatusQuotaFull, take: StatusQuotaFull},
		{name: "a full quota of the person's profile closes it to them", listing: func(l *Listing) { l.FullAudiences = [][]Condition{gb} },
			person: func(p *Person) { p.Fields["metadata.country"] = "GB" }, see: StatusQuotaFull, take: StatusQuotaFull},
		{name: "a full quota of another profile does not", listing: func(l *Listing) { l.FullAudiences = [][]Condition{gb} }},
		{name: "their own status comes before the campaign's",
			listing: func(l *Listing) { l.Standing.Status, l.ClosesAt = status(StatusCompleted), &past }, see: StatusCompleted, take: StatusCompleted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &Listing{ID: "c", AudienceLanguages: ""}
			if tc.listing != nil {
				tc.listing(l)
			}
			p := Person{ID: "p", Language: "en", Fields: map[string]any{"languageCode": "en", "metadata.country": "US"}}
			if tc.person != nil {
				tc.person(&p)
			}
			a := &Audience{now: func() time.Time { return now }}
			assert.Equal(t, tc.see, a.CanSee(l, p), "CanSee")
			assert.Equal(t, tc.take, reasonNotToTake(l, p, now), "the reason not to take it")
		})
	}
}

func TestMinAgeHoldsBackPeopleTooYoungOrWithoutADateOfBirth(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		minAge int
		dob    any
		young  bool
	}{
		{"no min_age holds nobody back", 0, nil, false},
		{"no date of birth is held back", 18, nil, true},
		{"a date of birth that is no date is held back", 18, "22/11/2000", true},
		{"a date of birth in the future is held back", 18, "2030-01-01", true},
		{"a person one day short of the age is held back", 18, "2008-11-23", true},
		{"a person turning the age today may go on", 18, "2008-11-22", false},
		{"an older person may go on", 18, "1970-05-01", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := Person{Fields: map[string]any{}}
			if tc.dob != nil {
				p.Fields[dobField] = tc.dob
			}
			assert.Equal(t, tc.young, tooYoung(tc.minAge, p, now))
		})
	}
}
