package accounts

import (
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/valyala/fasthttp"
)

func TestAJoinIsReadOnlyWithTheSessionOfTheRequestsThatShowIt(t *testing.T) {
	t.Parallel()
	pages := web.MemberJoin{Columns: []string{"a.x"}, From: "LEFT JOIN a ON a.p = p.id", When: func(c fiber.Ctx) bool { return !web.IsAPI(c) }}
	always := web.MemberJoin{Columns: []string{"b.y"}, From: "LEFT JOIN b ON b.p = p.id"}
	s := &Store{joins: []web.MemberJoin{pages, always}, sessionSQL: sessionQueries([]web.MemberJoin{pages, always})}
	app := fiber.New()
	for _, tc := range []struct {
		method, path string
		want         uint
	}{
		{fiber.MethodGet, "/feed", 0b11},
		{fiber.MethodHead, "/feed", 0b11},
		{fiber.MethodGet, "/api/v3/user/balance", 0b10},
		{fiber.MethodPost, "/feed/x/hide", 0}, // a write reads no joined row
		{fiber.MethodPost, "/api/v1/demo/campaigns/x/question/q", 0},
	} {
		ctx := &fasthttp.RequestCtx{}
		ctx.Request.Header.SetMethod(tc.method)
		ctx.Request.SetRequestURI(tc.path)
		c := app.AcquireCtx(ctx)
		mask := s.JoinsWanted(c)
		app.ReleaseCtx(c)
		assert.Equal(t, tc.want, mask, "%s %s", tc.method, tc.path)
		q := s.sessionSQL[mask]
		assert.Equal(t, mask&1 != 0, strings.Contains(q, "LEFT JOIN a ON"), "%s %s: the pages' join", tc.method, tc.path)
		assert.Equal(t, mask&2 != 0, strings.Contains(q, "LEFT JOIN b ON"), "%s %s: the other join", tc.method, tc.path)
	}
}
