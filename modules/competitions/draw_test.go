package competitions

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestADrawCreditsEachWinnerTheirPrizeExactlyOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		drawAt := f.clock.Add(24 * time.Hour)
		c := f.competition(f.acme, 5000, 3, &drawAt)
		entrants := f.entered(f.acme, c, 10)
		for _, pid := range entrants[:4] {
			f.fund(f.acme, pid, 125)
		}
		declined := f.entrant(f.acme, c)
		require.NoError(t, f.m.Reject(f.ctx, f.acme, declined, c.CampaignID))
		f.at(drawAt)

		d, err := f.m.Draw(f.ctx, f.acme, c.ID, " olga ", " the June draw ", false)
		require.NoError(t, err)
		r := d.Record
		assert.Equal(t, c.ID, r.CompetitionID)
		assert.Equal(t, c.CampaignID, r.CampaignID)
		assert.Equal(t, f.acme.ID, r.PanelID)
		assert.Len(t, r.Seed, 64)
		assert.Equal(t, 10, r.Entrants, "those who declined are not entrants")
		assert.Equal(t, Digest(entrants), r.EntrantsDigest)
		assert.Equal(t, 3, r.Winners)
		assert.Equal(t, []string{"olga", "the June draw"}, []string{r.Operator, r.Reason})
		assert.False(t, r.Early)
		assert.Equal(t, drawAt, r.DrawnAt.UTC())

		seed, err := hex.DecodeString(r.Seed)
		require.NoError(t, err)
		want := Rank(seed, entrants)[:3]
		require.Len(t, d.Winners, 3)
		won := map[string]bool{}
		for i, w := range d.Winners {
			assert.Equal(t, want[i], w.ParticipantID)
			assert.Equal(t, i+1, w.Rank)
			won[w.ParticipantID] = true
			prizes := f.keyed(w.ParticipantID, PrizeKey(c.ID))
			require.Len(t, prizes, 1, "one prize per winner")
			p := prizes[0]
			assert.Equal(t, *w.TransactionID, p.ID)
			assert.Equal(t, int64(5000), p.AmountMinor)
			assert.True(t, p.Competition)
			assert.Equal(t, wallet.OriginCampaign, p.Origin)
			assert.Equal(t, "Won: a $50 gift card", p.Title)
			assert.Equal(t, c.CampaignID, *p.CampaignID)
		}
		assert.Len(t, won, 3, "three different winners")
		for _, pid := range entrants {
			b := f.balance(f.acme, pid)
			var sum int64
			for _, e := range f.ledger(pid) {
				sum += e.AmountMinor
			}
			assert.Equal(t, sum, b, "the balance of %s is the sum of its entries", pid)
			if won[pid] {
				assert.Contains(t, []int64{5000, 5125}, b)
			} else {
				assert.Empty(t, f.keyed(pid, PrizeKey(c.ID)), "a member who did not win gets nothing")
				assert.Contains(t, []int64{0, 125}, b)
			}
		}

		_, err = f.m.Draw(f.ctx, f.acme, c.ID, "olga", "again", false)
		assert.ErrorIs(t, err, ErrAlreadyDrawn, "a competition is drawn once")
		for pid := range won {
			assert.Len(t, f.keyed(pid, PrizeKey(c.ID)), 1)
		}

		got, err := f.m.Show(f.ctx, f.acme, c.ID)
		require.NoError(t, err)
		assert.Equal(t, 10, got.Entered)
		assert.Equal(t, 1, got.Rejected)
		require.NotNil(t, got.Drawn)
		assert.Equal(t, r.Seed, got.Drawn.Seed)
		assert.Equal(t, d.Winners, got.Winners)
	})
}

func TestTwoDrawsAtOnceMakeOneDraw(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.acme, 5000, 2, nil)
		f.entered(f.acme, c, 6)
		draws := make([]*Draw, 4)
		errs := make([]error, 4)
		race(4, func(i int) { draws[i], errs[i] = f.m.Draw(f.ctx, f.acme, c.ID, "olga", "draw", false) })
		var won *Draw
		for i := range errs {
			if errs[i] == nil {
				require.Nil(t, won, "only one draw succeeds")
				won = draws[i]
				continue
			}
			assert.ErrorIs(t, errs[i], ErrAlreadyDrawn)
		}
		require.NotNil(t, won)
		var n, winners int64
		require.NoError(t, f.db.Model(&DrawRecord{}).Count(&n).Error)
		require.NoError(t, f.db.Model(&Winner{}).Count(&winners).Error)
		assert.Equal(t, int64(1), n)
		assert.Equal(t, int64(2), winners)
		var prizes int64
		require.NoError(t, f.db.Model(&wallet.Entry{}).Where("natural_key = ?", PrizeKey(c.ID)).Count(&prizes).Error)
		assert.Equal(t, int64(2), prizes, "each winner credited once")
	})
}

