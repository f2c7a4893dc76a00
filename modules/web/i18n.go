package web

import (
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"gopkg.in/yaml.v3"
)

// SupportedLanguage is the spec's supported language entity.
type SupportedLanguage struct {
	Code         string `json:"code"`
	Name         string `json:"name"`
	FallbackCode string `json:"fallback_code"`
}

// Supported lists the languages Canvass ships translations for, with CLDR plural rules.
var Supported = []SupportedLanguage{
	{Code: "en", Name: "English", FallbackCode: "en"},
	{Code: "es", Name: "Español", FallbackCode: "en"},
	{Code: "ru", Name: "Русский", FallbackCode: "en"},
	{Code: "zh", Name: "中文", FallbackCode: "en"},
}

// LanguageName returns the native name of a supported language code, or the code itself.
func LanguageName(code string) string {
	for _, l := range Supported {
		if l.Code == code {
			return l.Name
		}
	}
	return code
}

// Locales is the go-i18n bundle of every message file under locales/.
type Locales struct {
	bundle     *i18n.Bundle
	log        *slog.Logger
	ids        []string                   // every message id of the English file, sorted
	has        map[string]map[string]bool // lang -> the ids its own file defines
	localizers sync.Map                   // lang -> *i18n.Localizer
	missing    sync.Map                   // lang+id -> struct{}: each missing key is logged once
	// clientData fills every placeholder any message has ({{.Name}}) with {Name}, for scripts.
	clientData map[string]any

	// Messages are immutable once loaded, so a rendered message is cached: a page renders
	// dozens and go-i18n executes a template for each. Bounded: cleared when full.
	cacheMu sync.RWMutex
	cache   map[messageKey]string
}

const translationCacheSize = 20000

// NewLocales loads every *.yaml message file of fsys (one per language, e.g. es.yaml).
func NewLocales(fsys fs.FS, log *slog.Logger) (*Locales, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	has := map[string]map[string]bool{}
	clientData := map[string]any{}
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("list locales: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("load locales: no *.yaml message files")
	}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read locale %s: %w", name, err)
		}
		if _, err := b.ParseMessageFileBytes(data, path.Base(name)); err != nil {
			return nil, fmt.Errorf("parse locale %s: %w", name, err)
		}
		for _, m := range placeholderRE.FindAllSubmatch(data, -1) {
			clientData[string(m[1])] = "{" + string(m[1]) + "}"
		}
		lang := strings.TrimSuffix(path.Base(name), ".yaml")
		ids, err := MessageIDs(fsys, lang)
		if err != nil {
			return nil, fmt.Errorf("list messages of %s: %w", name, err)
		}
		has[lang] = make(map[string]bool, len(ids))
		for _, id := range ids {
			has[lang][id] = true
		}
	}
	if log == nil {
		log = slog.Default()
	}
	ids, err := MessageIDs(fsys, "en")
	if err != nil {
		return nil, fmt.Errorf("list English messages: %w", err)
	}
	sort.Strings(ids)
	return &Locales{bundle: b, log: log, ids: ids, has: has, clientData: clientData}, nil
}

// WithLog is a Locales sharing l's parsed messages that logs its missing keys to log: the
// message files are parsed once per process, each App logs to its own logger.
func (l *Locales) WithLog(log *slog.Logger) *Locales {
	if log == nil {
		log = slog.Default()
	}
	return &Locales{bundle: l.bundle, log: log, ids: l.ids, has: l.has, clientData: l.clientData}
}

func (l *Locales) localizer(lang string) *i18n.Localizer {
	if v, ok := l.localizers.Load(lang); ok {
		return v.(*i18n.Localizer)
	}
	loc := i18n.NewLocalizer(l.bundle, lang, "en")
	l.localizers.Store(lang, loc)
	return loc
}

// messageKey is a rendered message in the cache: its language, id and, when it has any, its
// count and template data as text.
type messageKey struct{ lang, id, args string }

// Translate returns the message in lang, falling back to English and then to the id itself.
// count, when not nil, selects the CLDR plural form.
func (l *Locales) Translate(lang, id string, data map[string]any, count any) string {
	key := messageKey{lang: lang, id: id}
	if n, ok := count.(int); ok && len(data) == 1 && data["Count"] == n {
		key.args = "#" + strconv.Itoa(n) // Tn's usual call: a count and nothing else
	} else if data != nil || count != nil {
		key.args = fmt.Sprint(count, data) // fmt prints maps in key order
	}
	return l.cached(key, func() string { return l.translate(lang, id, data, count) })
}

