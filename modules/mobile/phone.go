package mobile

import (
	"errors"
	"strings"
)

// Phone numbers are checked and written in E.164 (+ country code, subscriber number, no
// spaces) here, without a numbering-plan library: the rules below are the few that decide
// whether an SMS can reach the number at all.
//
// Limits, on purpose:
//   - US and CA (+1, NANP): ten digits NXX NXX XXXX, area code and exchange not starting
//     with 0 or 1 and not N11. Whether a number is mobile cannot be told from the digits in
//     NANP; the SMS provider refuses a landline. A number is CA when its area code is in
//     canadianAreaCodes, otherwise US (other NANP countries, such as Jamaica, come out as US).
//   - GB (+44): ten digits after the trunk 0, and only mobile ranges: 71-75, 77-79 and 7624
//     (70 is personal numbering and 76 pagers). 07700 900xxx is Ofcom's drama range and passes.
//   - Every other country: the number must be given in international form (+ or 00 and the
//     country code), and only E.164's shape is checked: 8 to 15 digits in all. Its country is
//     named when its calling code is in callingCodes, else left empty. National forms of other
//     countries are refused rather than guessed (trunk prefixes differ: Italy keeps its 0).

// errPhone* tell the caller which message to show.
var (
	errPhoneEmpty         = errors.New("phone: empty")
	errPhoneInvalid       = errors.New("phone: invalid")
	errPhoneInternational = errors.New("phone: give the country code")
	errCountry            = errors.New("phone: unknown country code")
)

// maxPhoneInput bounds what is parsed: a number with spaces and a country code fits well.
const maxPhoneInput = 32

// Number is a normalised phone number.
type Number struct {
	E164    string // +447700900123
	Country string // ISO 3166 alpha-2 when known: GB
}

// Normalize reads a number typed in national form (for country, an ISO 3166 alpha-2 code)
// or international form (+44 7700 900123, 0044 7700 900123, +44 (0)7700 900123) and returns
// it in E.164. Spaces, dots, dashes, slashes and brackets are ignored.
func Normalize(raw, country string) (Number, error) {
	country = strings.ToUpper(strings.TrimSpace(country))
	if country != "" && !isAlpha2(country) {
		return Number{}, errCountry
	}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return Number{}, errPhoneEmpty
	}
	if len(raw) > maxPhoneInput {
		return Number{}, errPhoneInvalid
	}
	var digits strings.Builder
	plus := false
	for i, r := range raw {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case r == '+' && i == 0:
			plus = true
		case r == ' ' || r == '-' || r == '.' || r == '/' || r == '(' || r == ')' || r == '\u00a0':
		default:
			return Number{}, errPhoneInvalid
		}
	}
	d := digits.String()
	if !plus && strings.HasPrefix(d, "00") {
		plus, d = true, d[2:] // the international call prefix of most countries
	}
	if plus {
		return international(d)
	}
	switch country {
	case "US", "CA":
		if strings.HasPrefix(d, "011") {
			return international(d[3:]) // NANP's international call prefix
		}
		if len(d) == 11 && d[0] == '1' {
			d = d[1:]
		}
		return nanp(d)
	case "GB":
		if len(d) == 11 && d[0] == '0' {
			return britishMobile(d[1:])
		}
		return britishMobile(d) // typed without the trunk 0
	}
	return Number{}, errPhoneInternational
}

// international checks digits that followed a + (or 00).
func international(d string) (Number, error) {
	switch {
	case strings.HasPrefix(d, "1"):
		return nanp(d[1:])
	case strings.HasPrefix(d, "44"):
		n := d[2:]
		if len(n) == 11 && n[0] == '0' {
			n = n[1:] // +44 (0)7700 900123
		}
		return britishMobile(n)
	}
	if len(d) < 8 || len(d) > 15 || d[0] == '0' {
		return Number{}, errPhoneInvalid
	}
	return Number{E164: "+" + d, Country: countryOfCallingCode(d)}, nil
}

// nanp checks a ten-digit North American number (without the 1).
func nanp(d string) (Number, error) {
	if len(d) != 10 || !allDigits(d) {
		return Number{}, errPhoneInvalid
	}
	area, exchange := d[:3], d[3:6]
	for _, part := range []string{area, exchange} {
		if part[0] < '2' || (part[1] == '1' && part[2] == '1') {
			return Number{}, errPhoneInvalid
		}
	}
	country := "US"
	if canadianAreaCodes[area] {
		country = "CA"
	}
	return Number{E164: "+1" + d, Country: country}, nil
}

// britishMobile checks a UK national significant number (without the trunk 0).
func britishMobile(n string) (Number, error) {
	if len(n) != 10 || !allDigits(n) || n[0] != '7' {
		return Number{}, errPhoneInvalid
	}
	switch {
	case n[1] >= '1' && n[1] <= '5', n[1] >= '7' && n[1] <= '9', strings.HasPrefix(n, "7624"):
		return Number{E164: "+44" + n, Country: "GB"}, nil
	}
	return Number{}, errPhoneInvalid
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func isAlpha2(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// countryOfCallingCode names the country of an international number when its calling code
// is one country's (longest prefix first); shared codes (7: RU and KZ) name none.
func countryOfCallingCode(d string) string {
	for n := 3; n >= 1; n-- {
		if len(d) > n {
			if c, ok := callingCodes[d[:n]]; ok {
				return c
			}
		}
	}
	return ""
}

// callingCodes are the single-country calling codes of the countries panels most often
// serve; an unlisted code is still a valid E.164 number, only its country stays unnamed.
var callingCodes = map[string]string{
	"20": "EG", "27": "ZA", "30": "GR", "31": "NL", "32": "BE", "33": "FR", "34": "ES", "36": "HU",
	"39": "IT", "40": "RO", "41": "CH", "43": "AT", "45": "DK", "46": "SE", "47": "NO", "48": "PL",
	"49": "DE", "51": "PE", "52": "MX", "54": "AR", "55": "BR", "56": "CL", "57": "CO", "60": "MY",
	"61": "AU", "62": "ID", "63": "PH", "64": "NZ", "65": "SG", "66": "TH", "81": "JP", "82": "KR",
	"84": "VN", "86": "CN", "90": "TR", "91": "IN", "92": "PK", "234": "NG", "254": "KE",
	"351": "PT", "353": "IE", "358": "FI", "380": "UA", "420": "CZ", "852": "HK", "886": "TW",
	"971": "AE", "972": "IL", "966": "SA",
}

// canadianAreaCodes are the NANP area codes assigned to Canada.
var canadianAreaCodes = map[string]bool{}

func init() {
	for _, a := range strings.Fields(`204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 387
		403 416 418 428 431 437 438 450 460 468 474 506 514 519 548 579 581 584 587 600 604 613
		639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905 942`) {
		canadianAreaCodes[a] = true
	}
}

// countryOfCurrency is a panel's default country when its settings name none: the country
// a currency belongs to, for the currencies of one country.
func countryOfCurrency(code string) string {
	switch strings.ToUpper(code) {
	case "USD":
		return "US"
	case "GBP":
		return "GB"
	case "CAD":
		return "CA"
	case "AUD":
		return "AU"
	case "NZD":
		return "NZ"
	case "JPY":
		return "JP"
	case "INR":
		return "IN"
	}
	return ""
}
