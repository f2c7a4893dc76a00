package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompetitionsCommandsRefuseIncompleteArgumentsBeforeTouchingTheDatabase(t *testing.T) {
	t.Setenv("USER", "")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "canvass competitions needs a command: draw, list, show, verify"},
		{"an unknown action", []string{"redraw", "x"}, `unknown command "redraw" for "canvass competitions"`},
		{"list with an id", []string{"list", "x"}, `canvass competitions list takes no arguments, got "x"`},
		{"show without an id", []string{"show"}, "canvass competitions show needs one competition ID"},
		{"verify of two ids", []string{"verify", "a", "b"}, "canvass competitions verify needs one competition ID, got 2: a b"},
		{"draw without an id", []string{"draw", "--operator", "olga", "--reason", "monthly"}, "canvass competitions draw needs one competition ID"},
		{"draw without a reason", []string{"draw", "x", "--operator", "olga"}, `required flag(s) "reason" not set`},
		{"draw without an operator", []string{"draw", "x", "--reason", "monthly"}, "canvass competitions draw needs --operator when $USER is not set"},
		{"an unknown flag", []string{"draw", "x", "--reason", "r", "--operator", "o", "--now"}, "unknown flag: --now"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := prepareCompetitionsCommand(c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	cc, err := prepareCompetitionsCommand([]string{"draw", "--early", "--operator", "olga", "the-id", "--reason", "sponsor asked"})
	require.NoError(t, err, "flags may come before and after the id")
	assert.Equal(t, []string{"draw", "the-id", "olga", "sponsor asked"}, []string{cc.action, cc.id, cc.operator, cc.reason})
	assert.True(t, cc.early)
}

// competitionsCLI runs one `canvass competitions` command against the env and returns its output.
func (e *env) competitionsCLI(args ...string) (string, error) {
	e.t.Helper()
	cc, err := prepareCompetitionsCommand(args)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = cc.run(context.Background(), e.app, &out)
	return out.String(), err
}

func TestOperatorsDrawTheDemoCompetitionEarlyAndVerifyIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		id := e.campaignID("demo", "Summer travel prize draw")
		x := campaigns.CompetitionID(id)
		c.completeCompetition(t, "/api/v1/demo/campaigns/"+id)
		require.Equal(t, http.StatusOK, c.decide("/api/v1/demo/campaigns/"+id+"/enter-competition/"+x).StatusCode)
		_, pid := e.demoParticipant()
		spring := campaigns.CompetitionID(e.campaignID("northwind", "Spring prize draw"))

		out, err := e.competitionsCLI("list")
		require.NoError(t, err)
		assert.Regexp(t, regexp.QuoteMeta(x)+` +demo +Summer travel prize draw +a \$50 gift card \(50\.00 USD\) +3 +2027-06-30T18:00:00Z +1 +0 +no\n`, out)
		assert.Contains(t, out, spring)
		assert.Contains(t, out, "2 competitions\n")
		out, err = e.competitionsCLI("list", "--panel", "northwind")
		require.NoError(t, err)
		assert.NotContains(t, out, x)
		assert.Contains(t, out, "1 competitions\n")

		out, err = e.competitionsCLI("show", x)
		require.NoError(t, err)
		assert.Regexp(t, `\nentered +1\n`, out)
		assert.Regexp(t, `\ndrawn +no\n`, out)

		_, err = e.competitionsCLI("draw", x, "--operator", "olga", "--reason", "summer is over")
		require.ErrorIs(t, err, competitions.ErrTooEarly)
		assert.Contains(t, err.Error(), "draws at 2027-06-30T18:00:00Z")
		_, err = e.competitionsCLI("verify", x)
		require.ErrorIs(t, err, competitions.ErrNotDrawn)

		out, err = e.competitionsCLI("draw", x, "--operator", "olga", "--reason", "the sponsor asked", "--early")
		require.NoError(t, err)
		t.Log("\n" + out)
		assert.Contains(t, out, "drew competition "+x+" (Summer travel prize draw) of panel demo\n")
		assert.Regexp(t, `\ndrawn +\S+ \(early: before the draw date\) by olga: the sponsor asked\n`, out)
		assert.Regexp(t, `\nseed +[0-9a-f]{64}\n`, out)
		assert.Regexp(t, `\nentrants +1\n`, out)
		assert.Regexp(t, `\ndigest +`+competitions.Digest([]string{pid})+`\n`, out)
		assert.Regexp(t, `\nwinners +1 of 3 asked\n`, out)
		assert.Regexp(t, `\n  1  `+pid+`  50\.00 USD credited \(transaction [0-9a-f-]{36}\)\n`, out)
		assert.Equal(t, "75.25", e.balanceOf(c), "25.00 + 0.25 for the survey + the 50.00 prize")

		_, err = e.competitionsCLI("draw", x, "--operator", "pat", "--reason", "again", "--early")
		require.ErrorIs(t, err, competitions.ErrAlreadyDrawn)
		assert.Contains(t, err.Error(), "by olga")
		assert.Equal(t, "75.25", e.balanceOf(c), "the prize is credited once")

		out, err = e.competitionsCLI("show", x, "--panel", "demo")
		require.NoError(t, err)
		assert.Contains(t, out, "by olga: the sponsor asked")
		assert.Contains(t, out, "  1  "+pid+"  50.00 USD credited")

		out, err = e.competitionsCLI("verify", x)
		require.NoError(t, err)
		assert.Contains(t, out, "  1  "+pid+"  "+pid+"  ok\n")
		assert.Contains(t, out, "verified: the recorded seed and entrants give the recorded winners\n")

		require.NoError(t, e.db.Model(&competitions.DrawRecord{}).Where("competition_id = ?", x).Update("entrants_digest", strings.Repeat("0", 64)).Error)
		out, err = e.competitionsCLI("verify", x)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "does not check out")
		assert.Contains(t, out, "problem: the entrants' digest is "+competitions.Digest([]string{pid}))

		_, err = e.competitionsCLI("show", "5b0b7e0e-0000-4000-8000-000000000000")
		assert.ErrorIs(t, err, competitions.ErrNotFound)
		e.reconciledLedger()
	})
}

