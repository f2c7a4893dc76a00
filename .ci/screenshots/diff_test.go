package main

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filled is a w×h picture of one colour with the listed pixels in another.
func filled(w, h int, c color.NRGBA, spots map[image.Point]color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, c)
		}
	}
	for p, sc := range spots {
		img.SetNRGBA(p.X, p.Y, sc)
	}
	return img
}

var (
	white = color.NRGBA{255, 255, 255, 255}
	black = color.NRGBA{0, 0, 0, 255}
	grey  = color.NRGBA{128, 128, 128, 255}
)

func TestCompareCountsThePixelsThatMovedBeyondTheTolerance(t *testing.T) {
	tests := []struct {
		name          string
		before, after image.Image
		tolerance     uint8
		changed       int
		total         int
		magenta       []image.Point
	}{
		{"same pictures", filled(4, 3, white, nil), filled(4, 3, white, nil), 8, 0, 12, nil},
		{"a channel within the tolerance", filled(2, 2, grey, nil), filled(2, 2, color.NRGBA{136, 120, 128, 255}, nil), 8, 0, 4, nil},
		{"a channel just past it", filled(2, 2, grey, nil), filled(2, 2, color.NRGBA{137, 128, 128, 255}, nil), 8, 4, 4, []image.Point{{0, 0}, {1, 1}}},
		{"no tolerance", filled(2, 2, grey, nil), filled(2, 2, color.NRGBA{129, 128, 128, 255}, nil), 0, 4, 4, nil},
		{"one pixel", filled(3, 3, white, nil), filled(3, 3, white, map[image.Point]color.NRGBA{{2, 1}: black}), 8, 1, 9, []image.Point{{2, 1}}},
		{"a taller after: the new rows changed", filled(2, 2, white, nil), filled(2, 3, white, nil), 8, 2, 6, []image.Point{{0, 2}, {1, 2}}},
		{"a wider before: the lost columns changed", filled(3, 1, white, nil), filled(2, 1, white, nil), 8, 1, 3, []image.Point{{2, 0}}},
		{"crossed sizes: the corner in neither changed", filled(1, 2, white, nil), filled(2, 1, white, nil), 8, 3, 4, []image.Point{{1, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compare(tt.before, tt.after, tt.tolerance)
			assert.Equal(t, tt.changed, c.changed)
			assert.Equal(t, tt.total, c.total)
			require.Equal(t, image.Rect(0, 0, max(tt.before.Bounds().Dx(), tt.after.Bounds().Dx()), max(tt.before.Bounds().Dy(), tt.after.Bounds().Dy())), c.diff.Rect)
			for _, p := range tt.magenta {
				assert.Equal(t, magenta, c.diff.RGBAAt(p.X, p.Y), "pixel %v", p)
			}
		})
	}
}

func TestTheDiffPictureFadesTheUnchangedPixelsToALightGrey(t *testing.T) {
	tests := []struct {
		name string
		in   color.NRGBA
		want uint8
	}{
		{"white stays white", white, 255},
		{"black becomes a light grey", black, 170},
		{"a mid grey, lighter", grey, 213},
		{"pure red by its luminance", color.NRGBA{255, 0, 0, 255}, 196},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compare(filled(1, 1, tt.in, nil), filled(1, 1, tt.in, nil), 0)
			assert.Equal(t, color.RGBA{tt.want, tt.want, tt.want, 255}, c.diff.RGBAAt(0, 0))
		})
	}
}

func TestCompareReadsPicturesWhoseBoundsDoNotStartAtTheOrigin(t *testing.T) {
	big := filled(4, 4, white, map[image.Point]color.NRGBA{{3, 3}: black})
	part := big.SubImage(image.Rect(2, 2, 4, 4))
	c := compare(filled(2, 2, white, nil), part, 8)
	assert.Equal(t, 1, c.changed)
	assert.Equal(t, magenta, c.diff.RGBAAt(1, 1))
}

