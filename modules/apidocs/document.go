// Package apidocs owns the API contract: the OpenAPI 3.1 document of every API family
// (embedded YAML, one file per family plus components.yaml, merged into one document at
// start), served as JSON at GET /api/openapi.json and as a light page at GET /api/docs.
// The app's tests validate every API request and response against the same document.
package apidocs

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

//go:embed openapi/*.yaml
var files embed.FS

// baseFile holds the document's header (openapi, info) and the shared components; every other
// file brings one family's tags, paths and the components only it uses.
const baseFile = "components.yaml"

// Document is the merged contract: the parsed document, its JSON as served and its ETag.
type Document struct {
	T    *openapi3.T
	JSON []byte
	ETag string
}

// Load merges the embedded files, loads the result with kin-openapi and validates it (the
// lint `make test` runs). The files are embedded, so the work is done once per process and
// every caller shares the one document: read it, never change it. (It took a second of every
// test app's start under the race detector.)
func Load() (*Document, error) { return loadEmbedded() }

var loadEmbedded = sync.OnceValues(func() (*Document, error) { return load(files) })

func load(fsys fs.FS) (*Document, error) {
	merged, err := merge(fsys)
	if err != nil {
		return nil, err
	}
	raw, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("apidocs: encode merged document: %w", err)
	}
	loader := openapi3.NewLoader()
	t, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("apidocs: load merged document: %w", err)
	}
	if err := t.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("apidocs: the document is not valid OpenAPI: %w", err)
	}
	sum := sha256.Sum256(raw)
	return &Document{T: t, JSON: raw, ETag: `"` + hex.EncodeToString(sum[:12]) + `"`}, nil
}

// merge reads components.yaml, then every family file in name order, and joins their paths,
// tags and components. A path, tag or component named twice is an error: families never
// override each other silently.
func merge(fsys fs.FS) (map[string]any, error) {
	base, err := readYAML(fsys, path.Join("openapi", baseFile))
	if err != nil {
		return nil, err
	}
	if _, ok := base["paths"]; !ok {
		base["paths"] = map[string]any{}
	}
	entries, err := fs.ReadDir(fsys, "openapi")
	if err != nil {
		return nil, fmt.Errorf("apidocs: list files: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Name() != baseFile && path.Ext(e.Name()) == ".yaml" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	tagNames := map[string]string{}
	for _, t := range asList(base["tags"]) {
		if m, ok := t.(map[string]any); ok {
			tagNames[fmt.Sprint(m["name"])] = baseFile
		}
	}
	for _, name := range names {
		fam, err := readYAML(fsys, path.Join("openapi", name))
		if err != nil {
			return nil, err
		}
		for key := range fam {
			if strings.HasPrefix(key, "x-") {
				continue // a family's own YAML anchors (shared response sets), not part of the document
			}
			if !slices.Contains([]string{"tags", "paths", "components"}, key) {
				return nil, fmt.Errorf("apidocs: %s: a family file holds only tags, paths and components, not %q", name, key)
			}
		}
		for _, t := range asList(fam["tags"]) {
			m, _ := t.(map[string]any)
			tn := fmt.Sprint(m["name"])
			if prev, dup := tagNames[tn]; dup {
				return nil, fmt.Errorf("apidocs: %s: tag %q is already declared in %s", name, tn, prev)
			}
			tagNames[tn] = name
			base["tags"] = append(asList(base["tags"]), t)
		}
		if err := mergeInto(base["paths"].(map[string]any), asMap(fam["paths"]), name, "path"); err != nil {
			return nil, err
		}
		if comps := asMap(fam["components"]); len(comps) > 0 {
			if _, ok := base["components"]; !ok {
				base["components"] = map[string]any{}
			}
			all := base["components"].(map[string]any)
			for section, v := range comps {
				if _, ok := all[section]; !ok {
					all[section] = map[string]any{}
				}
				if err := mergeInto(all[section].(map[string]any), asMap(v), name, "component "+section); err != nil {
					return nil, err
				}
			}
		}
	}
	return base, nil
}

func mergeInto(dst, src map[string]any, file, what string) error {
	for k, v := range src {
		if _, dup := dst[k]; dup {
			return fmt.Errorf("apidocs: %s: %s %q is declared twice", file, what, k)
		}
		dst[k] = v
	}
	return nil
}

func readYAML(fsys fs.FS, name string) (map[string]any, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("apidocs: read %s: %w", name, err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("apidocs: parse %s: %w", name, err)
	}
	m, ok := normalize(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("apidocs: %s is not a YAML mapping", name)
	}
	return m, nil
}

// normalize turns YAML's maps into JSON's (status codes such as 200 are read as numbers).
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	}
	return v
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
