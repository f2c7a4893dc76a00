// Package docs holds no code: its tests keep the README and the Markdown files beside this one
// honest, so a moved section or a renamed file breaks `go test ./docs/` rather than a reader's
// click.
package docs

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines is the README's budget: it says what Canvass is and how to start, and sends
// every audience on to docs/.
const readmeMaxLines = 200

// The tests run in docs/, so the repository root is one up.
const root = ".."

// link is one Markdown link as written, with where it was written.
type link struct {
	line   int
	text   string
	target string
}

// markdownFiles lists the README and every docs/*.md, relative to this directory.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md found: is the test running in docs/?")
	}
	return append([]string{filepath.Join(root, "README.md")}, docs...)
}

// shown names a file, given relative to docs/, as a reader of the repository would:
// README.md, docs/running.md.
func shown(file string) string {
	file = filepath.ToSlash(file)
	if rest, ok := strings.CutPrefix(file, "../"); ok {
		return rest
	}
	return "docs/" + file
}

// isFence reports whether a line opens or closes a fenced code block (``` or ~~~, indented
// or not: fences inside list items are indented).
func isFence(line string) bool {
	trimmed := strings.TrimSpace(line)
	return strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")
}

// codeSpan matches an inline code span: a run of backticks, anything, the same run again.
var codeSpan = regexp.MustCompile("(`+)[^`]*?(`+)")

// blankCodeSpans replaces inline code with spaces of the same length, so a path written in
// backticks is never read as a link while the link text around it ([`x`](y)) still is.
func blankCodeSpans(line string) string {
	return codeSpan.ReplaceAllStringFunc(line, func(span string) string {
		return strings.Repeat(" ", len(span))
	})
}

// markdownLink matches [text](target) and ![alt](target), with an optional "title".
var markdownLink = regexp.MustCompile(`\[([^\]]*)\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)`)

// linksIn returns the links of a Markdown text, outside fenced code blocks and code spans.
func linksIn(text string) []link {
	var links []link
	inFence := false
	scanner := bufio.NewScanner(strings.NewReader(text))
	scanner.Buffer(make([]byte, 0, 64*1024), 1024*1024) // the README's tables have long lines
	for n := 1; scanner.Scan(); n++ {
		line := scanner.Text()
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range markdownLink.FindAllStringSubmatch(blankCodeSpans(line), -1) {
			links = append(links, link{line: n, text: m[1], target: m[2]})
		}
	}
	return links
}

// atxHeading matches "## Title", with optional closing hashes.
var atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)

// anchorsIn returns the anchors GitHub gives the headings of a Markdown text.
func anchorsIn(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		base := slug(m[1])
		anchor := base
		if n := seen[base]; n > 0 {
			anchor = fmt.Sprintf("%s-%d", base, n)
		}
		seen[base]++
		anchors[anchor] = true
	}
	return anchors
}

// slug is GitHub's anchor for a heading: lower case, every character but letters, digits,
// spaces, hyphens and underscores dropped, spaces turned into hyphens. Repeats are numbered
// by anchorsIn.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// external reports whether a link leaves the repository, which this test does not follow.
func external(target string) bool {
	lower := strings.ToLower(target)
	for _, scheme := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(lower, scheme) {
			return true
		}
	}
	return false
}

