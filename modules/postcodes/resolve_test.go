package postcodes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveFindsThePlaceOfATypedPostcodeInItsPanelOnly(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, ukCSV)
		f.importCSV(f.globex, "id,postcode,label\nglobex-m1,M1 1AE,\"M1 1AE, Globex\"\nglobex-ny,10001,\"10001, Globex\"\nalso-ny,10001,\"10001, Globex again\"\n")
		cases := []struct {
			name   string
			panel  string
			typed  string
			wantID string // "" when nothing is found
		}{
			{"the postcode as written", "acme", "SW1A 1AA", "SW1A1AA"},
			{"lower case without the space", "acme", "sw1a1aa", "SW1A1AA"},
			{"with stray spaces and a tab", "acme", " m1\t1ae ", "M11AE"},
			{"an outward code that is a place of its own", "acme", "sw1a", "SW1A"},
			{"a prefix is not a postcode", "acme", "SW1A 1", ""},
			{"blank text", "acme", "   ", ""},
			{"a postcode only the other panel has", "acme", "EH99 1SP", ""},
			{"the same postcode in the other panel is that panel's place", "globex", "m1 1ae", "globex-m1"},
			{"a postcode two places share resolves to the first by id", "globex", "10001", "also-ny"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				panel := f.acme
				if tc.panel == "globex" {
					panel = f.globex
				}
				p, ok, err := f.m.Resolve(f.ctx, panel.ID, tc.typed)
				require.NoError(t, err)
				assert.Equal(t, tc.wantID != "", ok)
				assert.Equal(t, tc.wantID, p.ID)
				if ok {
					assert.Equal(t, panel.ID, p.PanelID)
				}
			})
		}
	})
}

func TestFindReturnsAPanelsPostcodeByItsID(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, ukCSV)
		cases := []struct {
			name         string
			id           string
			wantFound    bool
			wantPostcode string
			wantLabel    string
		}{
			{"an id of the panel", "SW1A1AA", true, "SW1A 1AA", "SW1A 1AA, Westminster, London"},
			{"ids are exact: another case is another id", "sw1a1aa", false, "", ""},
			{"an unknown id", "XX1", false, "", ""},
			{"an empty id", "", false, "", ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				p, ok, err := f.m.Find(f.ctx, f.acme.ID, tc.id)
				require.NoError(t, err)
				assert.Equal(t, tc.wantFound, ok)
				assert.Equal(t, tc.wantPostcode, p.Postcode)
				assert.Equal(t, tc.wantLabel, p.Label)
			})
		}
		p, ok, err := f.m.Find(f.ctx, f.acme.ID, "EH11YZ")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, Place{PanelID: f.acme.ID, ID: "EH11YZ", Postcode: "EH1 1YZ", Normalized: "EH11YZ", Label: "EH1 1YZ, Old Town, Edinburgh",
			Locality: "Old Town", Region: "Edinburgh", Words: " eh1 1yz old town edinburgh ", UpdatedAt: p.UpdatedAt}, p, "every imported field is kept")
		_, ok, err = f.m.Find(f.ctx, f.globex.ID, "EH11YZ")
		require.NoError(t, err)
		assert.False(t, ok, "another panel's id is not found")
	})
}

func TestHasAnyTellsWhetherAPanelImportedPostcodes(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, ukCSV)
		cases := []struct {
			name  string
			panel string
			want  bool
		}{
			{"a panel with postcodes", f.acme.ID, true},
			{"a panel without any", f.globex.ID, false},
			{"an unknown panel", "00000000-0000-4000-8000-000000000000", false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.m.HasAny(f.ctx, tc.panel)
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
			})
		}
	})
}

func TestNormalizeUpperCasesAPostcodeAndDropsEveryBlank(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"sw1a 1aa", "SW1A1AA"},
		{" SW1A\t1AA\n", "SW1A1AA"},
		{"10001-1234", "10001-1234"},
		{"", ""},
		{"   ", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) { assert.Equal(t, tc.want, Normalize(tc.in)) })
	}
}
