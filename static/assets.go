package static

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
)

const (
	// URLPrefix is where FS is served.
	URLPrefix = "/static/"
	// ManifestPath is Vite's manifest inside FS (build.manifest in vite.config.ts).
	ManifestPath = "dist/.vite/manifest.json"
	// ConsoleManifestPath is the console's own build's manifest (vite.console.config.ts: the
	// campaign editor), merged into ManifestPath's when present.
	ConsoleManifestPath = "dist/.vite/console-manifest.json"
	// distURL is Vite's `base`: built file "assets/x.js" is served at distURL + "assets/x.js".
	distURL = URLPrefix + "dist/"
)

// Source keys of the base bundle, relative to the Vite root (islands/); the islands/-prefixed
// form is accepted too in case the root moves to the repository.
var mainKeys = []string{"main.ts", "islands/main.ts"}

// entryKey matches another entry's source: islands/<name>.ts (htmx.ts), named <name>.
var entryKey = regexp.MustCompile(`^(?:islands/)?([A-Za-z0-9][A-Za-z0-9_-]*)\.[jt]sx?$`)

// islandKey matches an island's source in the manifest: islands/<name>/index.ts(x).
var islandKey = regexp.MustCompile(`^(?:islands/)?([A-Za-z0-9][A-Za-z0-9_-]*)/index\.[jt]sx?$`)

// Tags are the URL paths a page's <head> needs: <script type="module" src> for Scripts,
// <link rel="modulepreload" href> for Preloads and <link rel="stylesheet" href> for Styles.
type Tags struct {
	Scripts  []string
	Preloads []string
	Styles   []string
}

// chunk is one entry of Vite's manifest (https://vite.dev/guide/backend-integration).
type chunk struct {
	File           string   `json:"file"`
	Name           string   `json:"name"`
	Src            string   `json:"src"`
	IsEntry        bool     `json:"isEntry"`
	IsDynamicEntry bool     `json:"isDynamicEntry"`
	Imports        []string `json:"imports"`
	DynamicImports []string `json:"dynamicImports"`
	CSS            []string `json:"css"`
}

// Assets resolves the built bundles of the island front end to URLs.
type Assets struct {
	manifest map[string]chunk
	main     string            // manifest key of islands/main.ts; "" when not built
	islands  map[string]string // island name -> manifest key of its dynamic chunk
	entries  map[string]string // other entry name (htmx) -> manifest key
}

// Load reads Vite's manifest (ManifestPath) from fsys, normally FS. A missing manifest is not
// an error: the result reports Built() == false and Head returns no tags, so pages render
// without JavaScript (callers should log a warning). A manifest that cannot be parsed or has no
// islands/main.ts entry is an error.
func Load(fsys fs.FS) (*Assets, error) {
	b, err := fs.ReadFile(fsys, ManifestPath)
	if errors.Is(err, fs.ErrNotExist) {
		return &Assets{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("static: read %s: %w", ManifestPath, err)
	}
	var m map[string]chunk
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("static: parse %s: %w", ManifestPath, err)
	}
	// The console's build is apart so member pages never change for it; its entries join here.
	if cb, err := fs.ReadFile(fsys, ConsoleManifestPath); err == nil {
		var cm map[string]chunk
		if err := json.Unmarshal(cb, &cm); err != nil {
			return nil, fmt.Errorf("static: parse %s: %w", ConsoleManifestPath, err)
		}
		for k, c := range cm {
			if _, ok := m[k]; !ok {
				m[k] = c
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("static: read %s: %w", ConsoleManifestPath, err)
	}
	a := &Assets{manifest: m, islands: map[string]string{}, entries: map[string]string{}}
	for _, k := range mainKeys {
		if c, ok := m[k]; ok && c.IsEntry && c.File != "" {
			a.main = k
			break
		}
	}
	if a.main == "" {
		return nil, fmt.Errorf("static: %s has no islands/main.ts entry", ManifestPath)
	}
	for key, c := range m {
		if c.File == "" || key == a.main {
			continue
		}
		if sm := islandKey.FindStringSubmatch(key); sm != nil && c.IsDynamicEntry {
			a.islands[sm[1]] = key
		} else if sm := entryKey.FindStringSubmatch(key); sm != nil && c.IsEntry {
			a.entries[sm[1]] = key
		}
	}
	return a, nil
}

// Built reports whether the island bundles were built (the manifest was found).
func (a *Assets) Built() bool { return a != nil && a.main != "" }

// Head returns the tags for a page: the base bundle (islands/main.ts) with its CSS and static
// imports; for each name that is another entry (islands/<name>.ts, e.g. htmx) its script after
// the base bundle, with its imports; for each named island (islands/<name>/index.ts(x)) its chunk
// and static imports as modulepreloads plus their CSS. URLs are de-duplicated in order; unknown
// names are ignored. Without a build it returns empty Tags.
func (a *Assets) Head(islands ...string) Tags {
	var t Tags
	if !a.Built() {
		return t
	}
	seen := map[string]bool{}
	add := func(list *[]string, file string) {
		u := distURL + file
		if !seen[u] {
			seen[u] = true
			*list = append(*list, u)
		}
	}
	main := a.manifest[a.main]
	add(&t.Scripts, main.File)
	a.walk(a.main, true, &t, add, map[string]bool{})
	for _, name := range islands {
		if key, ok := a.entries[name]; ok {
			add(&t.Scripts, a.manifest[key].File)
			a.walk(key, true, &t, add, map[string]bool{})
		} else if key, ok := a.islands[name]; ok {
			a.walk(key, false, &t, add, map[string]bool{})
		}
	}
	return t
}

// walk adds a chunk's CSS and, depth first, its static imports (and the chunk itself unless it
// is the entry script) to t.
func (a *Assets) walk(key string, isEntry bool, t *Tags, add func(*[]string, string), visited map[string]bool) {
	if visited[key] {
		return
	}
	visited[key] = true
	c, ok := a.manifest[key]
	if !ok {
		return
	}
	switch {
	case path.Ext(c.File) == ".css":
		add(&t.Styles, c.File)
	case !isEntry:
		add(&t.Preloads, c.File)
	}
	for _, css := range c.CSS {
		add(&t.Styles, css)
	}
	for _, imp := range c.Imports {
		a.walk(imp, false, t, add, visited)
	}
}
