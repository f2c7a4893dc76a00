package competitions

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAMemberWhoCompletedTheCampaignEntersItsDrawOnceWithOneZeroRecord(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.acme, 5000, 3, ptr(f.clock.Add(48*time.Hour)))
		pid := f.entrant(f.acme, c)
		f.fund(f.acme, pid, 250)

		decision, err := f.m.Decision(f.ctx, f.acme, pid, c.CampaignID)
		require.NoError(t, err)
		assert.Equal(t, "", decision, "undecided")

		txID, err := f.enter(f.acme, pid, c)
		require.NoError(t, err)
		require.NotEmpty(t, txID)
		again, err := f.enter(f.acme, pid, c)
		require.NoError(t, err)
		assert.Equal(t, txID, again, "entering again returns the first entry's record")
		require.NoError(t, f.m.Enter(f.ctx, f.acme, pid, c.CampaignID, strings.ToUpper(c.ID), "en"), "the survey screen's call; the id in any case")

		decision, err = f.m.Decision(f.ctx, f.acme, pid, c.CampaignID)
		require.NoError(t, err)
		assert.Equal(t, surveys.DecisionEntered, decision)
		decision, err = f.m.Decision(f.ctx, f.globex, pid, c.CampaignID)
		require.NoError(t, err)
		assert.Equal(t, "", decision, "another panel sees no decision")

		records := f.keyed(pid, EntryKey(c.ID))
		require.Len(t, records, 1, "one ledger record however often the member enters")
		r := records[0]
		assert.Equal(t, txID, r.ID)
		assert.Equal(t, int64(0), r.AmountMinor)
		assert.True(t, r.Competition)
		assert.Equal(t, wallet.OriginCampaign, r.Origin)
		assert.Equal(t, c.CampaignID, *r.CampaignID)
		assert.Equal(t, "Entered the draw: a $50 gift card", r.Title)
		assert.Equal(t, int64(250), r.BalanceAfter)
		assert.Equal(t, int64(250), f.balance(f.acme, pid), "an entry moves no money")

		var entries []Entry
		require.NoError(t, f.db.Find(&entries).Error)
		require.Len(t, entries, 1)
		assert.Equal(t, Entry{
			CompetitionID: c.ID, ParticipantID: pid, CampaignID: c.CampaignID, PanelID: f.acme.ID, Decision: DecisionEntered,
			TransactionID: &txID, CreatedAt: f.clock, UpdatedAt: f.clock,
		}, normalized(entries[0]))
	})
}

// normalized reads times back in UTC (PostgreSQL answers in the session's zone).
func normalized(e Entry) Entry {
	e.CreatedAt, e.UpdatedAt = e.CreatedAt.UTC(), e.UpdatedAt.UTC()
	return e
}

func TestTheEntryTitleIsInTheMembersLanguage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ lang, title string }{
		{"en", "Entered the draw: a $50 gift card"},
		{"es", "Participación en el sorteo: una tarjeta regalo de 50 $"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				comp := f.competition(f.acme, 0, 1, nil)
				pid := f.entrant(f.acme, comp)
				_, err := f.m.EnterCompetition(f.ctx, f.acme, pid, comp.CampaignID, comp.ID, c.lang)
				require.NoError(t, err)
				assert.Equal(t, c.title, f.keyed(pid, EntryKey(comp.ID))[0].Title)
			})
		})
	}
}