func encoded(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func TestDiffPNGs(t *testing.T) {
	a := encoded(t, filled(5, 4, white, nil))
	b := encoded(t, filled(5, 4, white, map[image.Point]color.NRGBA{{0, 0}: black, {4, 3}: black}))
	// The same pixels saved differently: compared, not merely byte-equal.
	var best bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&best, filled(5, 4, white, nil)))
	tests := []struct {
		name          string
		before, after []byte
		changed       int
		share         float64
		err           string
	}{
		{"equal bytes", a, a, 0, 0, ""},
		{"the same pixels encoded otherwise", a, best.Bytes(), 0, 0, ""},
		{"two pixels of twenty", a, b, 2, 0.1, ""},
		{"a broken base", []byte("not a png"), b, 0, 0, "decode the base's picture"},
		{"a broken work tree", a, []byte("not a png"), 0, 0, "decode the work tree's picture"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := diffPNGs(tt.before, tt.after, 8)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.changed, c.changed)
			assert.InDelta(t, tt.share, c.share(), 1e-9)
		})
	}
}

func TestEncodedDiffDecodesWithItsSize(t *testing.T) {
	c := compare(filled(3, 2, white, nil), filled(3, 5, white, nil), 8)
	data, err := encodePNG(c.diff)
	require.NoError(t, err)
	w, h := pngSize(data)
	assert.Equal(t, []int{3, 5}, []int{w, h})
	w, h = pngSize([]byte("nope"))
	assert.Equal(t, []int{0, 0}, []int{w, h})
}

func TestFormatShare(t *testing.T) {
	tests := []struct {
		share float64
		want  string
	}{
		{0, "0%"},
		{0.00005, "under 0.01%"},
		{0.0001, "0.01%"},
		{0.123456, "12.35%"},
		{1, "100.00%"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, formatShare(tt.share), "%v", tt.share)
	}
}

// statesJSON is a states.json as the work tree serves it (with layouts) and as an older base
// serves it (without).
func statesJSON(withLayouts bool) []state {
	demo := panelRef{Key: "demo", Languages: []string{"en", "es"}}
	north := panelRef{Key: "northwind", Languages: []string{"en", "ru", "zh"}}
	if withLayouts {
		demo.Layouts = []string{"default", "compact"}
		north.Layouts = []string{"compact", "default"}
	}
	return []state{
		{Module: "feed", Name: "with-surveys", Who: "member", Panels: []panelRef{demo, north}},
		{Module: "wallet", Name: "empty", Who: "member", Panels: []panelRef{demo, north}},
	}
}

func TestSelectionShots(t *testing.T) {
	feedOnly := regexp.MustCompile(`^feed/`)
	tests := []struct {
		name  string
		sel   selection
		want  int
		first shot
		has   []string // variants of some shot
	}{
		{"default: each panel in its first language, own layout", selection{widths: []int{360, 1280}}, 8,
			shot{Module: "feed", Name: "with-surveys", Panel: "demo", Lang: "en", Width: 360},
			[]string{"demo-en-360", "northwind-en-1280"}},
		{"states filter", selection{states: feedOnly, widths: []int{360}}, 2,
			shot{Module: "feed", Name: "with-surveys", Panel: "demo", Lang: "en", Width: 360}, nil},
		{"one panel", selection{panel: "northwind", widths: []int{360}}, 2,
			shot{Module: "feed", Name: "with-surveys", Panel: "northwind", Lang: "en", Width: 360}, nil},
		{"all: every language in each layout", selection{states: feedOnly, all: true, widths: []int{360}}, 10,
			shot{Module: "feed", Name: "with-surveys", Panel: "demo", Lang: "en", Width: 360},
			[]string{"demo-es-360", "demo-es-compact-360", "northwind-zh-360", "northwind-ru-default-360"}},
		{"an unknown panel", selection{panel: "nope", widths: []int{360}}, 0, shot{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.sel.shots(statesJSON(true))
			require.Len(t, got, tt.want)
			if tt.want == 0 {
				return
			}
			assert.Equal(t, tt.first, got[0])
			var variants []string
			for _, s := range got {
				variants = append(variants, s.variant())
			}
			for _, v := range tt.has {
				assert.Contains(t, variants, v)
			}
		})
	}
}

