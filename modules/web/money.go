package web

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Money is integer minor units of a currency (ARCHITECTURE.md section 8): never a float.

// currencyDecimals lists currencies whose minor unit is not two decimals (ISO 4217).
var currencyDecimals = map[string]int{"JPY": 0, "KRW": 0, "CLP": 0, "ISK": 0, "VND": 0, "BHD": 3, "KWD": 3, "OMR": 3, "TND": 3}

// CurrencyDecimals is how many decimals a currency's minor unit has (2 unless listed).
func CurrencyDecimals(code string) int {
	if d, ok := currencyDecimals[strings.ToUpper(code)]; ok {
		return d
	}
	return 2
}

// ErrMoney says why an amount text was refused.
var (
	ErrMoneyFormat   = errors.New("not a decimal amount")
	ErrMoneyDecimals = errors.New("more decimals than the currency has")
	ErrMoneyRange    = errors.New("amount out of range")
)

// ParseMoney reads a decimal amount in major units ("0.50", "25", "1000.5") into minor units of
// the currency. More decimals than the currency has is refused, never rounded.
func ParseMoney(s, currency string) (int64, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || (hasDot && frac == "") || !digits(whole) || !digits(frac) {
		return 0, fmt.Errorf("%q: %w", s, ErrMoneyFormat)
	}
	dec := CurrencyDecimals(currency)
	if len(frac) > dec {
		return 0, fmt.Errorf("%q has %d decimals, %s has %d: %w", s, len(frac), currency, dec, ErrMoneyDecimals)
	}
	if len(whole) > 12 {
		return 0, fmt.Errorf("%q: %w", s, ErrMoneyRange)
	}
	frac += strings.Repeat("0", dec-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", s, ErrMoneyRange)
	}
	if neg {
		n = -n
	}
	return n, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// MoneyString is the API's money format: major units with the currency's decimals ("25.00").
func MoneyString(minor int64, currency string) string {
	dec := CurrencyDecimals(currency)
	// The magnitude as uint64: -minor overflows for math.MinInt64 ("--92233720368547758.08").
	sign, magnitude := "", uint64(minor)
	if minor < 0 {
		sign, magnitude = "-", -magnitude
	}
	s := strconv.FormatUint(magnitude, 10)
	if dec == 0 {
		return sign + s
	}
	if len(s) <= dec {
		s = strings.Repeat("0", dec-len(s)+1) + s
	}
	return sign + s[:len(s)-dec] + "." + s[len(s)-dec:]
}

var currencySymbols = map[string]string{"USD": "$", "GBP": "£", "EUR": "€", "JPY": "¥", "CNY": "¥", "RUB": "₽", "AUD": "A$", "CAD": "CA$", "INR": "₹"}

// FormatMoney is an amount as members read it in their language: "$0.50", "£1,250.00",
// "0,50 US$"-style placement and separators for languages that write it so.
func FormatMoney(minor int64, currency, lang string) string {
	plain := MoneyString(minor, currency)
	sign := ""
	if strings.HasPrefix(plain, "-") {
		sign, plain = "-", plain[1:]
	}
	whole, frac, _ := strings.Cut(plain, ".")
	// minDigits: Spanish groups thousands only from five digits on (CLDR minimumGroupingDigits 2).
	group, decimal, suffix, minDigits := ",", ".", false, 4
	switch lang {
	case "es", "ru":
		group, decimal, suffix = "\u00a0", ",", true
		if lang == "es" {
			group, minDigits = ".", 5
		}
	}
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 && len(whole) >= minDigits {
			b.WriteString(group)
		}
		b.WriteRune(r)
	}
	num := b.String()
	if frac != "" {
		num += decimal + frac
	}
	sym := currencySymbols[strings.ToUpper(currency)]
	if sym == "" {
		return sign + num + "\u00a0" + strings.ToUpper(currency)
	}
	if suffix {
		return sign + num + "\u00a0" + sym
	}
	return sign + sym + num
}
