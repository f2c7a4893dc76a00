package redemptions

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Destination is where a redemption's money goes: a PayPal account, a bank account, or (for
// a voucher) the member's account email. Masked, it is what the member sees; whole, it is
// sealed for operators.
type Destination struct {
	Kind          Kind   `json:"kind"`
	PayPalEmail   string `json:"paypalEmail,omitempty"`
	Email         string `json:"email,omitempty"`
	Currency      string `json:"currency_code,omitempty"`
	AccountHolder string `json:"accountHolder,omitempty"`
	IBAN          string `json:"iban,omitempty"`
	BIC           string `json:"bic,omitempty"`
	SortCode      string `json:"sortCode,omitempty"`
	AccountNumber string `json:"accountNumber,omitempty"`
	RoutingNumber string `json:"routingNumber,omitempty"`
	AccountType   string `json:"accountType,omitempty"`
}

// Masked is the destination as the member's pages and API show it: never a whole number or
// email address.
func (d Destination) Masked() Destination {
	out := Destination{Kind: d.Kind, Currency: d.Currency, AccountHolder: d.AccountHolder, BIC: d.BIC, AccountType: d.AccountType}
	if d.PayPalEmail != "" {
		out.PayPalEmail = MaskEmail(d.PayPalEmail)
	}
	if d.Email != "" {
		out.Email = MaskEmail(d.Email)
	}
	if d.IBAN != "" {
		out.IBAN = maskIBAN(d.IBAN)
	}
	if d.SortCode != "" {
		out.SortCode = "**-**-" + d.SortCode[len(d.SortCode)-2:]
	}
	if d.AccountNumber != "" {
		out.AccountNumber = maskDigits(d.AccountNumber)
	}
	if d.RoutingNumber != "" {
		out.RoutingNumber = maskDigits(d.RoutingNumber)
	}
	return out
}

// Summary is a masked destination in one line, for lists: the masked email, IBAN or
// account number.
func (d Destination) Summary() string {
	switch {
	case d.PayPalEmail != "":
		return d.PayPalEmail
	case d.Email != "":
		return d.Email
	case d.IBAN != "":
		return d.IBAN
	case d.SortCode != "":
		return d.SortCode + " " + d.AccountNumber
	}
	return d.AccountNumber
}

// MaskEmail keeps an address's first character and its domain: d***@example.com.
func MaskEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		return "***"
	}
	first := []rune(local)[0]
	return string(first) + "***@" + domain
}

// maskDigits shows the last four characters of a number of eight or more, and at most half
// of a shorter one, so a masked number is never the whole number.
func maskDigits(s string) string {
	show := 4
	if len(s) < 8 {
		show = len(s) / 2
	}
	return strings.Repeat("*", len(s)-show) + s[len(s)-show:]
}

