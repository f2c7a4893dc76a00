package mobile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNumbersAreNormalisedToE164(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, country string
		want               Number
	}{
		{"a US number in national form", "(202) 555-0143", "US", Number{"+12025550143", "US"}},
		{"a US number with its leading 1", "1 202 555 0143", "US", Number{"+12025550143", "US"}},
		{"a US number with dots", "202.555.0143", "us", Number{"+12025550143", "US"}},
		{"a US number in international form, whatever the country", "+1 202-555-0143", "GB", Number{"+12025550143", "US"}},
		{"a Canadian area code is CA", "416 555 0199", "US", Number{"+14165550199", "CA"}},
		{"a Canadian number typed in Canada", "+1 (604) 555-0123", "CA", Number{"+16045550123", "CA"}},
		{"a US number dialled with NANP's 011 prefix abroad", "011 44 7700 900123", "US", Number{"+447700900123", "GB"}},
		{"a UK mobile in national form", "07700 900123", "GB", Number{"+447700900123", "GB"}},
		{"a UK mobile without its trunk 0", "7700900123", "GB", Number{"+447700900123", "GB"}},
		{"a UK mobile in international form", "+44 7700 900123", "", Number{"+447700900123", "GB"}},
		{"a UK mobile with the (0) written in", "+44 (0)7700 900123", "", Number{"+447700900123", "GB"}},
		{"a UK mobile dialled with 00", "0044 7911 123456", "US", Number{"+447911123456", "GB"}},
		{"an Isle of Man mobile (7624)", "07624 123456", "GB", Number{"+447624123456", "GB"}},
		{"a German mobile in international form", "+49 151 23456789", "", Number{"+4915123456789", "DE"}},
		{"an Irish mobile names its country by the three-digit code", "+353 85 123 4567", "", Number{"+353851234567", "IE"}},
		{"a number of an unlisted calling code leaves its country empty", "+7 912 345 6789", "", Number{"+79123456789", ""}},
		{"a non-breaking space is ignored", "+44\u00a07700\u00a0900123", "", Number{"+447700900123", "GB"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.raw, tt.country)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNumbersThatCannotTakeAnSMSAreRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, country string
		want               error
	}{
		{"an empty number", "   ", "US", errPhoneEmpty},
		{"letters", "202-555-CALL", "US", errPhoneInvalid},
		{"a plus sign inside the number", "202+5550143", "US", errPhoneInvalid},
		{"a US number one digit short", "202 555 014", "US", errPhoneInvalid},
		{"a US number one digit long", "202 555 01434", "US", errPhoneInvalid},
		{"a US area code starting with 1", "102 555 0143", "US", errPhoneInvalid},
		{"a US area code starting with 0", "+1 020 555 0143", "", errPhoneInvalid},
		{"a US exchange starting with 1", "202 155 0143", "US", errPhoneInvalid},
		{"an N11 area code", "911 555 0143", "US", errPhoneInvalid},
		{"an N11 exchange", "202 411 0143", "US", errPhoneInvalid},
		{"a UK landline", "020 7946 0000", "GB", errPhoneInvalid},
		{"a UK landline in international form", "+44 20 7946 0000", "", errPhoneInvalid},
		{"a UK personal number (070)", "07012 345678", "GB", errPhoneInvalid},
		{"a UK pager (076, not 7624)", "07612 345678", "GB", errPhoneInvalid},
		{"a UK mobile one digit short", "07700 90012", "GB", errPhoneInvalid},
		{"an international number of 7 digits", "+49 12345", "", errPhoneInvalid},
		{"an international number of 16 digits", "+49 1512 3456 7890 12", "", errPhoneInvalid},
		{"a calling code starting with 0", "+0 123 456 789", "", errPhoneInvalid},
		{"a national number of a country without national rules", "0151 23456789", "DE", errPhoneInternational},
		{"a national number without any country", "0151 23456789", "", errPhoneInternational},
		{"a country that is not two letters", "07700 900123", "GBR", errCountry},
		{"a country with digits", "07700 900123", "G1", errCountry},
		{"an overlong input", "+44 7700 900123 7700 900123 7700 900123", "", errPhoneInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.raw, tt.country)
			assert.ErrorIs(t, err, tt.want, "got %+v", got)
		})
	}
}

func TestAPanelsDefaultCountryComesFromItsSettingsElseItsCurrency(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c, err := f.svc.DefaultCountry(f.ctx, f.acme)
		require.NoError(t, err)
		assert.Equal(t, "US", c, "USD")
		c, err = f.svc.DefaultCountry(f.ctx, f.globex)
		require.NoError(t, err)
		assert.Equal(t, "GB", c, "GBP")

		st := DefaultSettings(f.acme.ID)
		st.DefaultCountry = "ca"
		require.NoError(t, f.svc.SaveSettings(f.ctx, st))
		c, err = f.svc.DefaultCountry(f.ctx, f.acme)
		require.NoError(t, err)
		assert.Equal(t, "CA", c, "the setting wins")

		st.DefaultCountry = "Canada"
		assert.Error(t, f.svc.SaveSettings(f.ctx, st), "not an alpha-2 code")
	})
}
