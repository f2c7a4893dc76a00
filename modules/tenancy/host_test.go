package tenancy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalizeHostLowerCasesAndStripsThePort(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{"a plain host is kept", "shop.example.com", "shop.example.com"},
		{"the port is stripped", "shop.example.com:3000", "shop.example.com"},
		{"capitals are lowered", "Shop.EXAMPLE.com", "shop.example.com"},
		{"surrounding spaces are trimmed", "  localhost:8080 ", "localhost"},
		{"a trailing dot is dropped", "shop.example.com.", "shop.example.com"},
		{"a trailing dot before the port is dropped", "Shop.Example.com.:443", "shop.example.com"},
		{"an IPv4 address with a port", "127.0.0.1:3000", "127.0.0.1"},
		{"an IPv6 address with a port", "[::1]:3000", "::1"},
		{"an IPv6 address in brackets without a port", "[::1]", "::1"},
		{"a bare IPv6 address", "::1", "::1"},
		{"an IPv6 address is written in its canonical form", "[0:0:0:0:0:0:0:1]:80", "::1"},
		{"empty is not a host", "", ""},
		{"a port alone is not a host", ":3000", ""},
		{"a space inside is not a host", "shop example.com", ""},
		{"a path is not a host", "shop.example.com/feed", ""},
		{"credentials are not a host", "user@shop.example.com", ""},
		{"an underscore is not a host", "shop_1.example.com", ""},
		{"a leading dash is not a host", "-shop.example.com", ""},
		{"an empty label is not a host", "shop..example.com", ""},
		{"a header injection is not a host", "shop.example.com\r\nX-Evil: 1", ""},
		{"a label longer than 63 characters is not a host", strings.Repeat("a", 64) + ".example.com", ""},
		{"a name longer than 253 characters is not a host", strings.Repeat("abcdefghi.", 26) + "com", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, NormalizeHost(tc.in))
		})
	}
}
