package campaigns

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzYAMLHeader starts a valid campaign; seeds append a question or change a field.
const fuzzYAMLHeader = "uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11\ntype: survey\nname: Coffee habits\nreward: \"0.50\"\nestimated_minutes: 3\n"

// fuzzYAMLQuestion is a valid first question.
const fuzzYAMLQuestion = "questions:\n  - id: q1\n    control_type: radio\n    text: Do you drink coffee?\n    answers: [{id: \"yes\", text: \"Yes\"}, {id: \"no\", text: \"No\"}]\n"

// yamlCampaignSeeds are campaign files tenants write, and hostile ones; with every demo
// campaign of app/demo/campaigns they seed the YAML fuzzer.
// testdata/fuzz/FuzzParseFileReadsYAMLCampaignsIntoDefinitionsThatRoundTrip holds the same.
var yamlCampaignSeeds = []struct{ name, doc string }{
	{"minimal", fuzzYAMLHeader + fuzzYAMLQuestion},
	{"rich", `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11
type: competition
default_language: en
name: {en: Win a trip, es: Gana un viaje}
reward: "1.25"
estimated_minutes: 10
opens_at: 2025-03-01T09:00:00+02:00
closes_at: 2025-06-01T09:00:00.5Z
competition: {prize: A trip, prize_amount: "500", winners: 2, draw_at: 2025-06-02T09:00:00Z}
footer_links: [{text: Terms, url: "https://example.com/terms"}]
thank_you: {kind: competition_invitation, title: Thanks, redirect_url: /feed}
targeting: {languages: [en, es], profile: [{field: metadata.country, op: in, values: [GB, null, 1e3]}]}
quotas: [{id: all, limit: 100}, {id: young, limit: 20, when: [{field: metadata.age, op: lt, value: 30}]}]
questions:
  - id: drink
    control_type: radio
    text: {en: "What do you drink?", es: "¿Qué bebes?"}
    answers: [{id: coffee, text: Coffee}, {id: tea, text: Tea}, {id: none, text: Neither}]
    routes:
      - {when: [{question: drink, op: eq, value: none}], then: screen_out}
      - {then: skip_to, target: mood}
  - id: mood
    control_type: likert
    text: Mood?
    scale_answers: [{id: s1, value: -0}, {id: s2, value: 2.50}]
    scale_labels: {min: Low, max: {en: High, es: Alto}}
`},
	{"empty", ""},
	{"two-documents", fuzzYAMLHeader + fuzzYAMLQuestion + "---\n" + fuzzYAMLHeader},
	{"recursive-alias", "a: &a [*a]\n"},
	{"wide-recursive-alias", "a: &a {b: *a, c: *a, d: *a, e: *a, f: *a, g: *a, h: *a, i: *a}\n"},
	{"deep-nesting", fuzzYAMLHeader + fuzzYAMLQuestion + "    html: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n"},
	{"alias-expansion", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"},
	{"merge-key", "base: &b {id: q1}\nquestions: [{<<: *b, control_type: text, text: Hi}]\n"},
	{"duplicate-key", fuzzYAMLHeader + "name: Again\n" + fuzzYAMLQuestion},
	{"complex-key", "? [a, b]\n: c\n"},
	{"tab-indent", "questions:\n\t- id: q1\n"},
	{"nul-byte", fuzzYAMLHeader + "description: \"a\\0b\"\n" + fuzzYAMLQuestion + "\x00"},
	{"invalid-utf8", fuzzYAMLHeader + "description: \xff\xfe\n" + fuzzYAMLQuestion},
	{"byte-order-mark", "\xef\xbb\xbf" + fuzzYAMLHeader + fuzzYAMLQuestion},
	{"right-to-left-override", fuzzYAMLHeader + "description: \"\u202eexe.txt\"\n" + fuzzYAMLQuestion},
	{"zero-width-joiner-and-emoji", fuzzYAMLHeader + "description: \"👩\u200d💻 ☕\"\n" + fuzzYAMLQuestion},
	{"script-tag", fuzzYAMLHeader + fuzzYAMLQuestion + "    html: \"<script>alert(1)</script>\"\n"},
	{"sql-and-like", fuzzYAMLHeader + "description: \"'; DROP TABLE campaigns; -- %_\\\\\"\n" + fuzzYAMLQuestion},
	{"number-out-of-range", fuzzYAMLHeader + "priority: 1e400\n" + fuzzYAMLQuestion},
	{"not-a-number", fuzzYAMLHeader + "priority: .nan\n" + fuzzYAMLQuestion},
	{"minus-zero", fuzzYAMLHeader + "priority: -0\n" + fuzzYAMLQuestion},
	{"huge-integer", fuzzYAMLHeader + "priority: 99999999999999999999\n" + fuzzYAMLQuestion},
	{"number-as-string", "uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11\ntype: survey\nname: x\nreward: 0.50\nestimated_minutes: \"3\"\n" + fuzzYAMLQuestion},
	{"object-where-array-expected", fuzzYAMLHeader + "questions: {id: q1}\n"},
	{"array-where-object-expected", "uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11\ntype: survey\nname: [a, b]\nreward: \"0\"\nestimated_minutes: 3\ntargeting: []\n" + fuzzYAMLQuestion},
	{"date-without-time", fuzzYAMLHeader + "opens_at: 2025-03-01\n" + fuzzYAMLQuestion},
	{"leap-second", fuzzYAMLHeader + "opens_at: 2016-12-31T23:59:60Z\n" + fuzzYAMLQuestion},
}

// jsonCampaignSeeds are the JSON counterparts, with JSON's own hostile inputs;
// testdata/fuzz/FuzzParseFileReadsJSONCampaignsIntoDefinitionsThatRoundTrip holds the same.
var jsonCampaignSeeds = []struct{ name, doc string }{
	{"minimal", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"Coffee","reward":"0","estimated_minutes":1.0,
"questions":[{"id":"q1","control_type":"nps","text":"Would you recommend us?"}]}`},
	{"every-control", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"survey","default_language":"en","name":{"en":"All","es":"Todo"},
"reward":"0.125","estimated_minutes":5,"opens_at":"2025-03-01T09:00:00-05:30","thank_you":{"completion_url":"https://example.com/done?x=1"},
"questions":[
{"id":"t","control_type":"text","text":"T","min_chars":0,"max_chars":5},
{"id":"n","control_type":"number","text":"N","min_num":-1.5,"max_num":1e3,"step":0.5},
{"id":"s","control_type":"spend","text":"S","spend_period":["week"],"spend_min":0},
{"id":"c","control_type":"checkbox","text":"C","answers":[{"id":"a"},{"id":"b"},{"id":"x","exclusive":true}],"min_answers":1,"max_answers":2},
{"id":"r","control_type":"ranking","text":"R","answers":[{"id":"a"},{"id":"b"}]},
{"id":"m","control_type":"most_least","text":"M","answers":[{"id":"a"},{"id":"b"}]},
{"id":"g","control_type":"grid","text":"G","rows":[{"id":"r1"}],"columns":[{"id":"c1"},{"id":"c2"}],"multiple":true},
{"id":"f","control_type":"frequency","text":"F","freq_period":["day","week"],"freq_min":0,"freq_max":7},
{"id":"d","control_type":"date","text":"D","routes":[{"when":[],"then":"complete"}]},
{"id":"l","control_type":"location","text":"L"},
{"id":"v","control_type":"video","text":"V","videoid":"x"}]}`},
	{"empty", ``},
	{"null", `null`},
	{"top-level-array", `[{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11"}]`},
	{"duplicate-keys", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","uuid":"x","type":"poll","name":"x","reward":"0","estimated_minutes":1,"questions":[{"id":"q","control_type":"nps","text":"x"}]}`},
	{"number-out-of-range", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"x","reward":"0","estimated_minutes":1e400,"questions":[{"id":"q","control_type":"nps","text":"x","min_num":1e400}]}`},
	{"not-a-number", `{"estimated_minutes":NaN}`},
	{"minus-zero", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"x","reward":"0","estimated_minutes":1,"priority":-0,"questions":[{"id":"q","control_type":"number","text":"x","min_num":-0}]}`},
	{"numbers-as-strings", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"x","reward":0.5,"estimated_minutes":"1","questions":[{"id":"q","control_type":"nps","text":"x"}]}`},
	{"object-where-array-expected", `{"questions":{"0":{"id":"q"}}}`},
	{"array-where-object-expected", `{"name":["x"],"thank_you":[],"questions":[[]]}`},
	{"condition-values-of-every-kind", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"x","reward":"0","estimated_minutes":1,
"targeting":{"profile":[{"field":"metadata.k","op":"eq","value":{"":"x","a":[null,true,1.5]}},{"field":"languageCode","op":"in","values":[{},[],"es"]}]},
"questions":[{"id":"q","control_type":"nps","text":"x"}]}`},
	{"byte-order-mark", "\xef\xbb\xbf{}"},
	{"trailing-garbage", `{} {}`},
	{"deep-nesting", `{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`},
	{"condition-value-nested-60-levels", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"x","reward":"0","estimated_minutes":1,
"targeting":{"profile":[{"field":"metadata.k","op":"eq","value":` + strings.Repeat("[", 55) + strings.Repeat("]", 55) + `}]},
"questions":[{"id":"q","control_type":"nps","text":"x"}]}`},
	{"nul-byte", "{\"name\":\"a\x00b\"}\x00"},
	{"invalid-utf8", "{\"uuid\":\"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11\",\"type\":\"poll\",\"name\":\"\xff\xfe\",\"reward\":\"0\",\"estimated_minutes\":1,\"questions\":[{\"id\":\"q\",\"control_type\":\"nps\",\"text\":\"x\"}]}"},
	{"invalid-utf8-key", "{\"\xff\":1}"},
	{"right-to-left-override-and-emoji", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"‮👩‍💻","reward":"0","estimated_minutes":1,"questions":[{"id":"q","control_type":"nps","text":"\u202e"}]}`},
	{"script-and-sql", `{"uuid":"3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","type":"poll","name":"<script>alert(1)</script>","description":"' OR 1=1; -- %_\\","reward":"0","estimated_minutes":1,"questions":[{"id":"q","control_type":"nps","text":"x","html":"<img src=x onerror=alert(1)>"}]}`},
	{"lone-surrogate", `{"name":"\ud800"}`},
}

