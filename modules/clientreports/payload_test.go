package clientreports

import (
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAReportIsCheckedFieldByFieldAndEveryWrongFieldIsNamed(t *testing.T) {
	t.Parallel()
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	cases := []struct {
		name   string
		level  string
		body   string
		status int
		fields []string // the fields a 400 names, in order
		want   Payload
	}{
		{name: "an uncaught error", level: "error",
			body: `{"href":"http://localhost/feed","name":"TypeError","message":"x is undefined","source":"http://localhost/static/dist/a.js","stack":"TypeError: x is undefined\n    at f (a.js:3:7)","lineno":3,"colno":7}`,
			want: Payload{Level: "error", Href: "http://localhost/feed", Name: "TypeError", Message: "x is undefined", Source: "http://localhost/static/dist/a.js",
				Stack: "TypeError: x is undefined\n    at f (a.js:3:7)", Lineno: 3, Colno: 7}},
		{name: "a console call", level: "error", body: `{"href":"http://localhost/feed","arguments":["Warning: %s", {"a": 1}, 2, null]}`,
			want: Payload{Level: "error", Href: "http://localhost/feed", Arguments: `["Warning: %s",{"a":1},2,null]`}},
		{name: "nulls and unknown fields are left out", level: "warn", body: `{"message":"m","stack":null,"lineno":null,"url":"x","extra":{"a":[1]}}`,
			want: Payload{Level: "warn", Message: "m"}},
		{name: "positions written as whole floats", level: "log", body: `{"message":"m","lineno":3.0,"colno":-0}`,
			want: Payload{Level: "log", Message: "m", Lineno: 3}},
		{name: "a message at its bound", level: "error", body: `{"message":` + long(MaxMessage) + `}`,
			want: Payload{Level: "error", Message: strings.Repeat("x", MaxMessage)}},
		{name: "an unknown level", level: "panic", body: `{"message":"m"}`, status: 400, fields: []string{"level"}},
		{name: "an empty level", level: "", body: `{"message":"m"}`, status: 400, fields: []string{"level"}},
		{name: "an empty report", level: "error", body: `{}`, status: 400, fields: []string{"message"}},
		{name: "only an href", level: "error", body: `{"href":"http://localhost/"}`, status: 400, fields: []string{"message"}},
		{name: "blank texts", level: "error", body: `{"message":"  ","name":""}`, status: 400, fields: []string{"message"}},
		{name: "text fields of the wrong type", level: "error", body: `{"message":1,"name":["a"],"href":{"a":"b"},"stack":true}`, status: 400,
			fields: []string{"href", "name", "message", "stack"}},
		{name: "texts over their bounds", level: "error",
			body:   `{"href":` + long(MaxHref+1) + `,"message":` + long(MaxMessage+1) + `,"source":` + long(MaxSource+1) + `,"stack":` + long(MaxStack+1) + `}`,
			status: 400, fields: []string{"href", "message", "source", "stack"}},
		{name: "positions that are no whole number", level: "error", body: `{"message":"m","lineno":"3","colno":1.5}`, status: 400, fields: []string{"lineno", "colno"}},
		{name: "negative and huge positions", level: "error", body: `{"message":"m","lineno":-1,"colno":1e400}`, status: 400, fields: []string{"lineno", "colno"}},
		{name: "arguments that are no list", level: "error", body: `{"arguments":"a"}`, status: 400, fields: []string{"arguments"}},
		{name: "too many arguments", level: "error", body: `{"arguments":[` + strings.Repeat(`1,`, MaxArguments) + `1]}`, status: 400, fields: []string{"arguments"}},
		{name: "arguments too long", level: "error", body: `{"arguments":[` + long(MaxArgsText) + `]}`, status: 400, fields: []string{"arguments"}},
		{name: "an array for the report", level: "error", body: `["a"]`, status: 400},
		{name: "null for the report", level: "error", body: `null`, status: 400},
		{name: "no JSON", level: "error", body: `message=m`, status: 400},
		{name: "a body over the bound", level: "error", body: `{"message":` + long(MaxBody) + `}`, status: 413},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.level, []byte(c.body))
			if c.status == 0 {
				require.NoError(t, err)
				assert.Equal(t, c.want, got)
				return
			}
			e := web.AsError(err)
			require.NotNil(t, e)
			assert.Equal(t, c.status, e.Status, "%v", err)
			var named []string
			for _, d := range e.Details {
				named = append(named, d.Field)
			}
			if c.fields != nil {
				assert.Equal(t, c.fields, named)
			}
		})
	}
}

func TestTheSameErrorOnAnotherPageOrFromAnotherScriptVersionHasOneFingerprint(t *testing.T) {
	t.Parallel()
	base := Payload{Level: "error", Href: "http://localhost/feed", Name: "TypeError", Message: "x is undefined", Source: "http://localhost/static/dist/a.js", Lineno: 3, Colno: 7, Stack: "at f"}
	with := func(change func(p *Payload)) Payload { p := base; change(&p); return p }
	cases := []struct {
		name string
		p    Payload
		same bool
	}{
		{"another page", with(func(p *Payload) { p.Href = "http://localhost/offers" }), true},
		{"a cache-busting query on the script", with(func(p *Payload) { p.Source += "?v=2#x" }), true},
		{"another stack (another caller)", with(func(p *Payload) { p.Stack = "at g" }), true},
		{"another message", with(func(p *Payload) { p.Message = "y is undefined" }), false},
		{"another name", with(func(p *Payload) { p.Name = "ReferenceError" }), false},
		{"another line", with(func(p *Payload) { p.Lineno = 4 }), false},
		{"another column", with(func(p *Payload) { p.Colno = 8 }), false},
		{"another script", with(func(p *Payload) { p.Source = "http://localhost/static/dist/b.js" }), false},
		{"another level", with(func(p *Payload) { p.Level = "warn" }), false},
		{"a console call", with(func(p *Payload) { p.Arguments = `["x is undefined"]` }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.same, base.Fingerprint() == c.p.Fingerprint())
		})
	}
	// With neither name nor message, the stack's first line tells errors apart.
	bare := Payload{Level: "error", Stack: "at f\n at g"}
	assert.Equal(t, bare.Fingerprint(), Payload{Level: "error", Stack: "at f\n at h"}.Fingerprint())
	assert.NotEqual(t, bare.Fingerprint(), Payload{Level: "error", Stack: "at k\n at g"}.Fingerprint())
}
