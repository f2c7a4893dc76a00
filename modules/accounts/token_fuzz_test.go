package accounts

import "testing"

// tokenSeeds are pp-tokens clients really send, the edges of the rule and hostile values;
// testdata/fuzz/FuzzValidTokenAcceptsOnlyHexDigitsAndDashesUpTo36Characters holds the same.
var tokenSeeds = []struct{ name, token string }{
	{"uuid", "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11"},
	{"uuid-in-capitals", "0B5E7C4E-6F2A-4A7E-9D61-6C1F0A7D2B11"},
	{"hex-without-dashes", "0b5e7c4e6f2a4a7e9d616c1f0a7d2b11"},
	{"one-dash", "-"},
	{"exactly-36", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
	{"37-characters", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
	{"empty", ""},
	{"trailing-newline", "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11\n"},
	{"nul-byte", "abc\x00def"},
	{"invalid-utf8", "\xff\xfe"},
	{"right-to-left-override", "abc\u202edef"},
	{"zero-width-joiner", "ab\u200dcd"},
	{"emoji", "abc\U0001F600"},
	{"fullwidth-digits", "\uff10\uff11\uff12"},
	{"script-tag", "<script>alert(1)</script>"},
	{"sql-injection", "abc' OR '1'='1"},
	{"like-metacharacters", "%_'\\"},
	{"braces-around-uuid", "{0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b1}"},
}

// followsTokenRule is the spec's rule written out byte by byte, independently of the regexp
// ValidToken uses: 1 to 36 characters, each a hexadecimal digit or a dash.
func followsTokenRule(t string) bool {
	if len(t) < 1 || len(t) > 36 {
		return false
	}
	for i := 0; i < len(t); i++ {
		switch b := t[i]; {
		case '0' <= b && b <= '9', 'a' <= b && b <= 'f', 'A' <= b && b <= 'F', b == '-':
		default:
			return false
		}
	}
	return true
}

func FuzzValidTokenAcceptsOnlyHexDigitsAndDashesUpTo36Characters(f *testing.F) {
	for _, s := range tokenSeeds {
		f.Add(s.token)
	}
	f.Fuzz(func(t *testing.T, token string) {
		if got, want := ValidToken(token), followsTokenRule(token); got != want {
			t.Fatalf("ValidToken(%q) = %v, the spec's rule says %v", token, got, want)
		}
	})
}