// maskIBAN keeps the country code and the last four characters, grouped by four as IBANs
// are printed: DE** **** **** **** **30 00.
func maskIBAN(iban string) string {
	masked := iban[:2] + strings.Repeat("*", len(iban)-6) + iban[len(iban)-4:]
	var b strings.Builder
	for i, r := range masked {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

const maxEmailLen = 254

var domainLabelRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// NormalizeEmail checks an address has a real email's shape (local@domain.tld, no display
// name or comments) and returns it trimmed with its domain in lower case.
func NormalizeEmail(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxEmailLen {
		return "", false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return "", false
	}
	local, domain, _ := strings.Cut(s, "@")
	if local == "" || len(local) > 64 || strings.ContainsAny(local, " \"") {
		return "", false
	}
	domain = strings.ToLower(domain)
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return "", false
	}
	for _, l := range labels {
		if !domainLabelRE.MatchString(l) {
			return "", false
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 || strings.IndexFunc(tld, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return "", false
	}
	return local + "@" + domain, true
}

// CheckPayPal validates the paypal-data payload and returns the destination to store.
func CheckPayPal(email string) (Destination, error) {
	if strings.TrimSpace(email) == "" {
		return Destination{}, web.Invalid("paypalEmail", "error.required", nil)
	}
	norm, ok := NormalizeEmail(email)
	if !ok {
		return Destination{}, web.Invalid("paypalEmail", "error.invalid_email", nil)
	}
	return Destination{Kind: KindPayPal, PayPalEmail: norm}, nil
}

// BankInput is the bank-data payload: which fields count depends on the panel's currency.
type BankInput struct {
	AccountHolder string `json:"accountHolder"`
	IBAN          string `json:"iban"`
	BIC           string `json:"bic"`
	SortCode      string `json:"sortCode"`
	AccountNumber string `json:"accountNumber"`
	RoutingNumber string `json:"routingNumber"`
	AccountType   string `json:"accountType"`
}

// BankFields are the fields of a bank account in each currency that offers bank transfer,
// in the order a form asks for them.
var BankFields = map[string][]string{
	"EUR": {"accountHolder", "iban", "bic"},
	"GBP": {"accountHolder", "sortCode", "accountNumber"},
	"USD": {"accountHolder", "routingNumber", "accountNumber", "accountType"},
}

// AccountTypes are the USD account types.
var AccountTypes = []string{"checking", "savings"}

// BankOffered tells whether bank transfer is offered in a currency.
func BankOffered(currency string) bool { return BankFields[strings.ToUpper(currency)] != nil }

// ErrBankNotOffered is bank-data in a currency without bank transfer.
func errBankNotOffered(currency string) *web.Error {
	return web.Fail(fiber.StatusUnprocessableEntity, "error.bank_not_offered", map[string]any{"Currency": currency}).WithCode("bank_transfer_not_offered")
}

const maxHolderLen = 100

// CheckBank validates bank-data for a currency: every bad field is named in one 400.
func CheckBank(currency string, in BankInput) (Destination, error) {
	currency = strings.ToUpper(currency)
	fields := BankFields[currency]
	if fields == nil {
		return Destination{}, errBankNotOffered(currency)
	}
	var bad *web.Error
	invalid := func(field, id string, data map[string]any) {
		if bad == nil {
			bad = web.Invalid(field, id, data)
		} else {
			bad.Also(field, id, data)
		}
	}
	d := Destination{Kind: KindBank, Currency: currency}
	holder := strings.Join(strings.Fields(in.AccountHolder), " ")
	switch {
	case holder == "":
		invalid("accountHolder", "error.required", nil)
	case len([]rune(holder)) > maxHolderLen:
		invalid("accountHolder", "error.too_long", map[string]any{"Max": maxHolderLen})
	case strings.IndexFunc(holder, func(r rune) bool { return unicode.IsControl(r) || unicode.IsDigit(r) }) >= 0:
		invalid("accountHolder", "error.account_holder", nil)
	}
	d.AccountHolder = holder
	// Fields of another currency's accounts would be silently dropped: say so instead.
	given := map[string]string{"iban": in.IBAN, "bic": in.BIC, "sortCode": in.SortCode, "accountNumber": in.AccountNumber, "routingNumber": in.RoutingNumber, "accountType": in.AccountType}
	for _, name := range []string{"iban", "bic", "sortCode", "routingNumber", "accountNumber", "accountType"} {
		if strings.TrimSpace(given[name]) != "" && !contains(fields, name) {
			invalid(name, "error.bank_field_unused", map[string]any{"Currency": currency})
		}
	}
	switch currency {
	case "EUR":
		iban := strings.ToUpper(strings.Join(strings.Fields(in.IBAN), ""))
		switch {
		case iban == "":
			invalid("iban", "error.required", nil)
		case !ValidIBAN(iban):
			invalid("iban", "error.iban", nil)
		}
		d.IBAN = iban
		if bic := strings.ToUpper(strings.TrimSpace(in.BIC)); bic != "" {
			if !bicRE.MatchString(bic) {
				invalid("bic", "error.bic", nil)
			}
			d.BIC = bic
		}
	case "GBP":
		sort := strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(in.SortCode))
		switch {
		case sort == "":
			invalid("sortCode", "error.required", nil)
		case !allDigits(sort, 6, 6):
			invalid("sortCode", "error.sort_code", nil)
		}
		d.SortCode = sort
		acct := strings.ReplaceAll(strings.TrimSpace(in.AccountNumber), " ", "")
		switch {
		case acct == "":
			invalid("accountNumber", "error.required", nil)
		case !allDigits(acct, 8, 8):
			invalid("accountNumber", "error.account_number_gb", nil)
		}
		d.AccountNumber = acct
	case "USD":
		routing := strings.ReplaceAll(strings.TrimSpace(in.RoutingNumber), " ", "")
		switch {
		case routing == "":
			invalid("routingNumber", "error.required", nil)
		case !ValidRoutingNumber(routing):
			invalid("routingNumber", "error.routing_number", nil)
		}
		d.RoutingNumber = routing
		acct := strings.ReplaceAll(strings.TrimSpace(in.AccountNumber), " ", "")
		switch {
		case acct == "":
			invalid("accountNumber", "error.required", nil)
		case !allDigits(acct, 4, 17):
			invalid("accountNumber", "error.account_number_us", nil)
		}
		d.AccountNumber = acct
		kind := strings.ToLower(strings.TrimSpace(in.AccountType))
		switch {
		case kind == "":
			invalid("accountType", "error.required", nil)
		case !contains(AccountTypes, kind):
			invalid("accountType", "error.account_type", nil)
		}
		d.AccountType = kind
	}
	if bad != nil {
		return Destination{}, bad
	}
	return d, nil
}

var bicRE = regexp.MustCompile(`^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$`)

func allDigits(s string, minLen, maxLen int) bool {
	if len(s) < minLen || len(s) > maxLen {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ValidRoutingNumber checks an ABA routing number: nine digits whose weighted sum
// 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) is a multiple of ten.
func ValidRoutingNumber(s string) bool {
	if !allDigits(s, 9, 9) {
		return false
	}
	d := func(i int) int { return int(s[i] - '0') }
	sum := 3*(d(0)+d(3)+d(6)) + 7*(d(1)+d(4)+d(7)) + (d(2) + d(5) + d(8))
	return sum%10 == 0
}

// ValidIBAN checks an IBAN (upper case, no spaces): the country's length from the SWIFT
// registry, two check digits, letters and digits only, and the ISO 13616 mod-97 checksum.
func ValidIBAN(iban string) bool {
	if len(iban) < 5 {
		return false
	}
	want, ok := ibanLengths[iban[:2]]
	if !ok || len(iban) != want || !allDigits(iban[2:4], 2, 2) {
		return false
	}
	// Move the country and check digits to the end, read letters as 10..35, and reduce
	// mod 97 digit by digit (the number is too long for an integer).
	rearranged := iban[4:] + iban[:4]
	rem := 0
	for _, r := range rearranged {
		switch {
		case r >= '0' && r <= '9':
			rem = (rem*10 + int(r-'0')) % 97
		case r >= 'A' && r <= 'Z':
			rem = (rem*100 + int(r-'A'+10)) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// ibanLengths is the SWIFT IBAN registry's length of each country's IBAN.
var ibanLengths = map[string]int{
	"AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
	"BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
	"EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
	"GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
	"JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25,
	"MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18,
	"NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33,
	"SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
	"TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}
