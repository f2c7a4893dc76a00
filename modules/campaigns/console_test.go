package campaigns

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const consoleDoc = `# A campaign the console edits.
uuid: 6f1c1f2e-4b7a-4f7e-9a55-3d2c1b0a9f01
type: survey
default_language: en
name: {en: "Coffee", es: "Café"}
reward: "1.00"
estimated_minutes: 3
quotas:
  - id: everyone
    limit: 10   # the first wave
questions:
  - id: q1
    control_type: radio
    text: {en: "Pick one", es: "Elige uno"}
    answers:
      - {id: yes, text: {en: "Yes", es: "Sí"}}
      - {id: no, text: {en: "No", es: "No"}}
`

const consoleID = "6f1c1f2e-4b7a-4f7e-9a55-3d2c1b0a9f01"

func TestAGeneratedDocumentReadsBackAsTheDefinitionItWasWrittenFrom(t *testing.T) {
	t.Parallel()
	cases := map[string]*Definition{
		"one language":       definition("Plain"),
		"an unlabelled text": definition("x", func(d *Definition) { d.Name = Text{"": "Hello"}; d.DefaultLanguage = "en" }),
		"dates, quotas, prices": definition("Dated", func(d *Definition) {
			at := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
			d.OpensAt = &at
			d.Reward = "0.50"
			d.Quotas = []Quota{{ID: "all", Limit: 5}}
		}),
	}
	for name, def := range cases {
		t.Run(name, func(t *testing.T) {
			text, err := DefinitionYAML(def)
			require.NoError(t, err)
			back, err := ParseFile("campaign.yaml", text)
			require.NoError(t, err, string(text))
			assert.Equal(t, def.UUID, back.UUID)
			assert.Equal(t, def.Reward, back.Reward)
			assert.Equal(t, def.Name, back.Name)
			assert.Equal(t, def.Quotas, back.Quotas)
			assert.Equal(t, def.OpensAt == nil, back.OpensAt == nil)
			assert.NotContains(t, string(text), "{}", "no empty blocks")
		})
	}
}

func TestADocumentWithProblemsIsRefusedWithTheLineOfEachAndNothingIsSaved(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		cases := []struct {
			name, doc string
			line      int
			path, msg string
		}{
			{"a schema error", strings.Replace(consoleDoc, "control_type: radio", "control_type: radoi", 1), 13, "/questions/0/control_type", "radio"},
			{"a language the panel does not offer", strings.Replace(consoleDoc, "estimated_minutes: 3", "estimated_minutes: 3\ntargeting:\n  languages: [en, ru]", 1), 9, "/targeting/languages/1", "not a language of this panel"},
			{"a reward the currency cannot hold", strings.Replace(consoleDoc, `reward: "1.00"`, `reward: "1.005"`, 1), 6, "/reward", "USD"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(tc.doc), DocumentRule{New: true})
				var probs *Problems
				require.ErrorAs(t, err, &probs)
				require.NotEmpty(t, probs.List)
				assert.Equal(t, tc.line, probs.List[0].Line, probs.Error())
				assert.Equal(t, tc.path, probs.List[0].Path)
				assert.Contains(t, probs.List[0].Message, tc.msg)
				assert.ErrorIs(t, f.m.Exists(f.ctx, f.acme, consoleID), ErrNotFound)
			})
		}
	})
}

func TestASavedDocumentIsImportedWithItsTextAndTheSameTextAgainChangesNothing(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		saved, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(consoleDoc), DocumentRule{New: true})
		require.NoError(t, err)
		assert.True(t, saved.Created)
		src, generated, err := f.m.SourceOf(f.ctx, f.acme, consoleID)
		require.NoError(t, err)
		assert.False(t, generated)
		assert.Equal(t, consoleDoc, src.Source, "the text as written, comments and all")

		again, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(consoleDoc), DocumentRule{New: true})
		require.NoError(t, err, "the same create sent twice")
		assert.True(t, again.Unchanged)

		edited := strings.Replace(consoleDoc, `reward: "1.00"`, `reward: "2.00"`, 1)
		_, err = f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(edited), DocumentRule{New: true})
		assert.ErrorContains(t, err, "is a campaign of this panel already")
		up, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(edited), DocumentRule{ID: consoleID})
		require.NoError(t, err)
		assert.False(t, up.Created)
		assert.Equal(t, "1.00", up.Before.Reward)
		c, err := f.m.Campaign(f.ctx, f.acme, consoleID)
		require.NoError(t, err)
		assert.EqualValues(t, 200, c.RewardMinor)

		_, err = f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(edited), DocumentRule{ID: "8a0c3c61-0c5e-4d0e-8a55-000000000001"})
		assert.ErrorContains(t, err, "must stay", "an edit keeps its uuid")
		_, err = f.m.SaveDocument(f.ctx, f.globex, "coffee.yaml", []byte(strings.Replace(edited, "1.00", "1.00", 1)), DocumentRule{})
		assert.ErrorContains(t, err, "another panel", "a uuid of another panel's campaign")
	})
}

func TestACampaignWithoutItsTextShowsItsDefinitionAsYAML(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Imported"))[0]
		src, generated, err := f.m.SourceOf(f.ctx, f.acme, id)
		require.NoError(t, err)
		assert.True(t, generated)
		assert.Contains(t, src.Source, "uuid: "+id)
		_, err = ParseFile(src.FileName, []byte(src.Source))
		assert.NoError(t, err)
		_, _, err = f.m.SourceOf(f.ctx, f.globex, id)
		assert.ErrorIs(t, err, ErrNotFound, "another panel's campaign")
	})
}

