package static

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realManifest is verbatim `vite build` output (vite.config.ts of this repository) for a tree
// with two islands, survey-box (own CSS) and reward-meter, sharing the React vendor chunk and a
// UI chunk that has CSS of its own.
const realManifest = `{
  "_react-CwnXqKz8.js": {
    "file": "assets/react-CwnXqKz8.js",
    "name": "react"
  },
  "_ui-C5hvYQdC.js": {
    "file": "assets/ui-C5hvYQdC.js",
    "name": "ui",
    "imports": [
      "_react-CwnXqKz8.js"
    ],
    "css": [
      "assets/ui-DRDgy3I2.css"
    ]
  },
  "_ui-DRDgy3I2.css": {
    "file": "assets/ui-DRDgy3I2.css",
    "src": "_ui-DRDgy3I2.css"
  },
  "main.ts": {
    "file": "assets/main-ianKvDui.js",
    "name": "main",
    "src": "main.ts",
    "isEntry": true,
    "dynamicImports": [
      "survey-box/index.tsx",
      "reward-meter/index.tsx"
    ],
    "css": [
      "assets/main-C92gYl3D.css"
    ]
  },
  "reward-meter/index.tsx": {
    "file": "assets/island-reward-meter-B8iD1S3r.js",
    "name": "reward-meter",
    "src": "reward-meter/index.tsx",
    "isDynamicEntry": true,
    "imports": [
      "_react-CwnXqKz8.js",
      "_ui-C5hvYQdC.js"
    ]
  },
  "survey-box/index.tsx": {
    "file": "assets/island-survey-box-CIbkGEak.js",
    "name": "survey-box",
    "src": "survey-box/index.tsx",
    "isDynamicEntry": true,
    "imports": [
      "_react-CwnXqKz8.js",
      "_ui-C5hvYQdC.js"
    ],
    "css": [
      "assets/survey-box-CZZsI6Oq.css"
    ]
  }
}`

// emptyManifest is the build with no island registered yet.
const emptyManifest = `{
  "main.ts": {
    "file": "assets/main-BZiwyjFv.js",
    "name": "main",
    "src": "main.ts",
    "isEntry": true,
    "css": [
      "assets/main-C92gYl3D.css"
    ]
  }
}`

func fsWith(manifest string) fstest.MapFS {
	return fstest.MapFS{ManifestPath: {Data: []byte(manifest)}}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fsys    fs.FS
		built   bool
		wantErr string
	}{
		{name: "no manifest: not built, no error", fsys: fstest.MapFS{"dist/.gitignore": {Data: []byte("*\n")}}, built: false},
		{name: "real manifest", fsys: fsWith(realManifest), built: true},
		{name: "manifest without islands", fsys: fsWith(emptyManifest), built: true},
		{name: "invalid JSON", fsys: fsWith(`{"main.ts":`), wantErr: "parse dist/.vite/manifest.json"},
		{name: "no main.ts entry", fsys: fsWith(`{"other.ts": {"file": "assets/o.js", "isEntry": true}}`), wantErr: "no islands/main.ts entry"},
		{name: "main.ts not an entry", fsys: fsWith(`{"main.ts": {"file": "assets/m.js"}}`), wantErr: "no islands/main.ts entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Load(tt.fsys)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				assert.Nil(t, a)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.built, a.Built())
		})
	}
}

