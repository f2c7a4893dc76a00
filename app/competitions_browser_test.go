package main

import (
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// competitionRows are the titles of the transactions listed under Competitions.
func competitionRows(p *rod.Page) []string {
	var out []string
	for _, el := range p.MustElements("#tx-results > .tx-list .tx-row .tx-title") {
		out = append(out, el.MustText())
	}
	return out
}

func TestInChromiumAMemberEntersACompetitionOnTheThankYouPageAndFindsItUnderCompetitions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		noScript bool
	}{{"with JavaScript", false}, {"without JavaScript", true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowserEnv(t)
			id := b.importDraw(t, time.Now().UTC().AddDate(0, 1, 0).Truncate(time.Hour))
			p := b.signedInFeed(t, tc.noScript)
			invite := ".competition-invite"
			if tc.noScript {
				p.MustNavigate(b.url("localhost", "/survey/"+id)).MustWaitLoad()
				submit(p, `form[action$="/start"] button`)
				answerPage(p)
			} else {
				b.startSurvey(t, p, id)
				driver{t, p}.chooseAndNext("Which season do you like best?", "winter")
				invite = inBox + " " + invite
			}

			box := p.MustElement(invite)
			assert.Equal(t, "Enter the prize draw?", box.MustElement("h3").MustText())
			assert.Contains(t, box.MustText(), "Prize: a $50 gift card")
			assert.True(t, p.MustHas(".sb-spacer"), "the competition invitation's footer is the spacer")
			assert.False(t, p.MustHas(invite+" a.button"), "no way on before the member chooses")
			assert.Equal(t, "25.50", b.balanceOf(b.member()), "the completion is paid; the invitation is extra")

			if tc.noScript {
				submit(p, invite+` button[value="enter"]`)
			} else {
				click(p.MustElementR(invite+" button", "^Enter the draw$"))
			}
			status := p.MustElement(invite + " [role=status]")
			assert.Equal(t, "You're in the draw. Good luck!", status.MustText())
			assert.False(t, p.MustHas(invite+" button"), "entered: nothing more to choose")

			// The decision is kept: a reload shows it, and the way back to the feed.
			p.MustReload().MustWaitLoad()
			if !tc.noScript {
				p.MustElement(surveyIsland)
			}
			assert.Equal(t, "You're in the draw. Good luck!", p.MustElement(invite+" [role=status]").MustText())
			back := p.MustElementR(invite+" a.button", "Take me back to my feed")
			leave(p, "the way back to the feed", func() { click(back) })
			require.Equal(t, "/feed", path(p))

			p.MustNavigate(b.url("localhost", "/transactions?filter=competitions")).MustWaitLoad()
			assert.Contains(t, competitionRows(p), "Entered the draw: a $50 gift card")
			assert.Equal(t, "$25.50", p.MustElement("[data-balance]").MustText(), "entering moves no money")
			b.reconciledLedger()
		})
	}
}
