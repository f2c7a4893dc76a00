package mobile

import (
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

// joinedEligibility reads a member's row as the session query does (MemberJoin's columns and
// joins over the participant) and answers Eligibility from it, as a GET request would.
func (f *fixture) joinedEligibility(panel *web.Panel, pid string) string {
	f.t.Helper()
	j := f.m.MemberJoin()
	dest, keep := j.Scan()
	q := "SELECT " + strings.Join(j.Columns, ", ") + " FROM participants p " + j.From + " WHERE p.id = ?"
	require.NoError(f.t, f.db.Raw(q, pid).Row().Scan(dest...))
	app := fiber.New()
	c := app.AcquireCtx(&fasthttp.RequestCtx{})
	defer app.ReleaseCtx(c)
	web.SetPanel(c, panel)
	web.SetMember(c, &web.Member{ParticipantID: pid})
	keep(c)
	v, err := f.m.Eligibility(c)
	require.NoError(f.t, err)
	return v
}

func TestTheMobileRowReadWithTheSessionGivesTheSameEligibilityAsTheService(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		none := f.member(f.acme)
		unverified := f.member(f.acme)
		f.send(f.acme, unverified, "+12025550101")
		fresh := f.member(f.acme)
		f.verify(f.acme, fresh, "+12025550102")
		settled := f.member(f.acme)
		_, err := f.svc.SetVerified(f.ctx, f.acme, settled, "+12025550103", f.clock.Add(-30*24*time.Hour))
		require.NoError(t, err)
		stale := f.member(f.acme)
		_, err = f.svc.SetVerified(f.ctx, f.acme, stale, "+12025550104", f.clock.Add(-200*24*time.Hour))
		require.NoError(t, err)
		skip := f.member(f.globex)
		require.NoError(t, f.svc.store.SaveSettings(f.ctx, Settings{PanelID: f.globex.ID, RequireVerification: false, CoolingOffHours: 24, ReverifyAfterDays: 180, UpdatedAt: f.clock}))

		for _, c := range []struct {
			name  string
			panel *web.Panel
			pid   string
			want  string
		}{
			{"no number", f.acme, none, NotVerified},
			{"a number not verified", f.acme, unverified, NotVerifiedMobile},
			{"verified just now", f.acme, fresh, VerifiedTooRecently},
			{"verified a month ago", f.acme, settled, Yes},
			{"verified too long ago", f.acme, stale, Reverify},
			{"a panel that does not ask", f.globex, skip, Skip},
		} {
			t.Run(c.name, func(t *testing.T) {
				assert.Equal(t, c.want, f.eligibility(c.panel, c.pid), "the service")
				assert.Equal(t, c.want, f.joinedEligibility(c.panel, c.pid), "the session's row")
			})
		}
	})
}