func TestHead(t *testing.T) {
	t.Parallel()
	const (
		mainJS    = "/static/dist/assets/main-ianKvDui.js"
		mainCSS   = "/static/dist/assets/main-C92gYl3D.css"
		react     = "/static/dist/assets/react-CwnXqKz8.js"
		ui        = "/static/dist/assets/ui-C5hvYQdC.js"
		uiCSS     = "/static/dist/assets/ui-DRDgy3I2.css"
		surveyBox = "/static/dist/assets/island-survey-box-CIbkGEak.js"
		surveyCSS = "/static/dist/assets/survey-box-CZZsI6Oq.css"
		rewardMtr = "/static/dist/assets/island-reward-meter-B8iD1S3r.js"
	)
	tests := []struct {
		name     string
		manifest string
		islands  []string
		want     Tags
	}{
		{
			name:     "base bundle only",
			manifest: realManifest,
			want:     Tags{Scripts: []string{mainJS}, Styles: []string{mainCSS}},
		},
		{
			name:     "one island: its chunk, static imports and all their CSS",
			manifest: realManifest,
			islands:  []string{"survey-box"},
			want: Tags{
				Scripts:  []string{mainJS},
				Preloads: []string{surveyBox, react, ui},
				Styles:   []string{mainCSS, surveyCSS, uiCSS},
			},
		},
		{
			name:     "two islands share chunks once",
			manifest: realManifest,
			islands:  []string{"reward-meter", "survey-box"},
			want: Tags{
				Scripts:  []string{mainJS},
				Preloads: []string{rewardMtr, react, ui, surveyBox},
				Styles:   []string{mainCSS, uiCSS, surveyCSS},
			},
		},
		{
			name:     "repeated and unknown islands are ignored",
			manifest: realManifest,
			islands:  []string{"nope", "reward-meter", "reward-meter", "", "../main"},
			want: Tags{
				Scripts:  []string{mainJS},
				Preloads: []string{rewardMtr, react, ui},
				Styles:   []string{mainCSS, uiCSS},
			},
		},
		{
			name:     "no islands built yet",
			manifest: emptyManifest,
			islands:  []string{"survey-box"},
			want:     Tags{Scripts: []string{"/static/dist/assets/main-BZiwyjFv.js"}, Styles: []string{mainCSS}},
		},
		{
			name: "manifest keys relative to the repository root",
			manifest: `{
  "islands/main.ts": {"file": "assets/main-1.js", "src": "islands/main.ts", "isEntry": true, "imports": ["_shared-2.js"], "dynamicImports": ["islands/poll/index.ts"]},
  "_shared-2.js": {"file": "assets/shared-2.js", "css": ["assets/shared-3.css"]},
  "islands/poll/index.ts": {"file": "assets/island-poll-4.js", "src": "islands/poll/index.ts", "isDynamicEntry": true, "imports": ["_shared-2.js"]}
}`,
			islands: []string{"poll"},
			want: Tags{
				Scripts:  []string{"/static/dist/assets/main-1.js"},
				Preloads: []string{"/static/dist/assets/shared-2.js", "/static/dist/assets/island-poll-4.js"},
				Styles:   []string{"/static/dist/assets/shared-3.css"},
			},
		},
		{
			name: "another entry (htmx) is its own script after the base bundle, sharing its imports once",
			manifest: `{
  "main.ts": {"file": "assets/main-1.js", "name": "main", "src": "main.ts", "isEntry": true, "imports": ["_toast-2.js"], "dynamicImports": ["poll/index.ts"]},
  "htmx.ts": {"file": "assets/htmx-5.js", "name": "htmx", "src": "htmx.ts", "isEntry": true, "imports": ["_toast-2.js", "_htmx-6.js"]},
  "_toast-2.js": {"file": "assets/toast-2.js", "css": ["assets/toast-3.css"]},
  "_htmx-6.js": {"file": "assets/htmx.esm-6.js"},
  "poll/index.ts": {"file": "assets/island-poll-4.js", "src": "poll/index.ts", "isDynamicEntry": true, "imports": ["_toast-2.js"]}
}`,
			islands: []string{"htmx", "poll"},
			want: Tags{
				Scripts:  []string{"/static/dist/assets/main-1.js", "/static/dist/assets/htmx-5.js"},
				Preloads: []string{"/static/dist/assets/toast-2.js", "/static/dist/assets/htmx.esm-6.js", "/static/dist/assets/island-poll-4.js"},
				Styles:   []string{"/static/dist/assets/toast-3.css"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Load(fsWith(tt.manifest))
			require.NoError(t, err)
			assert.Equal(t, tt.want, a.Head(tt.islands...))
		})
	}
}

func TestHeadWithoutBuild(t *testing.T) {
	t.Parallel()
	a, err := Load(fstest.MapFS{})
	require.NoError(t, err)
	assert.False(t, a.Built())
	assert.Equal(t, Tags{}, a.Head("survey-box"))

	var none *Assets
	assert.False(t, none.Built())
	assert.Equal(t, Tags{}, none.Head())
}

func TestHeadReturnsFreshSlices(t *testing.T) {
	t.Parallel()
	a, err := Load(fsWith(realManifest))
	require.NoError(t, err)
	first := a.Head("survey-box")
	first.Styles[0] = "changed"
	_ = append(first.Preloads, "extra")
	assert.Equal(t, "/static/dist/assets/main-C92gYl3D.css", a.Head("survey-box").Styles[0])
}

// TestEmbeddedBuild checks the real build when there is one (after `npm run build`).
func TestEmbeddedBuild(t *testing.T) {
	t.Parallel()
	if _, err := fs.Stat(FS, ManifestPath); err != nil {
		t.Skip("no Vite build embedded (run `npm run build`)")
	}
	a, err := Load(FS)
	require.NoError(t, err)
	require.True(t, a.Built())

	tags := a.Head()
	require.Len(t, tags.Scripts, 1)
	require.NotEmpty(t, tags.Styles, "main.ts imports the toast CSS")
	for _, u := range append(append(tags.Scripts, tags.Preloads...), tags.Styles...) {
		require.True(t, strings.HasPrefix(u, URLPrefix), u)
		_, err := fs.Stat(FS, strings.TrimPrefix(u, URLPrefix))
		assert.NoError(t, err, "embedded file for %s", u)
	}
}

func TestEmbeddedHandWrittenFiles(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"dist/.gitignore", "img/sad-face.svg", "img/favicon.svg"} {
		_, err := fs.Stat(FS, p)
		assert.NoError(t, err, p)
	}
	svg, err := fs.ReadFile(FS, "img/sad-face.svg")
	require.NoError(t, err)
	assert.Contains(t, string(svg), `stroke="currentColor"`)
	assert.Contains(t, string(svg), `viewBox=`)
	assert.NotRegexp(t, `\s(width|height)=`, string(svg), "no fixed size")
}