// read returns a file's text, failing the test when it cannot.
func read(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// problem returns what is wrong with one link of file, or "" when it leads somewhere.
func problem(file string, l link) string {
	path, anchor, _ := strings.Cut(l.target, "#")
	path, err := url.PathUnescape(path)
	if err != nil {
		return fmt.Sprintf("the path is not valid URL encoding: %v", err)
	}
	dest := file
	if path != "" {
		dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
		if _, err := os.Stat(dest); err != nil {
			return fmt.Sprintf("%s does not exist", filepath.ToSlash(path))
		}
	}
	if anchor == "" {
		return ""
	}
	if !strings.HasSuffix(strings.ToLower(dest), ".md") {
		return fmt.Sprintf("#%s points into %s, which is not Markdown", anchor, filepath.ToSlash(path))
	}
	data, err := os.ReadFile(dest)
	if err != nil {
		return fmt.Sprintf("cannot read %s: %v", filepath.ToSlash(path), err)
	}
	if !anchorsIn(string(data))[anchor] {
		return fmt.Sprintf("no heading of %s has the anchor #%s", shown(dest), anchor)
	}
	return ""
}

func TestEveryLinkInTheReadmeAndDocsLeadsSomewhere(t *testing.T) {
	t.Parallel()
	for _, file := range markdownFiles(t) {
		t.Run(shown(file), func(t *testing.T) {
			t.Parallel()
			for _, l := range linksIn(read(t, file)) {
				if external(l.target) {
					continue
				}
				if p := problem(file, l); p != "" {
					t.Errorf("%s:%d: [%s](%s): %s", shown(file), l.line, l.text, l.target, p)
				}
			}
		})
	}
}

func TestTheReadmeStaysShort(t *testing.T) {
	t.Parallel()
	text := read(t, filepath.Join(root, "README.md"))
	lines := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines++
	}
	if lines > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a file in docs/", lines, readmeMaxLines)
	}
}

func TestTheReadmeLinksToEveryDocsFile(t *testing.T) {
	t.Parallel()
	linked := map[string]bool{}
	for _, l := range linksIn(read(t, filepath.Join(root, "README.md"))) {
		path, _, _ := strings.Cut(l.target, "#")
		linked[filepath.Clean(filepath.FromSlash(path))] = true
	}
	for _, file := range markdownFiles(t)[1:] {
		if !linked[filepath.Join("docs", file)] {
			t.Errorf("README.md links nowhere to docs/%s: add it to the table of docs", file)
		}
	}
}

func TestSlugsFollowGitHubsRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		heading, want string
	}{
		{"Configuration", "configuration"},
		{"Running on PostgreSQL", "running-on-postgresql"},
		{"Offers: credits, reversals and debt", "offers-credits-reversals-and-debt"},
		{"The member's settings", "the-members-settings"},
		{"Routing, conditions, quotas and targeting", "routing-conditions-quotas-and-targeting"},
		{"What to open after `make run`", "what-to-open-after-make-run"},
		{"Panels (console part 2)", "panels-console-part-2"},
		{"snake_case and kebab-case stay", "snake_case-and-kebab-case-stay"},
		{"Two  spaces", "two--spaces"},
		{"Café → Ünïcode", "café--ünïcode"},
		{"  Trimmed  ", "trimmed"},
	}
	for _, tt := range tests {
		if got := slug(tt.heading); got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

func TestRepeatedHeadingsGetNumberedAnchors(t *testing.T) {
	t.Parallel()
	anchors := anchorsIn("# Calls\n\n## Calls\n\n### Calls\n\n```sh\n# Calls\n```\n")
	for _, want := range []string{"calls", "calls-1", "calls-2"} {
		if !anchors[want] {
			t.Errorf("no anchor #%s among %v", want, anchors)
		}
	}
	if anchors["calls-3"] {
		t.Errorf("a comment in a code block became a heading: %v", anchors)
	}
}

func TestLinksInCodeAreNotLinks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       []string
	}{
		{"a plain link", "See [Jobs](running.md#background-jobs).", []string{"running.md#background-jobs"}},
		{"an image", "![The feed](images/feed.png)", []string{"images/feed.png"}},
		{"code in the link text", "[`deploy/canvass.service`](../deploy/canvass.service)", []string{"../deploy/canvass.service"}},
		{"a link in a code span", "Write `[x](nowhere.md)` for a link.", nil},
		{"a link in a fenced block", "```md\n[x](nowhere.md)\n```\n[y](here.md)", []string{"here.md"}},
		{"a link in an indented fence", "- item\n  ```\n  [x](nowhere.md)\n  ```\n", nil},
		{"a path in backticks", "`modules/accounts/signin.go`", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, l := range linksIn(tt.text) {
			got = append(got, l.target)
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: links %q, want %q", tt.name, got, tt.want)
		}
	}
}
