package postcodes

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestParsingAPostcodeCSVReadsRowsWithTheirLines(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		csv  string
		want []Row
	}{
		{
			name: "the three required columns",
			csv:  "id,postcode,label\nSW1A1AA,SW1A 1AA,\"SW1A 1AA, Westminster, London\"\n",
			want: []Row{{Line: 2, ID: "SW1A1AA", Postcode: "SW1A 1AA", Label: "SW1A 1AA, Westminster, London"}},
		},
		{
			name: "columns in any order and case, extra columns ignored, a BOM before the header",
			csv:  "\uFEFFRegion,Label,ID,latitude,Postcode,Locality\nLondon,Whitehall,SW1A,51.5,SW1A,Westminster\n",
			want: []Row{{Line: 2, ID: "SW1A", Postcode: "SW1A", Label: "Whitehall", Locality: "Westminster", Region: "London"}},
		},
		{
			name: "blank lines skipped, a quoted line break counted, cells trimmed",
			csv:  "id,postcode,label\n\na, 10001 ,\"New\nYork\"\nb,10002,  NY  \n",
			want: []Row{{Line: 3, ID: "a", Postcode: "10001", Label: "New\nYork"}, {Line: 5, ID: "b", Postcode: "10002", Label: "NY"}},
		},
		{
			name: "a header alone is no rows",
			csv:  "id,postcode,label\n",
			want: nil,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := ParseCSV("f.csv", strings.NewReader(tc.csv))
			require.NoError(t, err)
			assert.Equal(t, tc.want, rows)
		})
	}
}

func TestParsingAPostcodeCSVNamesTheLineOfEveryBadRow(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		csv  string
		want []string
	}{
		{"an empty file", "", []string{"f.csv: empty file"}},
		{"a header without label", "id,postcode\nx,1\n", []string{`f.csv:1: the header has no "label" column`}},
		{"a column named twice", "id,postcode,label,id\n", []string{`f.csv:1: column "id" appears twice`}},
		{"an empty id", "id,postcode,label\nok,1,one\n,2,two\n", []string{"f.csv:3: id is empty"}},
		{"a blank postcode", "id,postcode,label\na,  ,x\n", []string{"f.csv:2: postcode is empty"}},
		{"an over-long postcode", "id,postcode,label\na," + strings.Repeat("9", MaxPostcodeLength+1) + ",x\n", []string{"f.csv:2: postcode is longer than 20 characters"}},
		{"an over-long id", "id,postcode,label\n" + strings.Repeat("i", MaxIDLength+1) + ",1,x\n", []string{"f.csv:2: id is longer than 100 characters"}},
		{"an over-long label", "id,postcode,label\na,1," + strings.Repeat("l", MaxLabelLength+1) + "\n", []string{"f.csv:2: label is longer than 200 characters"}},
		{"a repeated id", "id,postcode,label\na,1,x\nb,2,y\na,3,z\n", []string{`f.csv:4: id "a" is already on line 2`}},
		{"a row with too few fields", "id,postcode,label\na,1\nb,2,y\n", []string{"f.csv:2: wrong number of fields"}},
		{"a broken quote", "id,postcode,label\na,1,x\nb,2,\"y\n", []string{"f.csv:3: extraneous or missing \" in quoted-field"}},
		{"several bad rows, each named", "id,postcode,label\n,1,x\nb,,y\nc,3\n", []string{"f.csv:2: id is empty", "f.csv:3: postcode is empty", "f.csv:4: wrong number of fields"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := ParseCSV("f.csv", strings.NewReader(tc.csv))
			require.Error(t, err)
			assert.Nil(t, rows, "a bad file gives no rows at all")
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestParsingAPostcodeCSVListsAtMostTenProblems(t *testing.T) {
	t.Parallel()
	csv := "id,postcode,label\n" + strings.Repeat(",1,x\n", 25)
	_, err := ParseCSV("f.csv", strings.NewReader(csv))
	var bad *InvalidError
	require.True(t, errors.As(err, &bad), "%T", err)
	assert.Len(t, bad.Problems, 10)
	assert.Equal(t, 15, bad.More)
	assert.Contains(t, err.Error(), "... and 15 more")
}

func TestAPostcodeImportIsIdempotentAndUpdatesByID(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		first := f.importCSV(f.acme, ukCSV)
		assert.Equal(t, ImportResult{Rows: 10, Created: 10}, first)
		var before []Place
		require.NoError(t, f.db.Order("id").Find(&before).Error)

		f.m.now = func() time.Time { return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC) }
		again := f.importCSV(f.acme, ukCSV)
		assert.Equal(t, ImportResult{Rows: 10, Unchanged: 10}, again, "the same file again changes nothing")
		var after []Place
		require.NoError(t, f.db.Order("id").Find(&after).Error)
		assert.Equal(t, before, after, "not even updated_at")

		changed := f.importCSV(f.acme, "id,postcode,label\nSW1A1AA,sw1a  1aa,\"SW1A 1AA, Buckingham Palace, London\"\nNEW1,N1 9GU,\"N1 9GU, King's Cross, London\"\n")
		assert.Equal(t, ImportResult{Rows: 2, Created: 1, Updated: 1}, changed)
		p, ok, err := f.m.Find(f.ctx, f.acme.ID, "SW1A1AA")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, "sw1a 1aa", p.Postcode, "the postcode is kept as written, its blanks collapsed")
		assert.Equal(t, "SW1A1AA", p.Normalized)
		assert.Equal(t, "SW1A 1AA, Buckingham Palace, London", p.Label)
		assert.Equal(t, " sw1a 1aa buckingham palace london ", p.Words)
		assert.Empty(t, p.Locality, "a file without the column clears it")
		assert.True(t, p.UpdatedAt.After(before[0].UpdatedAt), "a changed place is stamped")
		found, err := f.m.Lookup(f.ctx, f.acme.ID, "bucking", 0)
		require.NoError(t, err)
		assert.Equal(t, []string{"SW1A1AA"}, ids(found), "the new label is searchable")

		var count int64
		require.NoError(t, f.db.Model(&Place{}).Where("panel_id = ?", f.acme.ID).Count(&count).Error)
		assert.EqualValues(t, 11, count, "places missing from a file are kept")
	})
}