func TestTheAutomaticDrawJobDrawsADueCompetitionThatAsksForItOnceAndItVerifies(t *testing.T) {
	t.Parallel()
	// The test runs the sweep's rounds itself: a job worker's own round (the sweep runs as the
	// workers start, and every period) could draw it between the import and round 1.
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		ctx := context.Background()
		c := e.member()
		id := e.campaignID("demo", "Summer travel prize draw")
		x := campaigns.CompetitionID(id)
		c.completeCompetition(t, "/api/v1/demo/campaigns/"+id)
		require.Equal(t, http.StatusOK, c.decide("/api/v1/demo/campaigns/"+id+"/enter-competition/"+x).StatusCode)
		_, pid := e.demoParticipant()
		spring := campaigns.CompetitionID(e.campaignID("northwind", "Spring prize draw"))

		// The demo's draw asks for an automatic draw, and its date has come.
		panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
		require.NoError(t, err)
		camp, err := e.app.Campaigns.Campaign(ctx, panel, id)
		require.NoError(t, err)
		def := camp.Definition
		due := time.Now().UTC().Add(-time.Minute).Truncate(time.Second)
		def.Competition.AutoDraw, def.Competition.DrawAt = true, &due
		_, err = e.app.Campaigns.Import(ctx, panel, []*campaigns.Definition{&def})
		require.NoError(t, err)

		for i := range 2 {
			drawn, err := e.app.Jobs.RunSweep(ctx, "competition_draws", time.Now().UTC())
			require.NoError(t, err, "round %d", i+1)
			assert.Equal(t, int64(1-i), drawn, "round %d: the first round draws it, the second finds it drawn", i+1)
		}
		var draws []competitions.DrawRecord
		require.NoError(t, e.db.Order("competition_id").Find(&draws).Error)
		require.Len(t, draws, 1, "one draw: Northwind's spring draw is not automatic")
		assert.Equal(t, x, draws[0].CompetitionID)
		assert.NotEqual(t, spring, draws[0].CompetitionID)
		assert.Equal(t, competitions.AutoDrawOperator, draws[0].Operator)

		out, err := e.competitionsCLI("show", x)
		require.NoError(t, err)
		assert.Contains(t, out, "by auto-draw: automatic draw at the draw date")
		out, err = e.competitionsCLI("verify", x)
		require.NoError(t, err)
		assert.Contains(t, out, "  1  "+pid+"  "+pid+"  ok\n")
		assert.Contains(t, out, "verified: the recorded seed and entrants give the recorded winners\n")
		assert.Equal(t, "75.25", e.balanceOf(c), "the prize is credited once")
		e.reconciledLedger()
	})
}
