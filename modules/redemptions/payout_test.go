package redemptions

import (
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIBANsAreCheckedByCountryLengthAndMod97(t *testing.T) {
	t.Parallel()
	cases := []struct {
		iban string
		ok   bool
	}{
		{"DE89370400440532013000", true},
		{"GB82WEST12345698765432", true},
		{"FR1420041010050500013M02606", true},
		{"NL91ABNA0417164300", true},
		{"BE68539007547034", true},
		{"NO9386011117947", true},
		{"DE89370400440532013001", false},  // one digit changed: the checksum fails
		{"DE8937040044053201300", false},   // a digit short for Germany
		{"DE893704004405320130000", false}, // a digit too many
		{"XX89370400440532013000", false},  // no such country
		{"DEAB370400440532013000", false},  // check digits must be digits
		{"DE89-370400440532013000", false}, // a character IBANs don't have
		{"", false},
		{"DE8", false},
	}
	for _, c := range cases {
		t.Run(c.iban, func(t *testing.T) { assert.Equal(t, c.ok, ValidIBAN(c.iban)) })
	}
}

func TestRoutingNumbersAreCheckedByTheABAChecksum(t *testing.T) {
	t.Parallel()
	cases := []struct {
		routing string
		ok      bool
	}{
		{"021000021", true},
		{"011000015", true},
		{"111000025", true},
		{"021000022", false},
		{"02100002", false},
		{"0210000211", false},
		{"02100002a", false},
	}
	for _, c := range cases {
		t.Run(c.routing, func(t *testing.T) { assert.Equal(t, c.ok, ValidRoutingNumber(c.routing)) })
	}
}

func TestBankDetailsAreCheckedByThePanelsCurrency(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		currency string
		in       BankInput
		want     Destination // when the details pass
		bad      []string    // the fields named in the 400, in order
	}{
		{
			name: "a German IBAN written with spaces, with a BIC", currency: "EUR",
			in:   BankInput{AccountHolder: "Erika Mustermann", IBAN: "de89 3704 0044 0532 0130 00", BIC: "cobadeffxxx"},
			want: Destination{Kind: KindBank, Currency: "EUR", AccountHolder: "Erika Mustermann", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX"},
		},
		{
			name: "an IBAN without a BIC", currency: "EUR",
			in:   BankInput{AccountHolder: "Erika Mustermann", IBAN: "FR1420041010050500013M02606"},
			want: Destination{Kind: KindBank, Currency: "EUR", AccountHolder: "Erika Mustermann", IBAN: "FR1420041010050500013M02606"},
		},
		{name: "a malformed IBAN", currency: "EUR", in: BankInput{AccountHolder: "Erika", IBAN: "DE89370400440532013001"}, bad: []string{"iban"}},
		{name: "a malformed BIC", currency: "EUR", in: BankInput{AccountHolder: "Erika", IBAN: "DE89370400440532013000", BIC: "COBA"}, bad: []string{"bic"}},
		{name: "a sort code for a euro account", currency: "EUR", in: BankInput{AccountHolder: "Erika", IBAN: "DE89370400440532013000", SortCode: "123456"}, bad: []string{"sortCode"}},
		{
			name: "a UK account with a dashed sort code", currency: "GBP",
			in:   BankInput{AccountHolder: "Tom Atkins", SortCode: "12-34-56", AccountNumber: "12345678"},
			want: Destination{Kind: KindBank, Currency: "GBP", AccountHolder: "Tom Atkins", SortCode: "123456", AccountNumber: "12345678"},
		},
		{name: "a five-digit sort code", currency: "GBP", in: BankInput{AccountHolder: "Tom", SortCode: "12-34-5", AccountNumber: "12345678"}, bad: []string{"sortCode"}},
		{name: "a seven-digit UK account", currency: "GBP", in: BankInput{AccountHolder: "Tom", SortCode: "123456", AccountNumber: "1234567"}, bad: []string{"accountNumber"}},
		{
			name: "a US savings account", currency: "USD",
			in:   BankInput{AccountHolder: "Dana Payee", RoutingNumber: "021000021", AccountNumber: "9876", AccountType: "SAVINGS"},
			want: Destination{Kind: KindBank, Currency: "USD", AccountHolder: "Dana Payee", RoutingNumber: "021000021", AccountNumber: "9876", AccountType: "savings"},
		},
		{name: "a bad routing number", currency: "USD", in: BankInput{AccountHolder: "Dana", RoutingNumber: "021000022", AccountNumber: "12345678", AccountType: "checking"}, bad: []string{"routingNumber"}},
		{name: "a three-digit US account", currency: "USD", in: BankInput{AccountHolder: "Dana", RoutingNumber: "021000021", AccountNumber: "123", AccountType: "checking"}, bad: []string{"accountNumber"}},
		{name: "an eighteen-digit US account", currency: "USD", in: BankInput{AccountHolder: "Dana", RoutingNumber: "021000021", AccountNumber: strings.Repeat("1", 18), AccountType: "checking"}, bad: []string{"accountNumber"}},
		{name: "an unknown account type", currency: "USD", in: BankInput{AccountHolder: "Dana", RoutingNumber: "021000021", AccountNumber: "12345678", AccountType: "brokerage"}, bad: []string{"accountType"}},
		{name: "nothing at all", currency: "USD", bad: []string{"accountHolder", "routingNumber", "accountNumber", "accountType"}},
		{name: "a holder with digits", currency: "GBP", in: BankInput{AccountHolder: "Tom 2", SortCode: "123456", AccountNumber: "12345678"}, bad: []string{"accountHolder"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CheckBank(c.currency, c.in)
			if c.bad == nil {
				require.NoError(t, err)
				assert.Equal(t, c.want, got)
				return
			}
			e := web.AsError(err)
			require.NotNil(t, e)
			assert.Equal(t, http.StatusBadRequest, e.Status)
			var fields []string
			for _, d := range e.Details {
				fields = append(fields, d.Field)
			}
			assert.Equal(t, c.bad, fields)
		})
	}
	_, err := CheckBank("JPY", BankInput{AccountHolder: "Taro"})
	assert.Equal(t, http.StatusUnprocessableEntity, web.AsError(err).Status)
	assert.Equal(t, "bank_transfer_not_offered", codeOf(err))
}

func TestPayPalEmailsMustHaveARealEmailsShape(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want string // want "" refuses
	}{
		{"dana@example.com", "dana@example.com"},
		{"  Dana.Payee+pp@Mail.Example.CO.UK ", "Dana.Payee+pp@mail.example.co.uk"},
		{"dana@example", ""},
		{"dana@-example.com", ""},
		{"dana@example.c0m", ""},
		{"Dana <dana@example.com>", ""},
		{"dana example@example.com", ""},
		{"@example.com", ""},
		{"dana@", ""},
		{"dana@@example.com", ""},
		{strings.Repeat("a", 65) + "@example.com", ""},
		{"", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			d, err := CheckPayPal(c.in)
			if c.want == "" {
				assert.Equal(t, "paypalEmail", web.AsError(err).Details[0].Field)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, d.PayPalEmail)
		})
	}
}