func TestEveryRefusalToEnterOrDeclineWritesNothing(t *testing.T) {
	t.Parallel()
	type call func(f *fixture, pid string, c campaigns.CompetitionInfo) error
	enter := func(f *fixture, pid string, c campaigns.CompetitionInfo) error {
		_, err := f.enter(f.acme, pid, c)
		return err
	}
	reject := func(f *fixture, pid string, c campaigns.CompetitionInfo) error {
		return f.m.Reject(f.ctx, f.acme, pid, c.CampaignID)
	}
	cases := []struct {
		name string
		// setup returns the member who calls and the competition they call about.
		setup  func(f *fixture) (string, campaigns.CompetitionInfo)
		call   call
		status int
		id     string
		code   string
	}{
		{"entering a campaign that has no competition", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, nil)
			c.CampaignID = uuid.NewString()
			return f.member(f.acme), c
		}, enter, http.StatusNotFound, "error.not_found", ""},
		{"entering another panel's competition", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.globex, 5000, 1, nil)
			return f.member(f.acme), c // acme's catalogue has no such campaign
		}, enter, http.StatusNotFound, "error.not_found", ""},
		{"entering with another competition's id", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, nil)
			pid := f.entrant(f.acme, c)
			c.ID = f.competition(f.acme, 5000, 1, nil).ID
			return pid, c
		}, enter, http.StatusNotFound, "error.not_found", ""},
		{"entering with an id that is no uuid", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, nil)
			pid := f.entrant(f.acme, c)
			c.ID = "x"
			return pid, c
		}, enter, http.StatusNotFound, "error.not_found", ""},
		{"entering without completing the campaign", func(f *fixture) (string, campaigns.CompetitionInfo) {
			return f.member(f.acme), f.competition(f.acme, 5000, 1, nil)
		}, enter, http.StatusForbidden, "error.competition_not_completed", "competition_not_completed"},
		{"declining without completing the campaign", func(f *fixture) (string, campaigns.CompetitionInfo) {
			return f.member(f.acme), f.competition(f.acme, 5000, 1, nil)
		}, reject, http.StatusForbidden, "error.competition_not_completed", "competition_not_completed"},
		{"entering on the draw date", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, ptr(f.clock))
			return f.entrant(f.acme, c), c
		}, enter, http.StatusConflict, "error.competition_closed", "competition_closed"},
		{"declining after the draw date", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, ptr(f.clock.Add(-time.Second)))
			return f.entrant(f.acme, c), c
		}, reject, http.StatusConflict, "error.competition_closed", "competition_closed"},
		{"entering a competition drawn early", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, ptr(f.clock.Add(time.Hour)))
			f.entered(f.acme, c, 2)
			_, err := f.m.Draw(f.ctx, f.acme, c.ID, "olga", "sponsor asked", true)
			require.NoError(f.t, err)
			return f.entrant(f.acme, c), c
		}, enter, http.StatusConflict, "error.competition_closed", "competition_closed"},
		{"declining a competition drawn early", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, nil)
			f.entered(f.acme, c, 1)
			_, err := f.m.Draw(f.ctx, f.acme, c.ID, "olga", "no date", false)
			require.NoError(f.t, err)
			return f.entrant(f.acme, c), c
		}, reject, http.StatusConflict, "error.competition_closed", "competition_closed"},
		{"declining after entering", func(f *fixture) (string, campaigns.CompetitionInfo) {
			c := f.competition(f.acme, 5000, 1, nil)
			return f.entered(f.acme, c, 1)[0], c
		}, reject, http.StatusConflict, "error.competition_already_entered", "competition_already_entered"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				pid, c := tc.setup(f)
				f.fund(f.acme, pid, 100)
				before := f.snapshot()
				err := tc.call(f, pid, c)
				require.Error(t, err)
				e := web.AsError(err)
				assert.Equal(t, tc.status, e.Status, err.Error())
				assert.Equal(t, tc.id, e.ID)
				assert.Equal(t, tc.code, codeOf(err))
				assert.Equal(t, before, f.snapshot(), "a refusal writes nothing")
			})
		})
	}
}

