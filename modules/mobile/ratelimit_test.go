package mobile

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodesAreLimitedPerNumberAndPerMember(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limits Limits
		// phone is the number of the n-th code (0-based) and member the member who asks.
		phone  func(n int) string
		member func(n int) int
		sent   int
		id     string
	}{
		{
			name:   "three codes to one number in ten minutes, whoever asks",
			limits: DefaultLimits,
			phone:  func(int) string { return "202 555 0143" },
			member: func(n int) int { return n },
			sent:   3, id: "error.mobile_rate_phone",
		},
		{
			name:   "ten codes to one number a day",
			limits: Limits{PerPhone10Min: 100, PerPhoneDay: 10, PerMemberHour: 100},
			phone:  func(int) string { return "202 555 0143" },
			member: func(n int) int { return n },
			sent:   10, id: "error.mobile_rate_phone_day",
		},
		{
			name:   "five codes an hour to one member, whatever the number",
			limits: DefaultLimits,
			phone:  func(n int) string { return fmt.Sprintf("202 555 01%02d", n) },
			member: func(int) int { return 0 },
			sent:   5, id: "error.mobile_rate_member",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				f.svc.limits = tt.limits
				members := map[int]string{}
				member := func(n int) string {
					if members[n] == "" {
						members[n] = f.member(f.acme)
					}
					return members[n]
				}
				for n := range tt.sent {
					_, err := f.svc.Send(f.ctx, f.acme, member(tt.member(n)), "en", tt.phone(n), "", "country")
					require.NoError(t, err, "code %d", n+1)
				}
				_, err := f.svc.Send(f.ctx, f.acme, member(tt.member(tt.sent)), "en", tt.phone(tt.sent), "", "country")
				e := requireAPIError(t, err, http.StatusTooManyRequests, "rate_limited")
				assert.Equal(t, tt.id, e.ID)
				assert.Len(t, f.sms.Messages(), tt.sent, "nothing more was sent")

				_, err = f.svc.Send(f.ctx, f.acme, f.member(f.acme), "en", "202 555 0199", "", "country")
				assert.NoError(t, err, "another member and another number are not held back")
			})
		})
	}
}
