package redemptions

import (
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const demoOptionsFile = `# every field
options:
  - id: paypal
    kind: paypal
    name: {en: PayPal, es: PayPal}
    description: {en: Paid to your PayPal account, es: Pagado a tu cuenta PayPal}
    minimum: 25.10
    fee: "0"
    position: 2
  - id: bank
    kind: bank
    name: Bank transfer
    fee: 0.50
    position: 1
  - id: gift
    kind: voucher
    name: {en: Gift card}
    enabled: false
`

func TestAnOptionsFileBuildsOptionsWithTheSpecsDefaultMinimum(t *testing.T) {
	t.Parallel()
	usd := &web.Panel{ID: "p1", Key: "acme", CurrencyCode: "USD", DefaultLanguage: "en"}
	file, err := ParseOptions("demo.yaml", []byte(demoOptionsFile))
	require.NoError(t, err)
	opts, err := file.Build("demo.yaml", usd)
	require.NoError(t, err)
	want := []Option{
		{PanelID: "p1", ID: "paypal", Kind: KindPayPal, Names: Text{"en": "PayPal", "es": "PayPal"}, Descriptions: Text{"en": "Paid to your PayPal account", "es": "Pagado a tu cuenta PayPal"}, MinimumMinor: 2510, FeeMinor: 0, Enabled: true, Position: 2},
		{PanelID: "p1", ID: "bank", Kind: KindBank, Names: Text{"": "Bank transfer"}, Descriptions: Text{}, MinimumMinor: 2000, FeeMinor: 50, Enabled: true, Position: 1},
		{PanelID: "p1", ID: "gift", Kind: KindVoucher, Names: Text{"en": "Gift card"}, Descriptions: Text{}, MinimumMinor: 2000, Enabled: false, Position: 3},
	}
	assert.Equal(t, want, opts)

	yen := &web.Panel{ID: "p2", Key: "nippon", CurrencyCode: "JPY", DefaultLanguage: "en"}
	file, err = ParseOptions("yen.yaml", []byte("options:\n  - {id: gift, kind: voucher, name: Gift}\n"))
	require.NoError(t, err)
	opts, err = file.Build("yen.yaml", yen)
	require.NoError(t, err)
	assert.Equal(t, int64(20), opts[0].MinimumMinor, "20 yen: the default minimum is 20 in the panel's currency")
}

func TestAnOptionsFileWithProblemsNamesEveryOneByLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		currency string
		file     string
		want     []string
	}{
		{
			name: "unknown fields", currency: "USD",
			file: "options:\n  - id: paypal\n    kind: paypal\n    name: PayPal\n    minimun: 5\n",
			want: []string{"x.yaml: line 5: field minimun not found in type redemptions.OptionSpec"},
		},
		{
			name: "every kind of bad option", currency: "JPY",
			file: `options:
  - id: Pay Pal
    kind: cheque
    name: ""
  - id: bank
    kind: bank
    name: {en: Bank, xx: Banco}
  - id: gift
    kind: voucher
    name: Gift
    minimum: "20.5"
    fee: "-1"
  - id: gift
    kind: voucher
    name: Gift
    minimum: "10"
    fee: "10"
`,
			want: []string{
				`x.yaml: line 2: option "Pay Pal": id must be 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit`,
				`x.yaml: line 2: option "Pay Pal": kind must be paypal, bank or voucher`,
				`x.yaml: line 2: option "Pay Pal": name is required`,
				`x.yaml: line 5: option "bank": bank transfer is offered for EUR, GBP and USD panels only, not JPY`,
				`x.yaml: line 5: option "bank": name: "xx" is not a supported language`,
				`x.yaml: line 8: option "gift": minimum "20.5": "20.5" has 1 decimals, JPY has 0: more decimals than the currency has`,
				`x.yaml: line 8: option "gift": fee can't be negative`,
				`x.yaml: line 13: option "gift": the id is used twice in the file`,
				`x.yaml: line 13: option "gift": the minimum must be more than the fee, or redeeming the minimum would pay out nothing`,
			},
		},
		{name: "no options", currency: "USD", file: "options: []\n", want: []string{"x.yaml: the file has no options"}},
		{name: "an empty file", currency: "USD", file: "", want: []string{"x.yaml: the file is empty: it needs an options list"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			panel := &web.Panel{ID: "p", Key: "k", CurrencyCode: c.currency, DefaultLanguage: "en"}
			file, err := ParseOptions("x.yaml", []byte(c.file))
			if err == nil {
				_, err = file.Build("x.yaml", panel)
			}
			var bad *InvalidOptionsError
			require.ErrorAs(t, err, &bad)
			assert.Equal(t, c.want, splitLines(err.Error()))
		})
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func TestApplyingOptionsTwiceChangesNothingTheSecondTime(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		file, err := ParseOptions("demo.yaml", []byte(demoOptionsFile))
		require.NoError(t, err)
		opts, err := file.Build("demo.yaml", f.acme)
		require.NoError(t, err)

		applied, err := f.m.ApplyOptions(f.ctx, f.acme, opts)
		require.NoError(t, err)
		assert.Equal(t, []Applied{{"paypal", "created"}, {"bank", "created"}, {"gift", "created"}}, applied)
		applied, err = f.m.ApplyOptions(f.ctx, f.acme, opts)
		require.NoError(t, err)
		assert.Equal(t, []Applied{{"paypal", "unchanged"}, {"bank", "unchanged"}, {"gift", "unchanged"}}, applied)

		opts[1].FeeMinor = 75
		applied, err = f.m.ApplyOptions(f.ctx, f.acme, opts[1:2])
		require.NoError(t, err)
		assert.Equal(t, []Applied{{"bank", "updated"}}, applied)

		stored, err := f.m.store.options(f.ctx, f.acme.ID, false)
		require.NoError(t, err)
		require.Len(t, stored, 3, "options missing from a file are kept")
		assert.Equal(t, []string{"bank", "paypal", "gift"}, []string{stored[0].ID, stored[1].ID, stored[2].ID}, "in position order")
		assert.Equal(t, int64(75), stored[0].FeeMinor)
		assert.Equal(t, Text{"en": "PayPal", "es": "PayPal"}, stored[1].Names)

		// All or none: a later bad option leaves the earlier ones of the same call unapplied.
		bad := []Option{{ID: "new-one", Kind: KindVoucher, Names: Text{"": "New"}, MinimumMinor: 100, Enabled: true}, {ID: "broken", Kind: KindVoucher, MinimumMinor: 100, FeeMinor: 100}}
		_, err = f.m.ApplyOptions(f.ctx, f.acme, bad)
		require.Error(t, err)
		stored, err = f.m.store.options(f.ctx, f.acme.ID, false)
		require.NoError(t, err)
		assert.Len(t, stored, 3)
	})
}

func TestATextIsReadInTheMembersLanguageThenThePanelsThenAny(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text       Text
		lang, dflt string
		want       string
	}{
		{Text{"en": "PayPal", "es": "PayPal ES"}, "es", "en", "PayPal ES"},
		{Text{"en": "PayPal", "es": "PayPal ES"}, "ru", "en", "PayPal"},
		{Text{"": "Plain"}, "ru", "en", "Plain"},
		{Text{"zh": "Z", "ru": "R"}, "es", "en", "R"},
		{Text{}, "es", "en", ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.text.In(c.lang, c.dflt), "%v in %s", c.text, c.lang)
	}
}