func TestAPostcodeImportWithABadRowImportsNothing(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, "id,postcode,label\nkeep,1,\"one\"\n")
		cases := []struct {
			name string
			rows []Row
			want string
		}{
			{"an empty postcode", []Row{{Line: 2, ID: "a", Postcode: "2"}, {Line: 3, ID: "b", Postcode: " "}}, "line 3: postcode is empty"},
			{"a repeated id", []Row{{Line: 2, ID: "keep", Postcode: "9"}, {Line: 7, ID: "keep", Postcode: "8"}}, `line 7: id "keep" is already on line 2`},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := f.m.Import(f.ctx, f.acme.ID, tc.rows)
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.want)
				got, err := f.m.Lookup(f.ctx, f.acme.ID, "", 0)
				require.NoError(t, err)
				assert.Equal(t, []string{"keep"}, ids(got))
				assert.Equal(t, "1", got[0].Postcode)
			})
		}
	})
}

func TestAPostcodeImportThatFailsInTheDatabaseLeavesNoRowBehind(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.importCSV(f.acme, "id,postcode,label\np0000,1,\"unchanged\"\n")
		rows, err := ParseCSV("many.csv", strings.NewReader(manyPlaces(importBatch*2+1)))
		require.NoError(t, err)
		// The third INSERT fails, after two batches were written in the same transaction.
		inserts := 0
		require.NoError(t, f.db.Callback().Create().Before("gorm:create").Register("test:fail_third_batch", func(tx *gorm.DB) {
			if tx.Statement.Table == "postcodes" {
				if inserts++; inserts == 3 {
					tx.AddError(errors.New("disk full"))
				}
			}
		}))
		_, err = f.m.Import(f.ctx, f.acme.ID, rows)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "disk full")
		assert.Equal(t, 3, inserts)

		got, err := f.m.Lookup(f.ctx, f.acme.ID, "", 0)
		require.NoError(t, err)
		require.Len(t, got, 1, "the first two batches were rolled back")
		assert.Equal(t, "unchanged", got[0].Label)
	})
}