// cached is the rendered message of key, rendering it once.
func (l *Locales) cached(key messageKey, render func() string) string {
	l.cacheMu.RLock()
	s, ok := l.cache[key]
	l.cacheMu.RUnlock()
	if ok {
		return s
	}
	s = render()
	l.cacheMu.Lock()
	if l.cache == nil || len(l.cache) >= translationCacheSize {
		l.cache = make(map[messageKey]string, 256)
	}
	l.cache[key] = s
	l.cacheMu.Unlock()
	return s
}

func (l *Locales) translate(lang, id string, data map[string]any, count any) string {
	cfg := &i18n.LocalizeConfig{MessageID: id, PluralCount: count}
	if data != nil {
		if count != nil {
			if _, ok := data["PluralCount"]; !ok {
				data["PluralCount"] = count
			}
		}
		cfg.TemplateData = data
	}
	s, tag, err := l.localizer(lang).LocalizeWithTag(cfg)
	if err != nil || (tag.String() != lang && !strings.HasPrefix(tag.String(), lang)) {
		if _, seen := l.missing.LoadOrStore(lang+"\x00"+id, struct{}{}); !seen {
			l.log.Warn("missing translation", "lang", lang, "id", id)
		}
	}
	if s == "" {
		return id
	}
	return s
}

// Has tells whether lang has its own message for id (used by tests of completeness).
func (l *Locales) Has(lang, id string) bool {
	_, tag, err := l.localizer(lang).LocalizeWithTag(&i18n.LocalizeConfig{MessageID: id})
	return err == nil && tag.String() == lang
}

// Lacks tells whether lang's own file has no message for id (it shows in English, or as the
// id itself): a map lookup, cheap enough to ask on every message a page renders.
func (l *Locales) Lacks(lang, id string) bool { return !l.has[lang][id] }

// All returns every message in lang (English where lang lacks one), for the translations API.
// Messages with plural forms are given in their "other" form.
func (l *Locales) All(lang string) map[string]string {
	out := make(map[string]string, len(l.ids))
	// Placeholders stay {Name}, as ClientTemplate leaves them, for scripts' t() to fill.
	for _, id := range l.ids {
		s, _, err := l.localizer(lang).LocalizeWithTag(&i18n.LocalizeConfig{MessageID: id, PluralCount: 2, TemplateData: l.clientData})
		if err != nil || s == "" {
			s, _, _ = l.localizer(lang).LocalizeWithTag(&i18n.LocalizeConfig{MessageID: id, TemplateData: l.clientData})
		}
		out[id] = s
	}
	return out
}

// placeholderRE finds a message's placeholders: locales/ writes them {{.Name}}.
var placeholderRE = regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9_]*)\s*\}\}`)

// ClientTemplate is a message for a script: its placeholders stay as {Name} (islands fill
// them with lib/i18n's t()).
func (l *Locales) ClientTemplate(lang, id string) string {
	return l.cached(messageKey{lang: lang, id: id, args: "\x00client"}, func() string { return l.translate(lang, id, l.clientData, nil) })
}

// Tr is a translator bound to one language.
func (l *Locales) Tr(lang string) func(id string, data map[string]any, count any) string {
	return func(id string, data map[string]any, count any) string { return l.Translate(lang, id, data, count) }
}

// MessageIDs lists every id in a language's message file, for completeness checks.
func MessageIDs(fsys fs.FS, lang string) ([]string, error) {
	data, err := fs.ReadFile(fsys, lang+".yaml")
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(m))
	for k := range m {
		ids = append(ids, k)
	}
	return ids, nil
}

// messageActionRE and messageFieldRE find the {{.Name}} fields of a message template.
var (
	messageActionRE = regexp.MustCompile(`\{\{(.*?)\}\}`)
	messageFieldRE  = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)`)
)

// Placeholders lists the sorted, distinct {{.Name}} fields a message value names (a string,
// or the plural forms of a map together), for the checks that every caller passes them.
func Placeholders(v any) []string {
	set := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for _, action := range messageActionRE.FindAllStringSubmatch(v, -1) {
				for _, f := range messageFieldRE.FindAllStringSubmatch(action[1], -1) {
					set[f[1]] = true
				}
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
