package redemptions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"gopkg.in/yaml.v3"
	"gorm.io/gorm"
)

// DefaultMinimum is the spec's default redemption minimum (section 9), in major units of the
// panel's currency.
const DefaultMinimum = 20

// Text is a text in several languages: language code to text; "" holds a text given without
// a language.
type Text map[string]string

// UnmarshalYAML takes a plain string or a mapping of language code to string.
func (t *Text) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*t = Text{"": n.Value}
		return nil
	case yaml.MappingNode:
		m := map[string]string{}
		if err := n.Decode(&m); err != nil {
			return err
		}
		*t = m
		return nil
	}
	return fmt.Errorf("line %d: a text is a string or a mapping of language code to string", n.Line)
}

// UnmarshalJSON takes a plain string or an object of language code to string.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text{"": s}
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = m
	return nil
}

// In returns the text in lang, else in fallback (the panel's default language), else the
// unlabelled text, else the first in code order.
func (t Text) In(lang, fallback string) string {
	for _, k := range []string{lang, fallback, ""} {
		if s := t[k]; s != "" {
			return s
		}
	}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		if t[k] != "" {
			return t[k]
		}
	}
	return ""
}

// OptionsFile is the YAML an operator applies with `canvass redemptions options apply`.
type OptionsFile struct {
	Options []OptionSpec `yaml:"options"`
}

// OptionSpec is one option as written in the file. Minimum and fee are decimal amounts in
// major units of the panel's currency (quoted or not: the text is read, never a float).
type OptionSpec struct {
	ID          string    `yaml:"id"`
	Kind        Kind      `yaml:"kind"`
	Name        Text      `yaml:"name"`
	Description Text      `yaml:"description"`
	Minimum     moneyText `yaml:"minimum"`
	Fee         moneyText `yaml:"fee"`
	Enabled     *bool     `yaml:"enabled"`
	Position    *int      `yaml:"position"`
	line        int       // where the option starts, for messages
}

// moneyText keeps an amount's literal text: 20.10 must not become the float 20.1.
type moneyText string

func (m *moneyText) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: an amount is a decimal such as \"20.00\"", n.Line)
	}
	*m = moneyText(n.Value)
	return nil
}

// InvalidOptionsError lists every problem of an options file, one per line.
type InvalidOptionsError struct {
	File     string
	Problems []string
}

func (e *InvalidOptionsError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.File + ": " + p)
	}
	return b.String()
}

// ParseOptions reads an options file: unknown fields are errors, so a typo never passes.
func ParseOptions(name string, data []byte) (*OptionsFile, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f OptionsFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &InvalidOptionsError{File: name, Problems: []string{"the file is empty: it needs an options list"}}
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, &InvalidOptionsError{File: name, Problems: te.Errors}
		}
		return nil, &InvalidOptionsError{File: name, Problems: []string{strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	// A second pass over the nodes finds where each option starts, for the messages of Build
	// (a custom unmarshaler would lose the decoder's check of unknown fields).
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err == nil && len(doc.Content) == 1 {
		root := doc.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "options" && root.Content[i+1].Kind == yaml.SequenceNode {
				for j, item := range root.Content[i+1].Content {
					if j < len(f.Options) {
						f.Options[j].line = item.Line
					}
				}
			}
		}
	}
	return &f, nil
}

var optionIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// maxTextLen bounds an option's name and description.
const (
	maxNameLen        = 80
	maxDescriptionLen = 500
)