func TestABaseWithoutLayoutsIsShotInTheLanguagesAlone(t *testing.T) {
	sel := selection{all: true, widths: []int{360}}
	base := sel.shots(statesJSON(false))
	head := sel.shots(statesJSON(true))
	assert.Len(t, base, 10)
	assert.Len(t, head, 20)
	var compared, added int
	for _, p := range pairs(base, head) {
		switch {
		case p.base && p.head:
			compared++
		case p.head:
			added++
			assert.NotEmpty(t, p.shot.Layout, "only the other layouts are new")
		}
	}
	assert.Equal(t, []int{10, 10}, []int{compared, added})
}

func TestPairs(t *testing.T) {
	a := shot{Module: "feed", Name: "a", Panel: "demo", Lang: "en", Width: 360}
	b := shot{Module: "feed", Name: "b", Panel: "demo", Lang: "en", Width: 360}
	c := shot{Module: "feed", Name: "c", Panel: "demo", Lang: "en", Width: 360}
	tests := []struct {
		name       string
		base, head []shot
		want       []pair
	}{
		{"both have them", []shot{a, b}, []shot{a, b}, []pair{{a, true, true}, {b, true, true}}},
		{"one added", []shot{a}, []shot{a, b}, []pair{{a, true, true}, {b, false, true}}},
		{"one removed, listed after the head's", []shot{c, a}, []shot{a}, []pair{{a, true, true}, {c, true, false}}},
		{"nothing", nil, nil, []pair{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, pairs(tt.base, tt.head))
		})
	}
}

func TestShotNamesAndAddresses(t *testing.T) {
	tests := []struct {
		shot             shot
		dir, address, id string
	}{
		{shot{Module: "feed", Name: "with-surveys", Panel: "northwind", Lang: "en", Width: 360},
			"feed/with-surveys/northwind-en-360", "/_dev/gallery/feed/with-surveys?lang=en&panel=northwind", "shot-feed-with-surveys-northwind-en-360"},
		{shot{Module: "surveys", Name: "invitation", Panel: "demo", Lang: "es", Layout: "compact", Width: 1280},
			"surveys/invitation/demo-es-compact-1280", "/_dev/gallery/surveys/invitation?lang=es&layout=compact&panel=demo", "shot-surveys-invitation-demo-es-compact-1280"},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			assert.Equal(t, tt.dir, tt.shot.dir())
			assert.Equal(t, tt.address, tt.shot.address())
			assert.Equal(t, tt.id, toEntry(result{shot: tt.shot}).ID)
		})
	}
}

