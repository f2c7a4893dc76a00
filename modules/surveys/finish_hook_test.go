package surveys

import (
	"errors"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestFinishHooksSeeEveryRunThatEndsCompletedOrScreenedInItsTransaction(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		var mu sync.Mutex
		var seen []Finished
		refuse := false
		f.m.OnFinish(func(tx *gorm.DB, run Finished) error {
			if refuse {
				return errors.New("the hook refuses")
			}
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, run)
			return nil
		})
		id := f.campaigns(f.acme, resultsSurvey())[0]
		done := f.member(f.acme, "en", true, nil)
		f.start(f.acme, done, id)
		f.mustAnswer(f.acme, done, id, "q1", `"yes"`)
		assert.Empty(t, seen, "an answer that ends nothing")
		f.mustAnswer(f.acme, done, id, "q2", `["d"]`)
		f.mustAnswer(f.acme, done, id, "q3", `"fine"`)
		require.Len(t, seen, 1)
		assert.Equal(t, campaigns.StatusCompleted, seen[0].Status)
		assert.Equal(t, done.ID, seen[0].ParticipantID)
		assert.Equal(t, f.participation(done, id).ID, seen[0].ParticipationID)
		assert.Equal(t, f.acme.ID, seen[0].Panel.ID)
		assert.False(t, seen[0].StartedAt.IsZero())

		out := f.member(f.acme, "en", true, nil)
		f.start(f.acme, out, id)
		f.mustAnswer(f.acme, out, id, "q1", `"no"`)
		require.Len(t, seen, 2)
		assert.Equal(t, campaigns.StatusScreened, seen[1].Status)

		// A hook's error undoes the answer that ended the run: nothing half-written.
		refuse = true
		late := f.member(f.acme, "en", true, nil)
		f.start(f.acme, late, id)
		_, err := f.answer(f.acme, late, id, "q1", `"no"`)
		require.Error(t, err)
		assert.Equal(t, campaigns.StatusStarted, f.participation(late, id).Status)
		assert.Empty(t, f.storedAnswers(late, id))
	})
}
