package feed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
)

// skipSeeds are skip-list bodies of POST campaigns/paged, and hostile ones;
// testdata/fuzz/FuzzSkipListHoldsOnlyWhatTheBodySent holds the same.
var skipSeeds = []struct{ name, body string }{
	{"empty", ``},
	{"array", `["3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","1b5e5832-96f3-4e6f-a723-1fb47d13febc"]`},
	{"object", `{"skip":["3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11"]}`},
	{"object-key-in-capitals", `{"SKIP":["a"]}`},
	{"object-duplicate-keys", `{"skip":["a"],"skip":["b"]}`},
	{"object-null-skip", `{"skip":null}`},
	{"empty-array", `[]`},
	{"null-item", `[null,"a"]`},
	{"null-body", `null`},
	{"number-item", `[1]`},
	{"numbers-as-strings", `["1","1e400","-0","NaN"]`},
	{"nested-array", `[["a"]]`},
	{"object-where-array-expected", `{"skip":{"0":"a"}}`},
	{"string-where-array-expected", `{"skip":"a"}`},
	{"array-of-objects", `[{"skip":"a"}]`},
	{"padded", " \n[\"a\"]\t"},
	{"trailing-garbage", `["a"]]`},
	{"byte-order-mark", "\xef\xbb\xbf[\"a\"]"},
	{"nul-byte", "[\"a\x00b\"]"},
	{"invalid-utf8", "[\"\xff\xfe\"]"},
	{"right-to-left-override", `["‮a"]`},
	{"zero-width-joiner", `["a‍b"]`},
	{"emoji", `["🙈"]`},
	{"script-tag", `["<script>alert(1)</script>"]`},
	{"sql-and-like", `["' OR 1=1; --","%","_","\\"]`},
}

// stringsIn are the string values anywhere in a JSON document; ok is false when it is none.
func stringsIn(body []byte) (map[string]bool, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out[v] = true
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out, true
}

