package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type postcodeLookupJSON struct {
	Results []struct {
		ID       string `json:"id"`
		Postcode string `json:"postcode"`
		Label    string `json:"label"`
	} `json:"results"`
}

const postcodeLookup = "/ah/api/v1/info/postcode-lookup"

func TestAVisitorLooksUpTheDemoPanelsPostcodes(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		cases := []struct {
			name      string
			host      string
			query     string
			wantCount int    // -1: any
			wantFirst string // "id|postcode|label"
		}{
			{"a US ZIP code on Canvass Demo", "localhost", "?instanceKey=demo&search=10001", 1, "10001|10001|10001, New York, NY"},
			{"a ZIP prefix on Canvass Demo", "localhost", "?instanceKey=demo&search=9410", -1, "94101|94101|94101, San Francisco, CA"},
			{"a city name on Canvass Demo", "localhost", "?instanceKey=demo&search=chicago&pageSize=3", 3, "60290|60290|60290, Chicago, IL"},
			{"a UK postcode typed loosely on Northwind", "northwind.localhost", "?instanceKey=northwind&search=sw1a1aa", 1, "SW1A1AA|SW1A 1AA|SW1A 1AA, Westminster, London"},
			{"an outward code first, then its postcodes", "northwind.localhost", "?search=M1", -1, "M1|M1|M1, City Centre, Manchester"},
			{"Edinburgh by its postcode", "northwind.localhost", "?search=EH1%201YZ", 1, "EH11YZ|EH1 1YZ|EH1 1YZ, Old Town, Edinburgh"},
			{"no UK postcodes on the US panel", "localhost", "?search=SW1A", 0, ""},
			{"no US ZIP codes on the UK panel", "northwind.localhost", "?search=10001", 0, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				out := decodeJSON[postcodeLookupJSON](t, e.client(tc.host).get(postcodeLookup+tc.query), http.StatusOK)
				require.NotNil(t, out.Results)
				if tc.wantCount >= 0 {
					require.Len(t, out.Results, tc.wantCount)
				}
				if tc.wantFirst != "" {
					require.NotEmpty(t, out.Results)
					r := out.Results[0]
					assert.Equal(t, tc.wantFirst, r.ID+"|"+r.Postcode+"|"+r.Label)
				}
			})
		}
	})
}

func TestThePostcodeLookupKeepsToTheSpecsLimitsAndRefusesBadQueries(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("northwind.localhost")
		all := decodeJSON[postcodeLookupJSON](t, c.get(postcodeLookup), http.StatusOK)
		assert.Greater(t, len(all.Results), 200, "the demo panel has a few hundred places")
		assert.LessOrEqual(t, len(all.Results), postcodes.MaxListResults)
		london := decodeJSON[postcodeLookupJSON](t, c.get(postcodeLookup+"?search=london"), http.StatusOK)
		assert.Len(t, london.Results, postcodes.MaxSearchResults, "more than 99 London places, 99 answered")
		few := decodeJSON[postcodeLookupJSON](t, c.get(postcodeLookup+"?search=london&pageSize=7"), http.StatusOK)
		assert.Len(t, few.Results, 7)

		cases := []struct {
			name, query, wantMessage string
		}{
			{"another panel's instance key", "?instanceKey=demo&search=sw1a", "instanceKey is not this site's instance."},
			{"a pageSize that is not a whole number", "?search=sw1a&pageSize=lots", "pageSize must be a whole number of 1 or more."},
			{"a pageSize of zero", "?pageSize=0", "pageSize must be a whole number of 1 or more."},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				name, msg, status := apiError(t, c.get(postcodeLookup+tc.query))
				assert.Equal(t, "ClientError", name)
				assert.Equal(t, http.StatusBadRequest, status)
				assert.Equal(t, tc.wantMessage, msg)
			})
		}
	})
}

