package mobile

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEligibilityToRedeemFollowsTheMembersNumberAndThePanelsRules(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	tests := []struct {
		name     string
		settings func(*Settings)
		steps    func(f *fixture, pid string)
		want     string
	}{
		{name: "a member who never gave a number is not-verified", want: NotVerified},
		{
			name:  "a number on file but never verified is not-verified-mobile",
			steps: func(f *fixture, pid string) { f.validate(pid, "202 555 0143") },
			want:  NotVerifiedMobile,
		},
		{
			name: "a code sent but not entered is still not-verified-mobile",
			steps: func(f *fixture, pid string) {
				f.send(f.acme, pid, "202 555 0143")
			},
			want: NotVerifiedMobile,
		},
		{
			name: "a number verified a minute short of 24 hours ago is verified-too-recently",
			steps: func(f *fixture, pid string) {
				f.verify(f.acme, pid, "202 555 0143")
				f.clock = f.clock.Add(day - time.Minute)
			},
			want: VerifiedTooRecently,
		},
		{
			name:  "a number verified 24 hours ago is yes",
			steps: func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143"); f.clock = f.clock.Add(day) },
			want:  Yes,
		},
		{
			name:  "a number verified a day short of 180 days ago is yes",
			steps: func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143"); f.clock = f.clock.Add(179 * day) },
			want:  Yes,
		},
		{
			name:  "a number verified 180 days ago is reverify",
			steps: func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143"); f.clock = f.clock.Add(180 * day) },
			want:  Reverify,
		},
		{
			name: "a verified number replaced by another is reverify",
			steps: func(f *fixture, pid string) {
				f.verify(f.acme, pid, "202 555 0143")
				f.clock = f.clock.Add(30 * day)
				f.validate(pid, "202 555 0177")
			},
			want: Reverify,
		},
		{
			name: "putting the verified number back on file is yes again",
			steps: func(f *fixture, pid string) {
				f.verify(f.acme, pid, "202 555 0143")
				f.clock = f.clock.Add(30 * day)
				f.validate(pid, "202 555 0177")
				f.validate(pid, "+1 202 555 0143")
			},
			want: Yes,
		},
		{
			name: "verifying a new number starts the cooling-off again",
			steps: func(f *fixture, pid string) {
				f.verify(f.acme, pid, "202 555 0143")
				f.clock = f.clock.Add(30 * day)
				f.verify(f.acme, pid, "202 555 0177")
			},
			want: VerifiedTooRecently,
		},
		{
			name:     "a panel that does not require verification is skip",
			settings: func(s *Settings) { s.RequireVerification = false },
			want:     Skip,
		},
		{
			name:     "skip whatever the member's number",
			settings: func(s *Settings) { s.RequireVerification = false },
			steps:    func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143"); f.clock = f.clock.Add(400 * day) },
			want:     Skip,
		},
		{
			name:     "a panel without cooling-off is yes at once",
			settings: func(s *Settings) { s.CoolingOffHours = 0 },
			steps:    func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143") },
			want:     Yes,
		},
		{
			name:     "a panel's own cooling-off",
			settings: func(s *Settings) { s.CoolingOffHours = 72 },
			steps: func(f *fixture, pid string) {
				f.verify(f.acme, pid, "202 555 0143")
				f.clock = f.clock.Add(71 * time.Hour)
			},
			want: VerifiedTooRecently,
		},
		{
			name:     "a panel's own re-verification period",
			settings: func(s *Settings) { s.ReverifyAfterDays = 30 },
			steps:    func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143"); f.clock = f.clock.Add(30 * day) },
			want:     Reverify,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				if tt.settings != nil {
					st := DefaultSettings(f.acme.ID)
					tt.settings(&st)
					require.NoError(t, f.svc.SaveSettings(f.ctx, st))
				}
				pid := f.member(f.acme)
				if tt.steps != nil {
					tt.steps(f, pid)
				}
				got := f.eligibility(f.acme, pid)
				assert.Equal(t, tt.want, got)
				assert.Equal(t, got == Yes || got == Skip, CanRedeem(got))
				assert.Equal(t, got, f.status(f.acme, pid).Eligibility, "user/mobile says the same")
			})
		})
	}
}

func TestAPanelWithoutSettingsHasTheDefaults(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		st, err := f.svc.Settings(f.ctx, f.acme.ID)
		require.NoError(t, err)
		assert.Equal(t, Settings{PanelID: f.acme.ID, RequireVerification: true, CoolingOffHours: 24, ReverifyAfterDays: 180}, st)

		st.RequireVerification, st.CoolingOffHours, st.ReverifyAfterDays = false, 0, 7
		require.NoError(t, f.svc.SaveSettings(f.ctx, st))
		got, err := f.svc.Settings(f.ctx, f.acme.ID)
		require.NoError(t, err)
		assert.False(t, got.RequireVerification, "false is stored, not taken for the default")
		assert.Equal(t, 7, got.ReverifyAfterDays)
		other, err := f.svc.Settings(f.ctx, f.globex.ID)
		require.NoError(t, err)
		assert.True(t, other.RequireVerification, "one panel's settings are its own")

		st.ReverifyAfterDays = 0
		assert.Error(t, f.svc.SaveSettings(f.ctx, st))
	})
}

func TestEligibilityOfAMemberOfAnotherPanelIsNotVerified(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.verify(f.acme, pid, "202 555 0143")
		f.clock = f.clock.Add(48 * time.Hour)
		assert.Equal(t, Yes, f.eligibility(f.acme, pid))
		assert.Equal(t, NotVerified, f.eligibility(f.globex, pid), "a panel sees only its own members' numbers")
	})
}

// validate puts a number on file for a member of acme.
func (f *fixture) validate(pid, phone string) {
	f.t.Helper()
	_, err := f.svc.Validate(f.ctx, f.acme, pid, phone, "", "code")
	require.NoError(f.t, err)
}
