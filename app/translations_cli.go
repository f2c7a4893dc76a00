package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
	"gorm.io/gorm"
)

// translationsCommand is `canvass translations missing|export`, checked before the database
// is opened.
type translationsCommand struct {
	action, panel, lang, out string
}

func (c *cli) translationsCmd() *cobra.Command {
	return group("translations", "The message keys members' languages lacked, and locale files to fill them in",
		c.translationsMissingCmd(), c.translationsExportCmd())
}

// translationsRun runs tc once its --lang is known to be one Canvass ships.
func (c *cli) translationsRun(tc *translationsCommand) func(*cobra.Command, []string) error {
	return c.body(func(cmd *cobra.Command, _ []string) error {
		if tc.lang != "" && !web.IsSupported(tc.lang) {
			return usageErrorf("--lang %s: not a language Canvass ships (%s)", tc.lang, strings.Join(supportedLanguages(), ", "))
		}
		return c.withApp(cmd, tc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
			return tc.run(ctx, app, cmd.OutOrStdout())
		})
	})
}

func supportedLanguages() []string {
	codes := make([]string, 0, len(web.Supported))
	for _, l := range web.Supported {
		codes = append(codes, l.Code)
	}
	return codes
}

func (c *cli) translationsMissingCmd() *cobra.Command {
	tc := &translationsCommand{action: "missing"}
	cmd := &cobra.Command{
		Use:               "missing [--panel KEY] [--lang CODE]",
		Short:             "The message keys members' languages lacked, most seen first",
		Example:           "  canvass translations missing --lang es",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.translationsRun(tc),
	}
	cmd.Flags().StringVar(&tc.panel, "panel", "", "only this panel's reports")
	cmd.Flags().StringVar(&tc.lang, "lang", "", "only this language: "+strings.Join(supportedLanguages(), ", "))
	completeWith(cmd, "lang", supportedLanguages()...)
	return cmd
}

func (c *cli) translationsExportCmd() *cobra.Command {
	tc := &translationsCommand{action: "export"}
	cmd := &cobra.Command{
		Use:   "export --lang CODE [--panel KEY] [--out FILE]",
		Short: "A language's missing keys as a locale file to fill in (locales/CODE.yaml)",
		Long: `Writes a language's missing keys in the locales/*.yaml format, each with the English message to
translate in place, and a comment saying how often and where it was missed.`,
		Example:           "  canvass translations export --lang ru --out missing-ru.yaml",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.translationsRun(tc),
	}
	cmd.Flags().StringVar(&tc.lang, "lang", "", "the language: "+strings.Join(supportedLanguages(), ", ")+" (required)")
	cmd.Flags().StringVar(&tc.panel, "panel", "", "only this panel's reports")
	cmd.Flags().StringVar(&tc.out, "out", "", "write to this file instead of standard output")
	required(cmd, "lang")
	completeWith(cmd, "lang", supportedLanguages()...)
	return cmd
}

func (tc *translationsCommand) run(ctx context.Context, app *App, out io.Writer) error {
	if tc.panel != "" {
		if _, err := app.Tenancy.PanelByKey(ctx, tc.panel); err != nil {
			return fmt.Errorf("panel %s: %w", tc.panel, err)
		}
	}
	rows, err := app.Tenancy.MissingTranslations(ctx, tenancy.MissingFilter{PanelKey: tc.panel, Lang: tc.lang})
	if err != nil {
		return err
	}
	if tc.action == "missing" {
		return writeMissingTranslations(out, rows)
	}
	data, err := exportMissingTranslations(locales.FS, tc.lang, rows)
	if err != nil {
		return err
	}
	if tc.out == "" {
		_, err = out.Write(data)
		return err
	}
	if err := os.WriteFile(tc.out, data, 0o644); err != nil {
		return fmt.Errorf("translations export: %w", err)
	}
	fmt.Fprintf(out, "wrote %s\n", tc.out)
	return nil
}

// writeMissingTranslations is the operators' table: language, key, panel, count, seen.
func writeMissingTranslations(out io.Writer, rows []tenancy.MissingRow) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(out, "no missing translations reported")
		return err
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "LANG\tKEY\tPANEL\tSEEN\tSOURCE\tFIRST SEEN\tLAST SEEN\tFALLBACK")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", r.LanguageCode, r.MessageKey, r.PanelKey, r.SeenCount, r.Source,
			r.FirstSeenAt.UTC().Format(time.RFC3339), r.LastSeenAt.UTC().Format(time.RFC3339), clipLine(r.Fallback, 60))
	}
	return w.Flush()
}

func clipLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// exportMissingTranslations writes a language's missing keys in the locales/*.yaml format,
// each with the English message (its plural forms too) to translate in place, or the client's
// fallback text for a key English lacks as well. Keys are sorted; a comment says how often and
// where each was missed.
func exportMissingTranslations(fsys fs.FS, lang string, rows []tenancy.MissingRow) ([]byte, error) {
	english := map[string]any{}
	if data, err := fs.ReadFile(fsys, "en.yaml"); err != nil {
		return nil, fmt.Errorf("read English messages: %w", err)
	} else if err := yaml.Unmarshal(data, &english); err != nil {
		return nil, fmt.Errorf("parse English messages: %w", err)
	}
	type entry struct {
		seen     int64
		panels   []string
		fallback string
	}
	byKey := map[string]*entry{}
	for _, r := range rows {
		if r.LanguageCode != lang {
			continue
		}
		e := byKey[r.MessageKey]
		if e == nil {
			e = &entry{}
			byKey[r.MessageKey] = e
		}
		e.seen += r.SeenCount
		e.panels = append(e.panels, r.PanelKey)
		if e.fallback == "" {
			e.fallback = r.Fallback
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	doc := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range keys {
		e := byKey[k]
		sort.Strings(e.panels)
		keyNode := &yaml.Node{Kind: yaml.ScalarNode, Value: k,
			HeadComment: fmt.Sprintf("missed %d times (%s)", e.seen, strings.Join(e.panels, ", "))}
		var value yaml.Node
		source, ok := english[k]
		if !ok {
			source = e.fallback
			if source == "" {
				source = k
			}
			keyNode.HeadComment += "; English lacks it too"
		}
		if err := value.Encode(source); err != nil {
			return nil, fmt.Errorf("export %s: %w", k, err)
		}
		doc.Content = append(doc.Content, keyNode, &value)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# %s messages reported missing: %d. Translate each English text in place and add\n", lang, len(keys))
	fmt.Fprintf(&buf, "# the lines to locales/%s.yaml (plural forms follow %s's CLDR rules: one, few, many, other).\n", lang, lang)
	if len(keys) == 0 {
		return buf.Bytes(), nil
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{doc}}); err != nil {
		return nil, fmt.Errorf("export %s: %w", lang, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("export %s: %w", lang, err)
	}
	return buf.Bytes(), nil
}