func TestTheDemoLoaderImportsPostcodesOnceAndKeepsThemOnASecondRun(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		count := func() int64 {
			var n int64
			require.NoError(t, e.db.Model(&postcodes.Place{}).Count(&n).Error)
			return n
		}
		before := count()
		require.NoError(t, LoadDemo(ctx, e.app))
		assert.Equal(t, before, count())
		for _, key := range []string{"demo", "northwind"} {
			panel, err := e.app.Tenancy.PanelByKey(ctx, key)
			require.NoError(t, err)
			has, err := e.app.Postcodes.HasAny(ctx, panel.ID)
			require.NoError(t, err)
			assert.True(t, has, key)
		}
		panel, err := e.app.Tenancy.PanelByKey(ctx, "northwind")
		require.NoError(t, err)
		p, ok, err := e.app.Postcodes.Resolve(ctx, panel.ID, "sw1a 1aa")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, "SW1A1AA", p.ID, "a demo place's id is its normalised postcode, as the control's fallback sends it")
	})
}

func TestPostcodesImportLoadsAPanelsFileAndRefusesAFileWithABadRow(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "canvass.db")
	t.Setenv("CANVASS_ENV", "development")
	t.Setenv("CANVASS_SECRET", "")
	t.Setenv("CANVASS_DEMO", "")
	t.Setenv("CANVASS_DATABASE_URL", "sqlite://"+dbPath)
	ctx := context.Background()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	good := write("good.csv", "id,postcode,label,region\nSW1A1AA,SW1A 1AA,\"SW1A 1AA, Westminster, London\",London\nM11AE,M1 1AE,\"M1 1AE, Manchester\",Manchester\n")
	bad := write("bad.csv", "id,postcode,label\nSW1A1AA,SW1A 1AA,Westminster\nEH11YZ,,Edinburgh\n")

	err := run(ctx, []string{"postcodes", "import", "--panel", "acme", bad}, quietCLILog())
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad+":3: postcode is empty")
	assert.NoFileExists(t, dbPath, "a bad row stops the import before the database is opened")

	tenant := write("acme.yaml", "instance: {code: acme}\nkey: acme\nname: Acme\ncurrency_code: GBP\nhosts: [acme.example]\nlanguages: [en]\n")
	require.NoError(t, run(ctx, []string{"tenant", "apply", tenant}, quietCLILog()))
	err = run(ctx, []string{"postcodes", "import", "--panel", "nobody", good}, quietCLILog())
	require.Error(t, err)
	assert.Contains(t, err.Error(), `panel "nobody"`)

	require.NoError(t, run(ctx, []string{"postcodes", "import", "--panel", "acme", good}, quietCLILog()))
	require.NoError(t, run(ctx, []string{"postcodes", "import", "--panel", "acme", good}, quietCLILog()), "importing again changes nothing")

	db, err := migrations.Open("sqlite://" + dbPath)
	require.NoError(t, err)
	t.Cleanup(func() { closeDB(db) })
	var rows []postcodes.Place
	require.NoError(t, db.Order("id").Find(&rows).Error)
	require.Len(t, rows, 2)
	assert.Equal(t, []string{"M11AE", "SW1A1AA"}, []string{rows[0].ID, rows[1].ID})
	assert.Equal(t, "London", rows[1].Region)
}

func TestPostcodesImportNeedsAPanelAndOneFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"postcodes"}, "canvass postcodes needs a command: import"},
		{[]string{"postcodes", "import"}, "canvass postcodes import needs one FILE.csv"},
		{[]string{"postcodes", "import", "--panel", "acme"}, "canvass postcodes import needs one FILE.csv"},
		{[]string{"postcodes", "import", "file.csv"}, `required flag(s) "panel" not set`},
		{[]string{"postcodes", "import", "--panel", "acme", "a.csv", "b.csv"}, "canvass postcodes import needs one FILE.csv, got 2: a.csv b.csv"},
		{[]string{"postcodes", "export", "--panel", "acme"}, `unknown command "export" for "canvass postcodes"`},
	} {
		err := run(context.Background(), tc.args, quietCLILog())
		var usage *usageError
		require.ErrorAs(t, err, &usage, "%v", tc.args)
		assert.Contains(t, err.Error(), tc.want, "%v", tc.args)
	}
}
