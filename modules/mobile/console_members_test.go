package mobile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheConsoleSeesWhetherAMembersMobileIsVerifiedAndOnlyItsNumberMasked(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		none, pending, verified := f.member(f.acme), f.member(f.acme), f.member(f.acme)
		f.send(f.acme, pending, "+12025550143")
		f.verify(f.acme, verified, "+447700900123")

		cases := []struct {
			name, pid string
			want      MemberMobile
		}{
			{"no number", none, MemberMobile{Status: StatusNotVerified}},
			{"a number not verified", pending, MemberMobile{Status: StatusPending, MaskedNumber: "+1••••••••43"}},
			{"a verified number", verified, MemberMobile{Status: StatusVerified, Verified: true, MaskedNumber: "+44••••••••23"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.m.MemberMobile(f.ctx, f.acme, tc.pid)
				require.NoError(t, err)
				assert.Equal(t, tc.want.Status, got.Status)
				assert.Equal(t, tc.want.Verified, got.Verified)
				assert.Equal(t, tc.want.MaskedNumber, got.MaskedNumber)
				assert.Equal(t, tc.want.Verified, got.VerifiedAt != nil)
			})
		}
		got, err := f.m.MemberMobile(f.ctx, f.globex, verified)
		require.NoError(t, err)
		assert.Equal(t, StatusNotVerified, got.Status, "nothing through another panel")
	})
}

func TestANumberIsMaskedToItsLeadingDigitsAndLastTwo(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"": "", "+12025550143": "+1••••••••43", "+447700900123": "+44••••••••23", "+8613800138000": "+861••••••••00",
		"+123": "+•••", "+4930123": "+4••••23",
	} {
		assert.Equal(t, want, MaskNumber(in), in)
	}
}
