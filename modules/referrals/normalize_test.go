package referrals

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalizeEmailTellsOneMailboxWrittenSeveralWays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
	}{
		{"trimmed and lower case", "  Ana@Example.COM ", "ana@example.com"},
		{"a plus tag goes", "ana+friends@example.com", "ana@example.com"},
		{"a plus tag goes at Gmail too", "ana+x@gmail.com", "ana@gmail.com"},
		{"Gmail ignores dots", "a.n.a@gmail.com", "ana@gmail.com"},
		{"googlemail is Gmail", "A.na+1@googlemail.com", "ana@gmail.com"},
		{"other providers keep their dots", "a.na@example.com", "a.na@example.com"},
		{"a plus at the start is the address itself", "+ana@example.com", "+ana@example.com"},
		{"no at sign is left as it is", "not-an-address", "not-an-address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, NormalizeEmail(c.in)) })
	}
}
