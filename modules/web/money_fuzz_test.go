package web_test

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
)

// moneyCurrencies cover every minor unit the panel currencies have: 2, 0 and 3 decimals.
var moneyCurrencies = []struct {
	code     string
	decimals int
}{{"USD", 2}, {"JPY", 0}, {"BHD", 3}}

// moneySeeds are amounts operators and members type, and hostile ones;
// testdata/fuzz/FuzzParseMoneyReadsExactlyTheAmountWrittenOrSaysWhyNot holds the same.
var moneySeeds = []struct{ name, amount string }{
	{"cents", "0.50"},
	{"whole", "25"},
	{"one-decimal", "1000.5"},
	{"three-decimals", "1.234"},
	{"negative-adjustment", "-5.00"},
	{"minus-zero", "-0"},
	{"padded", " 7.25\n"},
	{"twelve-digits", "999999999999.999"},
	{"thirteen-digits", "1000000000000"},
	{"leading-zeros", "0000000000000000000001"},
	{"exponent", "1e400"},
	{"nan", "NaN"},
	{"infinity", "-Inf"},
	{"plus-sign", "+5"},
	{"double-minus", "--5"},
	{"trailing-dot", "5."},
	{"leading-dot", ".5"},
	{"comma-decimal", "0,50"},
	{"thousands-separator", "1,000.00"},
	{"currency-symbol", "$5"},
	{"arabic-indic-digits", "\u0665"},
	{"fullwidth-digits", "\uff15\uff10"},
	{"nul-byte", "5\x00"},
	{"invalid-utf8", "\xff\xfe"},
	{"right-to-left-override", "\u202e05.1"},
	{"zero-width-joiner", "1\u200d0"},
	{"emoji", "5\U0001F4B0"},
	{"script-tag", "<script>alert(1)</script>"},
	{"sql-and-like", "0' OR '1'='1 %_\\"},
}

// amountRule is ParseMoney's contract written out independently: an optional minus, 1 to 12
// whole digits, and optionally a dot with 1 to decimals digits, around optional white space.
// It says which sentinel a refusal must carry.
func amountRule(s string, decimals int) error {
	s = strings.TrimPrefix(strings.TrimSpace(s), "-")
	whole, frac, hasDot := strings.Cut(s, ".")
	isDigits := func(t string) bool { return strings.Trim(t, "0123456789") == "" }
	switch {
	case whole == "" || (hasDot && frac == "") || !isDigits(whole) || !isDigits(frac):
		return web.ErrMoneyFormat
	case len(frac) > decimals:
		return web.ErrMoneyDecimals
	case len(whole) > 12:
		return web.ErrMoneyRange
	}
	return nil
}

// minorUnits is the exact value of an accepted amount in minor units, by rational arithmetic.
func minorUnits(t *testing.T, s string, decimals int) int64 {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		t.Fatalf("%q was accepted but is not a decimal number", s)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)))
	if !r.IsInt() || !r.Num().IsInt64() {
		t.Fatalf("%q is not a whole number of minor units with %d decimals", s, decimals)
	}
	return r.Num().Int64()
}

func FuzzParseMoneyReadsExactlyTheAmountWrittenOrSaysWhyNot(f *testing.F) {
	for _, s := range moneySeeds {
		f.Add(s.amount)
	}
	f.Fuzz(func(t *testing.T, amount string) {
		for _, cur := range moneyCurrencies {
			minor, err := web.ParseMoney(amount, cur.code)
			want := amountRule(amount, cur.decimals)
			if err != nil {
				if want == nil || !errors.Is(err, want) {
					t.Fatalf("ParseMoney(%q, %s) refused with %v, the rule says %v", amount, cur.code, err, want)
				}
				continue
			}
			if want != nil {
				t.Fatalf("ParseMoney(%q, %s) = %d, the rule refuses it: %v", amount, cur.code, minor, want)
			}
			if exact := minorUnits(t, amount, cur.decimals); minor != exact {
				t.Fatalf("ParseMoney(%q, %s) = %d minor units, the amount is %d", amount, cur.code, minor, exact)
			}
			// Negative amounts are operators' debits ("-5.00"); only a minus gives one.
			if minor < 0 && !strings.HasPrefix(strings.TrimSpace(amount), "-") {
				t.Fatalf("ParseMoney(%q, %s) = %d is negative without a minus", amount, cur.code, minor)
			}
			s := web.MoneyString(minor, cur.code)
			again, err := web.ParseMoney(s, cur.code)
			if err != nil || again != minor {
				t.Fatalf("ParseMoney(%q, %s) = %d, written %q, reads back as %d, %v", amount, cur.code, minor, s, again, err)
			}
		}
	})
}

// moneyStringSeeds are minor-unit amounts, with the int64 edges; testdata/fuzz holds the same.
var moneyStringSeeds = []struct {
	name  string
	minor int64
}{
	{"zero", 0},
	{"one-minor-unit", 1},
	{"debit", -5},
	{"fifty-cents", 50},
	{"largest-that-parses-usd", 99999999999999},
	{"smallest-too-large-usd", 100000000000000},
	{"largest-that-parses-bhd", -999999999999999},
	{"max-int64", math.MaxInt64},
	{"min-int64", math.MinInt64},
}

// moneyText: an optional minus, whole digits without leading zeros, and exactly the
// currency's decimals after a dot.
func moneyText(s string, decimals int) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasDot := strings.Cut(s, ".")
	isDigits := func(t string) bool { return t != "" && strings.Trim(t, "0123456789") == "" }
	return isDigits(whole) && (whole == "0" || whole[0] != '0') && hasDot == (decimals > 0) && len(frac) == decimals && (decimals == 0 || isDigits(frac))
}

func FuzzMoneyStringWritesWhatParseMoneyReadsBack(f *testing.F) {
	for _, s := range moneyStringSeeds {
		f.Add(s.minor)
	}
	f.Fuzz(func(t *testing.T, minor int64) {
		for _, cur := range moneyCurrencies {
			s := web.MoneyString(minor, cur.code)
			if !moneyText(s, cur.decimals) {
				t.Fatalf("MoneyString(%d, %s) = %q is not an amount with %d decimals", minor, cur.code, s, cur.decimals)
			}
			if (minor < 0) != strings.HasPrefix(s, "-") {
				t.Fatalf("MoneyString(%d, %s) = %q has the wrong sign", minor, cur.code, s)
			}
			got, err := web.ParseMoney(s, cur.code)
			whole, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
			if len(whole) > 12 {
				if !errors.Is(err, web.ErrMoneyRange) {
					t.Fatalf("ParseMoney(%q, %s) of more than 12 whole digits: %d, %v; want ErrMoneyRange", s, cur.code, got, err)
				}
				continue
			}
			if err != nil || got != minor {
				t.Fatalf("MoneyString(%d, %s) = %q reads back as %d, %v", minor, cur.code, s, got, err)
			}
		}
	})
}
