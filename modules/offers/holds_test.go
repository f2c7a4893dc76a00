package offers_test

import (
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestACreditCeilingIsAPositiveAmountOfThePanelsCurrencyInMinorUnits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, ceiling, currency string
		minor                   int64
		ok                      bool
	}{
		{"none set", "", "USD", 0, true},
		{"whole units", "50", "USD", 5000, true},
		{"with cents", "12.34", "GBP", 1234, true},
		{"a currency without decimals", "500", "JPY", 500, true},
		{"more decimals than the currency has", "5.5", "JPY", 0, false},
		{"three decimals of dollars", "1.234", "USD", 0, false},
		{"zero", "0.00", "USD", 0, false},
		{"negative", "-5", "USD", 0, false},
		{"not a number", "ten", "USD", 0, false},
		{"an exponent", "1e3", "USD", 0, false},
		{"no currency to read it in", "50", "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			spec := &offers.Spec{BaseURL: "https://api.offers.example/v1", AppID: "app", PostbackSecret: "0123456789abcdef", CreditCeiling: c.ceiling}
			minor, err := spec.CeilingIn(c.currency)
			if !c.ok {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "offers.credit_ceiling")
				assert.Error(t, spec.ValidateIn(c.currency))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.minor, minor)
			assert.NoError(t, spec.ValidateIn(c.currency))
		})
	}
}