// Build checks the file for a panel and turns it into options: every problem at once.
func (f *OptionsFile) Build(name string, panel *web.Panel) ([]Option, error) {
	bad := &InvalidOptionsError{File: name}
	problem := func(o OptionSpec, format string, args ...any) {
		where := fmt.Sprintf("line %d: ", o.line)
		if o.ID != "" {
			where += fmt.Sprintf("option %q: ", o.ID)
		}
		bad.Problems = append(bad.Problems, where+fmt.Sprintf(format, args...))
	}
	if len(f.Options) == 0 {
		bad.Problems = append(bad.Problems, "the file has no options")
	}
	seen := map[string]bool{}
	out := make([]Option, 0, len(f.Options))
	for i, s := range f.Options {
		o := Option{PanelID: panel.ID, ID: s.ID, Kind: s.Kind, Names: s.Name, Descriptions: s.Description, Enabled: true, Position: i + 1}
		switch {
		case !optionIDRE.MatchString(s.ID):
			problem(s, "id must be 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit")
		case seen[s.ID]:
			problem(s, "the id is used twice in the file")
		}
		seen[s.ID] = true
		switch s.Kind {
		case KindPayPal, KindVoucher:
		case KindBank:
			if !BankOffered(panel.CurrencyCode) {
				problem(s, "bank transfer is offered for EUR, GBP and USD panels only, not %s", panel.CurrencyCode)
			}
		default:
			problem(s, "kind must be paypal, bank or voucher")
		}
		for _, t := range []struct {
			field string
			text  Text
			max   int
			need  bool
		}{{"name", s.Name, maxNameLen, true}, {"description", s.Description, maxDescriptionLen, false}} {
			if t.need && strings.TrimSpace(t.text.In(panel.DefaultLanguage, panel.DefaultLanguage)) == "" {
				problem(s, "%s is required", t.field)
			}
			for _, lang := range slices.Sorted(maps.Keys(t.text)) {
				if lang != "" && !web.IsSupported(lang) {
					problem(s, "%s: %q is not a supported language", t.field, lang)
				}
				if len([]rune(t.text[lang])) > t.max {
					problem(s, "%s: at most %d characters", t.field, t.max)
				}
			}
		}
		if o.Descriptions == nil {
			o.Descriptions = Text{}
		}
		o.MinimumMinor = DefaultMinimum * pow10(web.CurrencyDecimals(panel.CurrencyCode))
		if s.Minimum != "" {
			n, err := web.ParseMoney(string(s.Minimum), panel.CurrencyCode)
			switch {
			case err != nil:
				problem(s, "minimum %q: %v", s.Minimum, err)
			case n <= 0:
				problem(s, "minimum must be more than zero")
			}
			o.MinimumMinor = n
		}
		if s.Fee != "" {
			n, err := web.ParseMoney(string(s.Fee), panel.CurrencyCode)
			switch {
			case err != nil:
				problem(s, "fee %q: %v", s.Fee, err)
			case n < 0:
				problem(s, "fee can't be negative")
			}
			o.FeeMinor = n
		}
		if o.MinimumMinor > 0 && o.FeeMinor >= o.MinimumMinor {
			problem(s, "the minimum must be more than the fee, or redeeming the minimum would pay out nothing")
		}
		if s.Enabled != nil {
			o.Enabled = *s.Enabled
		}
		if s.Position != nil {
			o.Position = *s.Position
		}
		out = append(out, o)
	}
	if len(bad.Problems) > 0 {
		return nil, bad
	}
	return out, nil
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// Applied is what applying did to one option.
type Applied struct {
	ID     string
	Action string // created, updated, unchanged
}

// ApplyOptions creates or updates a panel's options by id, all or none. Options missing from
// the list are kept as they are (redemptions refer to them); disable one with enabled: false.
func (m *Module) ApplyOptions(ctx context.Context, panel *web.Panel, opts []Option) ([]Applied, error) {
	var out []Applied
	err := m.store.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		out = out[:0]
		now := m.now().UTC().Truncate(timeUnit)
		for _, o := range opts {
			o.PanelID = panel.ID
			if o.Names == nil {
				o.Names = Text{}
			}
			if o.Descriptions == nil {
				o.Descriptions = Text{}
			}
			action, err := m.store.upsertOption(tx, o, now)
			if err != nil {
				return err
			}
			out = append(out, Applied{ID: o.ID, Action: action})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("apply redemption options of %s: %w", panel.Key, err)
	}
	return out, nil
}