func TestAMemberWhoDeclinedMayEnterAfterAllButNotTheOtherWayRound(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.acme, 5000, 1, nil)
		pid := f.entrant(f.acme, c)
		require.NoError(t, f.m.Reject(f.ctx, f.acme, pid, c.CampaignID))
		require.NoError(t, f.m.Reject(f.ctx, f.acme, pid, c.CampaignID), "declining twice is fine")
		decision, err := f.m.Decision(f.ctx, f.acme, pid, c.CampaignID)
		require.NoError(t, err)
		assert.Equal(t, surveys.DecisionRejected, decision)
		assert.Empty(t, f.ledger(pid), "declining writes nothing to the ledger")

		txID, err := f.enter(f.acme, pid, c)
		require.NoError(t, err, "entering after declining")
		decision, err = f.m.Decision(f.ctx, f.acme, pid, c.CampaignID)
		require.NoError(t, err)
		assert.Equal(t, surveys.DecisionEntered, decision)
		require.Len(t, f.ledger(pid), 1)
		assert.Equal(t, txID, f.ledger(pid)[0].ID)

		err = f.m.Reject(f.ctx, f.acme, pid, c.CampaignID)
		assert.Equal(t, "competition_already_entered", codeOf(err))
		decision, _ = f.m.Decision(f.ctx, f.acme, pid, c.CampaignID)
		assert.Equal(t, surveys.DecisionEntered, decision)
	})
}

func TestAMemberWhoEnteredStillHearsTheirEntryOnceTheDrawHasClosed(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		draw := f.clock.Add(time.Hour)
		c := f.competition(f.acme, 5000, 1, &draw)
		pid := f.entrant(f.acme, c)
		txID, err := f.enter(f.acme, pid, c)
		require.NoError(t, err)
		f.at(draw.Add(time.Minute))
		again, err := f.enter(f.acme, pid, c)
		require.NoError(t, err, "a replay is not a new entry")
		assert.Equal(t, txID, again)
		late := f.entrant(f.acme, c)
		_, err = f.enter(f.acme, late, c)
		assert.Equal(t, "competition_closed", codeOf(err))
	})
}

func TestFiftyEntriesAtOnceByOneMemberMakeOneEntryAndOneRecord(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.acme, 5000, 1, nil)
		pid := f.entrant(f.acme, c)
		ids := make([]string, 50)
		errs := make([]error, 50)
		race(50, func(i int) { ids[i], errs[i] = f.enter(f.acme, pid, c) })
		for i := range errs {
			require.NoError(t, errs[i])
			assert.Equal(t, ids[0], ids[i], "every request answers with the one record")
		}
		var n int64
		require.NoError(t, f.db.Model(&Entry{}).Where("participant_id = ?", pid).Count(&n).Error)
		assert.Equal(t, int64(1), n)
		records := f.keyed(pid, EntryKey(c.ID))
		require.Len(t, records, 1)
		assert.Equal(t, ids[0], records[0].ID)
		assert.Len(t, f.ledger(pid), 1)
	})
}

func TestEntriesDuringADrawAreEitherInTheDrawOrRefused(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.acme, 100, 5, nil)
		f.entered(f.acme, c, 3)
		late := make([]string, 20)
		for i := range late {
			late[i] = f.entrant(f.acme, c)
		}
		errs := make([]error, len(late)+1)
		race(len(late)+1, func(i int) {
			if i == len(late) {
				_, errs[i] = f.m.Draw(f.ctx, f.acme, c.ID, "olga", "monthly draw", false)
				return
			}
			_, errs[i] = f.enter(f.acme, late[i], c)
		})
		require.NoError(t, errs[len(late)], "the draw")
		v, err := f.m.Verify(f.ctx, c.ID)
		require.NoError(t, err)
		assert.True(t, v.OK(), "no entry slipped in beside the draw: %v", v.Problems)
		in := map[string]bool{}
		for _, id := range v.Entrants {
			in[id] = true
		}
		for i, pid := range late {
			if errs[i] == nil {
				assert.True(t, in[pid], "an entry that succeeded is in the draw")
			} else {
				assert.Equal(t, "competition_closed", codeOf(errs[i]), errs[i].Error())
				assert.False(t, in[pid])
				assert.Empty(t, f.keyed(pid, EntryKey(c.ID)), "a refused entry has no record")
			}
		}
	})
}