func TestMaskedDetailsNeverShowAWholeNumberOrAddress(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		whole Destination
		want  Destination
	}{
		{"a PayPal email", Destination{Kind: KindPayPal, PayPalEmail: "dana@example.com"}, Destination{Kind: KindPayPal, PayPalEmail: "d***@example.com"}},
		{"a one-letter address", Destination{Kind: KindPayPal, PayPalEmail: "d@example.com"}, Destination{Kind: KindPayPal, PayPalEmail: "d***@example.com"}},
		{"an IBAN", Destination{Kind: KindBank, IBAN: "DE89370400440532013000"}, Destination{Kind: KindBank, IBAN: "DE** **** **** **** **30 00"}},
		{"a UK account", Destination{Kind: KindBank, SortCode: "123456", AccountNumber: "12345678"}, Destination{Kind: KindBank, SortCode: "**-**-56", AccountNumber: "****5678"}},
		{"a short US account", Destination{Kind: KindBank, RoutingNumber: "021000021", AccountNumber: "9876"}, Destination{Kind: KindBank, RoutingNumber: "*****0021", AccountNumber: "**76"}},
		{"a long US account", Destination{Kind: KindBank, AccountNumber: "12345678901234567"}, Destination{Kind: KindBank, AccountNumber: "*************4567"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.whole.Masked()
			assert.Equal(t, c.want, got)
			for _, whole := range []string{c.whole.PayPalEmail, c.whole.IBAN, c.whole.AccountNumber, c.whole.RoutingNumber, c.whole.SortCode} {
				if whole != "" {
					assert.NotContains(t, got.Summary()+got.IBAN+got.AccountNumber+got.RoutingNumber+got.SortCode+got.PayPalEmail, whole)
				}
			}
		})
	}
}