func FuzzSkipListHoldsOnlyWhatTheBodySent(f *testing.F) {
	for _, s := range skipSeeds {
		f.Add([]byte(s.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		list, err := skipList(body)
		trimmed := bytes.TrimSpace(body)
		if err != nil {
			we, ok := err.(*web.Error)
			switch {
			case !ok:
				t.Fatalf("skipList(%q) = %T %v, not a *web.Error", body, err, err)
			case len(trimmed) > maxSkipBody:
				if we.Status != 413 {
					t.Fatalf("skipList of %d bytes = %d, want 413", len(trimmed), we.Status)
				}
			case we.Status != 400 || len(we.Details) == 0 || we.Details[0].Field != "skip":
				t.Fatalf("skipList(%q) = status %d details %+v, want a 400 naming skip", body, we.Status, we.Details)
			}
			return
		}
		if len(trimmed) == 0 {
			if list != nil {
				t.Fatalf("skipList of an empty body = %q", list)
			}
			return
		}
		sent, ok := stringsIn(trimmed)
		if !ok {
			t.Fatalf("skipList(%q) = %q from a body that is no JSON", body, list)
		}
		for _, id := range list {
			if id != "" && !sent[id] { // "" is a null item
				t.Fatalf("skipList(%q) = %q holds %q, which the body did not send", body, list, id)
			}
		}
		var items []any
		if trimmed[0] == '[' && json.Unmarshal(trimmed, &items) == nil {
			if len(items) != len(list) {
				t.Fatalf("skipList(%q) = %d ids from %d items", body, len(list), len(items))
			}
			for i, item := range items {
				if s, _ := item.(string); s != list[i] {
					t.Fatalf("skipList(%q)[%d] = %q, the body sent %#v", body, i, list[i], item)
				}
			}
		}
	})
}

// feedQuerySeeds are the query parameters of POST campaigns/paged with a skip-list body
// repeated copies times, and hostile ones; testdata/fuzz holds the same.
var feedQuerySeeds = []struct {
	name, page string
	pageSize   int
	filter     string
	skip       string
	copies     uint16
	skipCount  int
}{
	{"defaults", "", 0, "", "", 1, 0},
	{"first-page-forgets-skip", "first", 10, "all", `["3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11"]`, 1, 5},
	{"next-page", "next", 50, "competitions", `["3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11","1b5e5832-96f3-4e6f-a723-1fb47d13febc"]`, 1, 2},
	{"too-many-guids", "next", 10, "new", `["3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11"]`, 1001, 0},
	{"braced-uuid", "next", 10, "started", `["{3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11}"]`, 1, 0},
	{"urn-uuid", "next", 10, "started", `["URN:uuid:3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11"]`, 1, 0},
	{"braced-length-without-braces", "next", 10, "all", `["000000000-0000-0000-0000-0000000000000"]`, 11, 0},
	{"page-size-over-max", "first", 51, "all", ``, 1, 0},
	{"negative-page-size", "first", -1, "all", ``, 1, 0},
	{"negative-skip-count", "next", 10, "all", ``, 1, -1},
	{"skip-count-over-max", "next", 10, "all", ``, 1, 10001},
	{"everything-wrong", "last", 1 << 62, "ALL", `["x"]`, 1, -1 << 62},
	{"page-in-capitals", "FIRST", 10, "all", ``, 1, 0},
	{"nul-byte", "next\x00", 10, "all\x00", "[\"\x00\"]", 1, 0},
	{"invalid-utf8", "\xff\xfe", 10, "\xff\xfe", "[\"\xff\xfe\"]", 1, 0},
	{"right-to-left-override", "\u202etxen", 10, "\u202ella", `["‮"]`, 1, 0},
	{"sql-and-like", "next' OR '1'='1", 10, "%_", `["%","_","'","\\"]`, 1, 0},
}

// isGUID: the forms of a uuid google/uuid documents as valid, written out: 8-4-4-4-12 hex
// digits, alone, in braces or after urn:uuid:, or 32 hex digits. (uuid.Parse is laxer: it
// takes any 38 characters whose middle 36 are a uuid, braces or not.)
func isGUID(s string) bool {
	isHex := func(t string) bool { return strings.Trim(t, "0123456789abcdefABCDEF") == "" }
	switch {
	case len(s) == 45 && strings.EqualFold(s[:9], "urn:uuid:"):
		s = s[9:]
	case len(s) == 38 && s[0] == '{' && s[37] == '}':
		s = s[1:37]
	case len(s) == 32:
		return isHex(s)
	}
	return len(s) == 36 && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-' &&
		isHex(s[:8]+s[9:13]+s[14:18]+s[19:23]+s[24:])
}

func FuzzFeedQueryCheckRefusesWithA400OrStaysWithinItsBounds(f *testing.F) {
	for _, s := range feedQuerySeeds {
		f.Add(s.page, s.pageSize, s.filter, []byte(s.skip), s.copies, s.skipCount)
	}
	f.Fuzz(func(t *testing.T, page string, pageSize int, filter string, skipBody []byte, copies uint16, skipCount int) {
		skip, err := skipList(skipBody)
		if err != nil { // still let Check see hostile ids
			skip = strings.Split(string(skipBody), ",")
		}
		if len(skip) > 0 {
			skip = slices.Repeat(skip, max(1, int(copies)%1100/len(skip)+1))
		}
		q := FeedQuery{Page: page, PageSize: pageSize, Filter: filter, Skip: slices.Clone(skip), SkipCount: skipCount}
		in := fmt.Sprintf("%+v", q)

		// The fields the documented bounds say are wrong, worked out independently.
		wrong := map[string]bool{
			"page":      page != "" && page != "first" && page != "next",
			"pageSize":  pageSize != 0 && (pageSize < 1 || pageSize > MaxPageSize),
			"filter":    filter != "" && !slices.Contains(Filters, filter),
			"skipCount": skipCount < 0 || skipCount > maxSkipCount,
			"skip":      len(skip) > maxSkip || slices.ContainsFunc(skip, func(id string) bool { return !isGUID(id) }),
		}

		err = q.Check()
		if err != nil {
			we, ok := err.(*web.Error)
			if !ok || we.Status != 400 || len(we.Details) == 0 {
				t.Fatalf("Check(%s) = %T %v, want a 400 naming the fields", in, err, err)
			}
			named := map[string]bool{}
			for _, d := range we.Details {
				if !wrong[d.Field] {
					t.Fatalf("Check(%s) names %q, which is within its bounds", in, d.Field)
				}
				named[d.Field] = true
			}
			for field, bad := range wrong {
				if bad && !named[field] {
					t.Fatalf("Check(%s) does not name %q, which is wrong", in, field)
				}
			}
			return
		}
		for field, bad := range wrong {
			if bad {
				t.Fatalf("Check(%s) accepted a wrong %s: %+v", in, field, q)
			}
		}
		switch {
		case q.Page != "first" && q.Page != "next":
			t.Fatalf("Check(%s) left page %q", in, q.Page)
		case q.PageSize < 1 || q.PageSize > MaxPageSize:
			t.Fatalf("Check(%s) left pageSize %d", in, q.PageSize)
		case !slices.Contains(Filters, q.Filter):
			t.Fatalf("Check(%s) left filter %q", in, q.Filter)
		case q.SkipCount < 0 || q.SkipCount > maxSkipCount || len(q.Skip) > maxSkip:
			t.Fatalf("Check(%s) left skipCount %d and %d guids", in, q.SkipCount, len(q.Skip))
		case q.Page == "first" && (q.Skip != nil || q.SkipCount != 0):
			t.Fatalf("Check(%s): a first page keeps %d guids and skipCount %d", in, len(q.Skip), q.SkipCount)
		case q.Page == "next" && !slices.Equal(q.Skip, skip):
			t.Fatalf("Check(%s) changed the skip list of a next page", in)
		}
	})
}
