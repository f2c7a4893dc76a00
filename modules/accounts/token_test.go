package accounts

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValidTokenFollowsTheSpecsPPTokenRule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, token string
		want        bool
	}{
		{"a UUID is valid", "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11", true},
		{"a UUID in capitals is valid", "0B5E7C4E-6F2A-4A7E-9D61-6C1F0A7D2B11", true},
		{"hex digits without dashes are valid", "0b5e7c4e6f2a4a7e9d616c1f0a7d2b11", true},
		{"a short hex string is valid", "abc123", true},
		{"exactly 36 characters is valid", strings.Repeat("a", 36), true},
		{"37 characters is refused", strings.Repeat("a", 37), false},
		{"a UUID with one more digit is refused", "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b110", false},
		{"empty is refused", "", false},
		{"letters after f are refused", "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b1g", false},
		{"every letter from g to z is refused", "ghijklmnopqrstuvwxyz", false},
		{"capitals after F are refused", "XYZ", false},
		{"a space is refused", "0b5e7c4e 6f2a", false},
		{"a trailing newline is refused", "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11\n", false},
		{"braces around a UUID are refused", "{0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b1}", false},
		{"an injection attempt is refused", "abc' OR '1'='1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ValidToken(tc.token))
		})
	}
}