func TestPayoutDetailsAreSealedAtRest(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.euro)
		_, err := f.m.SavePayPal(f.ctx, f.euro, pid, "secret.payee@example.com")
		require.NoError(t, err)
		_, err = f.m.SaveBank(f.ctx, f.euro, pid, BankInput{AccountHolder: "Erika Mustermann", IBAN: "DE89370400440532013000"})
		require.NoError(t, err)

		// What a database dump holds: no address, no account number, not even their ends.
		var dump []string
		require.NoError(t, f.db.Raw(`SELECT participant_id || kind || panel_id || sealed FROM payout_details`).Scan(&dump).Error)
		require.Len(t, dump, 2)
		for _, row := range dump {
			for _, secret := range []string{"secret.payee", "example.com", "DE89370400440532013000", "0532013000", "Mustermann"} {
				assert.NotContains(t, row, secret)
			}
		}

		d, err := f.m.Details(f.ctx, f.euro, pid, KindBank)
		require.NoError(t, err)
		assert.Equal(t, "DE89370400440532013000", d.IBAN, "the module opens what it sealed")

		// A sealed row copied to another member does not open for them.
		other := f.member(f.euro)
		require.NoError(t, f.db.Exec(`INSERT INTO payout_details (participant_id, kind, panel_id, sealed, created_at, updated_at)
			SELECT ?, kind, panel_id, sealed, created_at, updated_at FROM payout_details WHERE participant_id = ? AND kind = 'paypal'`, other, pid).Error)
		_, err = f.m.Details(f.ctx, f.euro, other, KindPayPal)
		assert.ErrorIs(t, err, web.ErrSealed)

		// Another app secret opens nothing.
		stranger, err := web.NewSealer(make([]byte, 32))
		require.NoError(t, err)
		var sealed string
		require.NoError(t, f.db.Raw(`SELECT sealed FROM payout_details WHERE participant_id = ? AND kind = 'bank'`, pid).Scan(&sealed).Error)
		_, err = stranger.Open(sealed, detailsBinding(pid, KindBank))
		assert.ErrorIs(t, err, web.ErrSealed)
	})
}

func TestRefusedPayoutDetailsLeaveTheStoredOnesAsTheyWere(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		save func(f *fixture, pid string) error
	}{
		{"a malformed IBAN", func(f *fixture, pid string) error {
			_, err := f.m.SaveBank(f.ctx, f.euro, pid, BankInput{AccountHolder: "Erika", IBAN: "DE00370400440532013000"})
			return err
		}},
		{"a bad email", func(f *fixture, pid string) error {
			_, err := f.m.SavePayPal(f.ctx, f.euro, pid, "not-an-email")
			return err
		}},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.euro)
				f.fund(f.euro, pid, 5000)
				_, err := f.m.SavePayPal(f.ctx, f.euro, pid, "erika@example.de")
				require.NoError(t, err)
				_, err = f.m.SaveBank(f.ctx, f.euro, pid, BankInput{AccountHolder: "Erika", IBAN: "DE89370400440532013000"})
				require.NoError(t, err)
				before := f.snapshot(f.euro, pid)
				require.Error(t, c.save(f, pid))
				assert.Equal(t, before, f.snapshot(f.euro, pid))
			})
		}
		// And a routing number that fails its checksum, on a US panel.
		pid := f.member(f.acme)
		f.saveBank(pid)
		before := f.snapshot(f.acme, pid)
		_, err := f.m.SaveBank(f.ctx, f.acme, pid, BankInput{AccountHolder: "Dana", RoutingNumber: "123456789", AccountNumber: "12345678", AccountType: "checking"})
		assert.Equal(t, "routingNumber", web.AsError(err).Details[0].Field)
		assert.Equal(t, before, f.snapshot(f.acme, pid))
	})
}
