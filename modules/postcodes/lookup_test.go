package postcodes

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestThePostcodeLookupAnswersAtMost99ForASearchAnd1000WithoutOne(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		res := f.importCSV(f.acme, manyPlaces(1200))
		require.Equal(t, 1200, res.Created)
		cases := []struct {
			name      string
			query     url.Values
			wantCount int
			wantFirst string
		}{
			{"a search term matching every place gets 99", url.Values{"search": {"1"}}, 99, "p0000"},
			{"no search term gets 1000", url.Values{}, 1000, "p0000"},
			{"a blank search term is no search term", url.Values{"search": {"   "}}, 1000, "p0000"},
			{"pageSize lowers the cap of a search", url.Values{"search": {"1"}, "pageSize": {"10"}}, 10, "p0000"},
			{"pageSize lowers the cap of the list", url.Values{"pageSize": {"250"}}, 250, "p0000"},
			{"pageSize never raises the cap of a search", url.Values{"search": {"1"}, "pageSize": {"5000"}}, 99, "p0000"},
			{"pageSize never raises the cap of the list", url.Values{"pageSize": {"5000"}}, 1000, "p0000"},
			{"a narrower search gets what matches", url.Values{"search": {"1100"}}, 10, "p1000"},
			{"the panel's own instanceKey is accepted", url.Values{"instanceKey": {"acme-instance"}, "search": {"10000"}}, 1, "p0000"},
			{"a search that matches nothing gets an empty list", url.Values{"search": {"99999"}}, 0, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, out, body := f.get(tc.query.Encode())
				require.Equal(t, http.StatusOK, status, body)
				require.NotNil(t, out.Results, "results is always a list: %s", body)
				assert.Len(t, out.Results, tc.wantCount)
				if tc.wantFirst != "" {
					assert.Equal(t, tc.wantFirst, out.Results[0].ID)
				}
			})
		}
	})
}

func TestThePostcodeLookupRefusesBadParametersNamingTheField(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, ukCSV)
		cases := []struct {
			name        string
			query       url.Values
			wantField   string
			wantMessage string
		}{
			{"a pageSize that is not a number", url.Values{"pageSize": {"ten"}}, "pageSize", "pageSize must be a whole number of 1 or more."},
			{"a pageSize of zero", url.Values{"pageSize": {"0"}}, "pageSize", "pageSize must be a whole number of 1 or more."},
			{"a negative pageSize", url.Values{"search": {"sw"}, "pageSize": {"-5"}}, "pageSize", "pageSize must be a whole number of 1 or more."},
			{"a fractional pageSize", url.Values{"pageSize": {"2.5"}}, "pageSize", "pageSize must be a whole number of 1 or more."},
			{"another instance's key", url.Values{"instanceKey": {"globex-instance"}, "search": {"sw"}}, "instanceKey", "instanceKey is not this site's instance."},
			{"an unknown instance key", url.Values{"instanceKey": {"nobody"}}, "instanceKey", "instanceKey is not this site's instance."},
			{"a search longer than any place", url.Values{"search": {strings.Repeat("a", MaxSearchLength+1)}}, "search", "This can be at most 100 characters long."},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, out, body := f.get(tc.query.Encode())
				require.Equal(t, http.StatusBadRequest, status, body)
				assert.Equal(t, "ClientError", out.Name)
				assert.Equal(t, http.StatusBadRequest, out.StatusCode)
				assert.Equal(t, tc.wantMessage, out.Message)
				require.Len(t, out.Details, 1)
				assert.Equal(t, tc.wantField, out.Details[0].Field)
				assert.Nil(t, out.Results)
			})
		}
	})
}

func TestThePostcodeLookupMatchesNormalisedPostcodePrefixesAndLabelWords(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, ukCSV)
		cases := []struct {
			name   string
			search string
			want   []string
		}{
			{"a full postcode typed in lower case without its space", "sw1a1aa", []string{"SW1A1AA"}},
			{"a full postcode with stray spaces", "  sw1a   1aa ", []string{"SW1A1AA"}},
			{"an outward code: itself first, then its postcodes in order", "SW1A", []string{"SW1A", "SW1A0AA", "SW1A1AA", "SW1A2AA"}},
			{"a district prefix in postcode order", "sw1", []string{"SW10", "SW1A", "SW1A0AA", "SW1A1AA", "SW1A2AA", "SW1E"}},
			{"a word of the label", "westm", []string{"SW1A0AA", "SW1A1AA", "SW1A2AA"}},
			{"a place name in any case", "MANCHESTER", []string{"M11AE"}},
			{"two words of the label", "new york", []string{"10001"}},
			{"words joined by punctuation", "York, NY", []string{"10001"}},
			{"postcode matches before label matches", "m", []string{"M11AE", "W1A1AA"}},
			{"a word is matched from its start only", "minster", nil},
			{"a digit-only term is a postcode prefix only", "1", []string{"10001"}},
			{"LIKE wildcards are literal", "%", nil},
			{"an underscore is literal", "S_1", nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.m.Lookup(f.ctx, f.acme.ID, tc.search, 0)
				require.NoError(t, err)
				if tc.want == nil {
					assert.Empty(t, got)
					return
				}
				assert.Equal(t, tc.want, ids(got))
			})
		}
	})
}

func TestThePostcodeLookupNeverAnswersWithAnotherPanelsPostcodes(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.globex, ukCSV)
		f.importCSV(f.acme, "id,postcode,label\nacme-1,SW1A 1AA,\"SW1A 1AA, Acme House\"\n")
		cases := []struct {
			name  string
			query url.Values
			want  []string
		}{
			{"the list", url.Values{}, []string{"acme-1"}},
			{"a search both panels match", url.Values{"search": {"sw1a"}}, []string{"acme-1"}},
			{"a label word only the other panel has", url.Values{"search": {"westminster"}}, []string{}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				status, out, body := f.get(tc.query.Encode())
				require.Equal(t, http.StatusOK, status, body)
				got := []string{}
				for _, r := range out.Results {
					got = append(got, r.ID)
				}
				assert.Equal(t, tc.want, got)
			})
		}
		_, out, _ := f.get("search=sw1a1aa")
		require.Len(t, out.Results, 1)
		assert.Equal(t, "SW1A 1AA", out.Results[0].Postcode, "each result carries its postcode as written")
		assert.Equal(t, "SW1A 1AA, Acme House", out.Results[0].Label)
	})
}

func TestAPanelWithoutPostcodesAnswersAnEmptyList(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, _, body := f.get("search=sw1a")
		assert.JSONEq(t, `{"results":[]}`, body)
	})
}

func TestThePostcodeLookupIsRateLimitedPerClient(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newFixture(t, db, 3)
		for i := range 3 {
			status, _, body := f.get("search=sw")
			require.Equal(t, http.StatusOK, status, "lookup %d: %s", i+1, body)
		}
		status, out, body := f.get("search=sw")
		require.Equal(t, http.StatusTooManyRequests, status, body)
		assert.Equal(t, "ClientError", out.Name)
		assert.Equal(t, "Too many requests. Please wait a moment and try again.", out.Message)
	})
}