// demoCampaign is one of the demo tenants' campaign files.
type demoCampaign struct {
	name string
	data []byte
}

// demoCampaigns are the demo tenants' campaign files, by name: real campaigns using every
// control.
func demoCampaigns(f *testing.F) []demoCampaign {
	files, err := filepath.Glob("../../app/demo/campaigns/*/*.yaml")
	if err != nil || len(files) == 0 {
		f.Fatalf("no demo campaigns found: %v", err)
	}
	out := make([]demoCampaign, 0, len(files))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, demoCampaign{name, data})
	}
	return out
}

// authoringJSON writes a parsed Definition back in the authoring format. json.Marshal of a
// Definition is not quite that, for two documented reasons: a text written as a plain string
// is kept as {"": text}, which the schema refuses as a language map ("" is no language code),
// and a nil list without omitempty (a route's "when") is written as null, which the schema
// refuses where it wants a list. Both are put back as an author writes them: the string
// alone, and the member left out. Condition values may be any JSON, so they stay as they are.
func authoringJSON(t testing.TB, def *Definition) []byte {
	t.Helper()
	b, err := json.Marshal(def)
	if err != nil {
		t.Fatalf("an accepted definition does not marshal: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var toAuthoring func(v any) any
	toAuthoring = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			if s, ok := v[""].(string); ok && len(v) == 1 {
				return s
			}
			for k, e := range v {
				switch {
				case e == nil:
					delete(v, k)
				case k != "value" && k != "values":
					v[k] = toAuthoring(e)
				}
			}
		case []any:
			for i := range v {
				v[i] = toAuthoring(v[i])
			}
		}
		return v
	}
	out, err := json.Marshal(toAuthoring(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkParsedCampaign: ParseFile never panics; it refuses with *Problems naming at least one,
// or gives a definition that passes the semantic checks again and, written back as JSON,
// parses to the same definition. "The same" is the same JSON encoding: times keep their
// instant and written offset but not their *time.Location pointer, and an empty list under
// omitempty comes back nil; neither changes what the campaign is.
func checkParsedCampaign(t *testing.T, name string, data []byte) {
	def, err := ParseFile(name, data)
	if err != nil {
		var probs *Problems
		if !errors.As(err, &probs) || len(probs.List) == 0 || def != nil {
			t.Fatalf("ParseFile(%s) refused with %T %v and %v, want *Problems", name, err, err, def)
		}
		return
	}
	if def == nil {
		t.Fatalf("ParseFile(%s) accepted nothing", name)
	}
	if issues := checkDefinition(def); len(issues) > 0 {
		t.Fatalf("ParseFile(%s) accepted a definition the semantic checks refuse: %+v", name, issues)
	}
	written := authoringJSON(t, def)
	again, err := ParseFile("roundtrip.json", written)
	if err != nil {
		t.Fatalf("ParseFile(%s) accepted %q\nwritten back as %s it is refused:\n%v", name, data, written, err)
	}
	want, _ := json.Marshal(def)
	got, _ := json.Marshal(again)
	if !bytes.Equal(want, got) {
		t.Fatalf("ParseFile(%s) accepted %q\nas %s\nbut written back it reads as %s", name, data, want, got)
	}
}

func FuzzParseFileReadsYAMLCampaignsIntoDefinitionsThatRoundTrip(f *testing.F) {
	for _, s := range yamlCampaignSeeds {
		f.Add([]byte(s.doc))
	}
	for _, demo := range demoCampaigns(f) {
		f.Add(demo.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParsedCampaign(t, "campaign.yaml", data)
	})
}

func FuzzParseFileReadsJSONCampaignsIntoDefinitionsThatRoundTrip(f *testing.F) {
	for _, s := range jsonCampaignSeeds {
		f.Add([]byte(s.doc))
	}
	// The demo campaigns written as JSON: real campaigns in the other syntax.
	for _, demo := range demoCampaigns(f) {
		def, err := ParseFile(demo.name, demo.data)
		if err != nil {
			f.Fatalf("demo campaign %s: %v", demo.name, err)
		}
		f.Add(authoringJSON(f, def))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParsedCampaign(t, "campaign.json", data)
	})
}