func TestADrawBeforeItsDateNeedsEarlyAndSaysSo(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		drawAt := f.clock.Add(time.Hour)
		c := f.competition(f.acme, 5000, 1, &drawAt)
		f.entered(f.acme, c, 2)
		before := f.snapshot()
		_, err := f.m.Draw(f.ctx, f.acme, c.ID, "olga", "impatient", false)
		require.ErrorIs(t, err, ErrTooEarly)
		assert.Contains(t, err.Error(), drawAt.Format(time.RFC3339))
		assert.Equal(t, before, f.snapshot(), "a refused draw writes nothing")

		d, err := f.m.Draw(f.ctx, f.acme, c.ID, "olga", "the sponsor asked", true)
		require.NoError(t, err)
		assert.True(t, d.Record.Early)
		assert.Len(t, d.Winners, 1)
	})
}

func TestADrawAfterItsDateOrWithoutADateIsNotEarly(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		dated := f.competition(f.acme, 5000, 1, ptr(f.clock.Add(-time.Hour)))
		undated := f.competition(f.acme, 5000, 1, nil)
		for _, id := range []string{dated.ID, undated.ID} {
			d, err := f.m.Draw(f.ctx, f.acme, id, "olga", "due", true)
			require.NoError(t, err)
			assert.False(t, d.Record.Early, "--early is only recorded when it was needed")
		}
	})
}

func TestADrawNeedsAnOperatorAReasonAndACompetitionOfThePanel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name               string
		operator, reason   string
		otherPanel, random bool
		want               error
	}{
		{"no operator", "", "monthly", false, false, ErrOperatorReason},
		{"a blank operator", "   ", "monthly", false, false, ErrOperatorReason},
		{"no reason", "olga", "", false, false, ErrOperatorReason},
		{"a blank reason", "olga", "\t", false, false, ErrOperatorReason},
		{"another panel's competition", "olga", "monthly", true, false, ErrNotFound},
		{"an unknown competition", "olga", "monthly", false, true, ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				c := f.competition(f.acme, 5000, 1, nil)
				f.entered(f.acme, c, 2)
				panel, id := f.acme, c.ID
				if tc.otherPanel {
					panel = f.globex
				}
				if tc.random {
					id = "5b0b7e0e-0000-4000-8000-000000000000"
				}
				before := f.snapshot()
				_, err := f.m.Draw(f.ctx, panel, id, tc.operator, tc.reason, true)
				require.ErrorIs(t, err, tc.want)
				assert.Equal(t, before, f.snapshot())
			})
		})
	}
}

func TestAPrizeThatIsNotMoneyIsRecordedAtZero(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.globex, 0, 1, nil)
		pid := f.entered(f.globex, c, 1)[0]
		f.fund(f.globex, pid, 300)
		d, err := f.m.Draw(f.ctx, f.globex, c.ID, "olga", "draw", false)
		require.NoError(t, err)
		require.Len(t, d.Winners, 1)
		prizes := f.keyed(pid, PrizeKey(c.ID))
		require.Len(t, prizes, 1)
		assert.Equal(t, int64(0), prizes[0].AmountMinor)
		assert.True(t, prizes[0].Competition)
		assert.Equal(t, "Won: a $50 gift card", prizes[0].Title)
		assert.Equal(t, *d.Winners[0].TransactionID, prizes[0].ID)
		assert.Equal(t, int64(300), f.balance(f.globex, pid), "the balance does not move")
	})
}

func TestWithFewerEntrantsThanPrizesEveryEntrantWinsAndWithNoneNobodyDoes(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		few := f.competition(f.acme, 1000, 5, nil)
		entrants := f.entered(f.acme, few, 2)
		d, err := f.m.Draw(f.ctx, f.acme, few.ID, "olga", "draw", false)
		require.NoError(t, err)
		assert.Equal(t, 5, d.Record.Winners)
		require.Len(t, d.Winners, 2)
		assert.ElementsMatch(t, entrants, []string{d.Winners[0].ParticipantID, d.Winners[1].ParticipantID})

		none := f.competition(f.acme, 1000, 3, nil)
		d, err = f.m.Draw(f.ctx, f.acme, none.ID, "olga", "draw", false)
		require.NoError(t, err)
		assert.Equal(t, 0, d.Record.Entrants)
		assert.Empty(t, d.Winners)
		v, err := f.m.Verify(f.ctx, none.ID)
		require.NoError(t, err)
		assert.True(t, v.OK(), v.Problems)
	})
}