func TestParseWidths(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  bool
	}{
		{"360,1280", []int{360, 1280}, false},
		{" 320 , 360 ", []int{320, 360}, false},
		{"360,", nil, true},
		{"wide", nil, true},
		{"50", nil, true},
	}
	for _, tt := range tests {
		got, err := parseWidths(tt.in)
		if tt.err {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got)
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-base", "HEAD~2", "-states", "^feed/", "-panel", "northwind", "-all", "-tolerance", "0", "-widths", "320"})
	require.NoError(t, err)
	assert.Equal(t, "HEAD~2", o.base)
	assert.Equal(t, "^feed/", o.sel.states.String())
	assert.Equal(t, []int{320}, o.sel.widths)
	assert.True(t, o.sel.all)
	assert.Equal(t, uint8(0), o.tolerance)

	o, err = parseFlags(nil)
	require.NoError(t, err)
	assert.Equal(t, "main", o.base)
	assert.Equal(t, []int{360, 1280}, o.sel.widths)
	assert.Equal(t, uint8(8), o.tolerance)
	assert.Nil(t, o.sel.states)

	for _, bad := range [][]string{{"-states", "("}, {"-tolerance", "256"}, {"-pages", "0"}, {"-base", ""}, {"extra"}} {
		_, err := parseFlags(bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestReport(t *testing.T) {
	moved := shot{Module: "feed", Name: "with-surveys", Panel: "northwind", Lang: "en", Width: 360}
	results := []result{
		{shot: shot{Module: "feed", Name: "empty", Panel: "demo", Lang: "en", Width: 360}},
		{shot: moved, outcome: changed, share: 0.25,
			before: &picture{Src: moved.dir() + "/before.png", Width: 360, Height: 900},
			after:  &picture{Src: moved.dir() + "/after.png", Width: 360, Height: 1000},
			diff:   &picture{Src: moved.dir() + "/diff.png", Width: 360, Height: 1000}},
		{shot: shot{Module: "feed", Name: "new", Panel: "demo", Lang: "en", Width: 360}, outcome: added,
			after: &picture{Src: "feed/new/demo-en-360/after.png", Width: 360, Height: 740}},
		{shot: shot{Module: "feed", Name: "gone", Panel: "demo", Lang: "en", Width: 360}, outcome: removed,
			before: &picture{Src: "feed/gone/demo-en-360/before.png", Width: 360, Height: 740}},
		{shot: shot{Module: "feed", Name: "broken", Panel: "demo", Lang: "en", Width: 360}, outcome: failed, err: errors.New("open <page>: timeout")},
	}
	assert.Equal(t, counts{Compared: 2, Changed: 1, Unchanged: 1, Added: 1, Removed: 1, Failed: 1}, count(results))

	var buf bytes.Buffer
	require.NoError(t, writeReport(&buf, summary{Base: "main", BaseHash: "5c33ab7", Head: "the work tree (HEAD 5c33ab7 with uncommitted changes)",
		Widths: "360 and 1280", Tolerance: 8, States: 5, Seconds: 42}, results))
	html := buf.String()
	tests := []struct {
		name, want string
	}{
		{"a language", `<html lang="en">`},
		{"the revision and its hash", `<h1>Screenshots: <code>main</code> (5c33ab7) vs the work tree (HEAD 5c33ab7 with uncommitted changes)</h1>`},
		{"the counts", `<li><strong>1</strong> unchanged</li>`},
		{"the failures counted", `<li><strong>1</strong> failed</li>`},
		{"a heading per changed shot", `<h3 id="shot-feed-with-surveys-northwind-en-360">feed/with-surveys: northwind, en, 360 px</h3>`},
		{"its share", `25.00% of the pixels changed`},
		{"a relative before, linked", `<a href="feed/with-surveys/northwind-en-360/before.png"><img src="feed/with-surveys/northwind-en-360/before.png" width="360" height="900"`},
		{"the diff's alt text", `alt="Difference: feed/with-surveys: northwind, en, 360 px, the changed pixels (25.00%) in magenta over the after picture"`},
		{"the added one", `<img src="feed/new/demo-en-360/after.png"`},
		{"the removed one", `<h2 id="removed">Removed (only in main)</h2>`},
		{"the error, escaped", `open &lt;page&gt;: timeout`},
		{"a link to each changed shot", `<a href="#shot-feed-with-surveys-northwind-en-360">`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Contains(t, html, tt.want)
		})
	}
	assert.NotContains(t, html, "feed/empty", "unchanged shots are only counted")
	for _, img := range regexp.MustCompile(`<img [^>]*>`).FindAllString(html, -1) {
		assert.Contains(t, img, ` alt="`, img)
		assert.False(t, strings.Contains(img, `src="/`), "relative: %s", img)
	}
}

func TestAReportWithNothingChangedSaysSo(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, writeReport(&buf, summary{Base: "main", BaseHash: "abc"}, []result{{shot: shot{Module: "a", Name: "b"}}}))
	assert.Contains(t, buf.String(), "<p>No shot changed.</p>")
	assert.NotContains(t, buf.String(), `id="failed"`)
}