func TestClosingAndOpeningACampaignEditsItsDatesAndDoingItTwiceChangesNothing(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(consoleDoc), DocumentRule{New: true})
		require.NoError(t, err)
		state := func() string {
			c, err := f.m.Campaign(f.ctx, f.acme, consoleID)
			require.NoError(t, err)
			return f.m.State(c)
		}
		assert.Equal(t, StateOpen, state())

		closed, err := f.m.SetOpen(f.ctx, f.acme, consoleID, false)
		require.NoError(t, err)
		assert.False(t, closed.Unchanged)
		assert.Equal(t, StateClosed, state())
		src, _, err := f.m.SourceOf(f.ctx, f.acme, consoleID)
		require.NoError(t, err)
		assert.Contains(t, src.Source, `closes_at: "2026-11-22T12:00:00Z"`)
		assert.Contains(t, src.Source, "# the first wave", "the author's comments stay")
		again, err := f.m.SetOpen(f.ctx, f.acme, consoleID, false)
		require.NoError(t, err)
		assert.True(t, again.Unchanged)

		f.clock = f.clock.Add(time.Hour)
		opened, err := f.m.SetOpen(f.ctx, f.acme, consoleID, true)
		require.NoError(t, err)
		assert.False(t, opened.Unchanged)
		assert.Equal(t, StateOpen, state())
		again, err = f.m.SetOpen(f.ctx, f.acme, consoleID, true)
		require.NoError(t, err)
		assert.True(t, again.Unchanged)

		// A scheduled campaign opens now.
		later := strings.Replace(consoleDoc, "estimated_minutes: 3", "estimated_minutes: 3\nopens_at: \"2027-01-01T00:00:00Z\"", 1)
		_, err = f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(later), DocumentRule{ID: consoleID})
		require.NoError(t, err)
		assert.Equal(t, StateScheduled, state())
		_, err = f.m.SetOpen(f.ctx, f.acme, consoleID, true)
		require.NoError(t, err)
		assert.Equal(t, StateOpen, state())

		_, err = f.m.SetOpen(f.ctx, f.globex, consoleID, false)
		assert.ErrorIs(t, err, ErrNotFound)
	})
}

func TestADuplicateIsANewClosedCampaignAndTheSameKeyMakesOneCopy(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.json", []byte(`{"uuid": "`+consoleID+`", "type": "survey", "default_language": "en", "name": {"en": "Coffee"}, "reward": "1.00", "estimated_minutes": 2,
  "questions": [{"id": "q1", "control_type": "text", "text": "Say"}]}`), DocumentRule{New: true})
		require.NoError(t, err)
		first, err := f.m.Duplicate(f.ctx, f.acme, consoleID, "key-1")
		require.NoError(t, err)
		assert.True(t, first.Created)
		assert.NotEqual(t, consoleID, first.ID)
		second, err := f.m.Duplicate(f.ctx, f.acme, consoleID, "key-1")
		require.NoError(t, err)
		assert.Equal(t, first.ID, second.ID)
		assert.True(t, second.Unchanged)

		c, err := f.m.Campaign(f.ctx, f.acme, first.ID)
		require.NoError(t, err)
		assert.Equal(t, StateClosed, f.m.State(c))
		src, _, err := f.m.SourceOf(f.ctx, f.acme, first.ID)
		require.NoError(t, err)
		assert.Equal(t, "coffee.json", src.FileName)
		assert.True(t, strings.HasPrefix(src.Source, "{\n  \"uuid\": \""+first.ID+"\""), src.Source)
		rows, err := f.m.ConsoleList(f.ctx, f.acme)
		require.NoError(t, err)
		assert.Len(t, rows, 2)
	})
}

func TestAQuotaLimitIsEditedInTheDocumentAndItsCompletesAreKept(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, err := f.m.SaveDocument(f.ctx, f.acme, "coffee.yaml", []byte(consoleDoc), DocumentRule{New: true})
		require.NoError(t, err)
		require.NoError(t, f.db.Model(&CampaignQuota{}).Where("campaign_id = ?", consoleID).Update("completes", 4).Error)

		saved, err := f.m.SetQuotaLimit(f.ctx, f.acme, consoleID, "everyone", 4)
		require.NoError(t, err)
		assert.Equal(t, 10, saved.Before.Quotas[0].Limit)
		assert.Equal(t, 4, saved.After.Quotas[0].Limit)
		quotas, err := f.m.Quotas(f.ctx, f.acme, consoleID)
		require.NoError(t, err)
		require.Len(t, quotas, 1)
		assert.Equal(t, 4, quotas[0].LimitCount)
		assert.Equal(t, 4, quotas[0].Completes)
		rows, err := f.m.ConsoleList(f.ctx, f.acme)
		require.NoError(t, err)
		require.Len(t, rows, 1)
		assert.Equal(t, StateFull, rows[0].State, "a quota for everyone at its limit")
		assert.Equal(t, [2]int{4, 4}, [2]int{rows[0].QuotaCompletes, rows[0].QuotaLimit})

		again, err := f.m.SetQuotaLimit(f.ctx, f.acme, consoleID, "everyone", 4)
		require.NoError(t, err)
		assert.True(t, again.Unchanged)
		_, err = f.m.SetQuotaLimit(f.ctx, f.acme, consoleID, "nobody", 4)
		assert.True(t, errors.Is(err, ErrNoQuota))
		_, err = f.m.SetQuotaLimit(f.ctx, f.acme, consoleID, "everyone", 0)
		var probs *Problems
		assert.ErrorAs(t, err, &probs, "a limit below 1 is refused like in any document")
	})
}