func TestVerifyConfirmsADrawAndFindsATamperedOne(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		c := f.competition(f.acme, 5000, 2, nil)
		entrants := f.entered(f.acme, c, 8)
		d, err := f.m.Draw(f.ctx, f.acme, c.ID, "olga", "draw", false)
		require.NoError(t, err)

		v, err := f.m.Verify(f.ctx, c.ID)
		require.NoError(t, err)
		assert.True(t, v.OK(), v.Problems)
		assert.Equal(t, entrants, v.Entrants)
		assert.Equal(t, d.Record.EntrantsDigest, v.Digest)
		assert.Equal(t, []string{d.Winners[0].ParticipantID, d.Winners[1].ParticipantID}, v.Expected)

		// Someone swaps the first winner for an entrant who lost.
		var loser string
		for _, pid := range entrants {
			if pid != d.Winners[0].ParticipantID && pid != d.Winners[1].ParticipantID {
				loser = pid
				break
			}
		}
		require.NoError(t, f.db.Model(&Winner{}).Where("competition_id = ? AND rank = 1", c.ID).Update("participant_id", loser).Error)
		v, err = f.m.Verify(f.ctx, c.ID)
		require.NoError(t, err)
		assert.False(t, v.OK())
		assert.Equal(t, []string{"rank 1: the draw recorded " + loser + "; the seed ranks " + d.Winners[0].ParticipantID}, v.Problems)

		// Put back, then change the entrants instead.
		require.NoError(t, f.db.Model(&Winner{}).Where("competition_id = ? AND rank = 1", c.ID).Update("participant_id", d.Winners[0].ParticipantID).Error)
		require.NoError(t, f.db.Model(&Entry{}).Where("competition_id = ? AND participant_id = ?", c.ID, loser).Update("decision", DecisionRejected).Error)
		v, err = f.m.Verify(f.ctx, c.ID)
		require.NoError(t, err)
		assert.False(t, v.OK())
		assert.Contains(t, v.Problems, "the draw had 8 entrants; 7 are entered now")

		_, err = f.m.Verify(f.ctx, f.competition(f.acme, 5000, 1, nil).ID)
		assert.ErrorIs(t, err, ErrNotDrawn)
	})
}

func TestTheRankingIsTheOrderOfEachEntrantsHMACUnderTheSeed(t *testing.T) {
	t.Parallel()
	seed := make([]byte, SeedSize)
	for i := range seed {
		seed[i] = byte(i)
	}
	ids := []string{"a", "b", "c", "d", "e", "f"}
	score := func(id string) string {
		mac := hmac.New(sha256.New, seed)
		mac.Write([]byte(id))
		return hex.EncodeToString(mac.Sum(nil))
	}
	ranked := Rank(seed, ids)
	require.Len(t, ranked, len(ids))
	assert.ElementsMatch(t, ids, ranked)
	for i := 1; i < len(ranked); i++ {
		assert.Less(t, score(ranked[i-1]), score(ranked[i]), "hex of equal length orders as the bytes do")
	}
	assert.Equal(t, ranked, Rank(seed, []string{"f", "e", "d", "c", "b", "a"}), "the order of the input does not matter")
	other := append([]byte{}, seed...)
	other[0] ^= 1
	assert.NotEqual(t, ranked, Rank(other, ids), "another seed, another ranking")

	sum := sha256.Sum256([]byte("a\nb\nc"))
	assert.Equal(t, hex.EncodeToString(sum[:]), Digest([]string{"c", "a", "b"}))
	empty := sha256.Sum256(nil)
	assert.Equal(t, hex.EncodeToString(empty[:]), Digest(nil))
}

func TestTheListCountsEntriesAndDrawsPerCompetition(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		open := f.competition(f.acme, 5000, 1, ptr(f.clock.Add(time.Hour)))
		drawn := f.competition(f.acme, 0, 1, nil)
		f.competition(f.globex, 100, 1, nil)
		f.entered(f.acme, open, 3)
		f.entered(f.acme, drawn, 1)
		require.NoError(t, f.m.Reject(f.ctx, f.acme, f.entrant(f.acme, open), open.CampaignID))
		_, err := f.m.Draw(f.ctx, f.acme, drawn.ID, "olga", "draw", false)
		require.NoError(t, err)

		list, err := f.m.List(f.ctx, f.acme)
		require.NoError(t, err)
		require.Len(t, list, 2)
		byID := map[string]Summary{list[0].Info.ID: list[0], list[1].Info.ID: list[1]}
		assert.Equal(t, 3, byID[open.ID].Entered)
		assert.Equal(t, 1, byID[open.ID].Rejected)
		assert.Nil(t, byID[open.ID].Drawn)
		assert.Equal(t, 1, byID[drawn.ID].Entered)
		require.NotNil(t, byID[drawn.ID].Drawn)
		assert.Equal(t, "olga", byID[drawn.ID].Drawn.Operator)

		p, err := f.m.PanelOf(f.ctx, drawn.ID)
		require.NoError(t, err)
		assert.Equal(t, f.acme.ID, p.ID)
		_, err = f.m.PanelOf(f.ctx, "5b0b7e0e-0000-4000-8000-000000000000")
		assert.True(t, errors.Is(err, ErrNotFound))
	})
}
