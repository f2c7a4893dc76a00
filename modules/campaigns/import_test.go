package campaigns

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importSetup is the module fixture: acme (USD; en, es) and globex (GBP; en) on a clock
// the test moves.
type importSetup = fixture

func eachImportSetup(t *testing.T, fn func(t *testing.T, s *importSetup)) { eachFixture(t, fn) }

func (s *importSetup) campaign(t *testing.T, id string) Campaign {
	t.Helper()
	var c Campaign
	require.NoError(t, s.db.Where("id = ?", id).Take(&c).Error)
	return c
}

func (s *importSetup) quotas(t *testing.T, id string) map[string]CampaignQuota {
	t.Helper()
	var rows []CampaignQuota
	require.NoError(t, s.db.Where("campaign_id = ?", id).Find(&rows).Error)
	out := map[string]CampaignQuota{}
	for _, r := range rows {
		out[r.QuotaID] = r
	}
	return out
}

func (s *importSetup) count(t *testing.T, model any) int64 {
	t.Helper()
	var n int64
	require.NoError(t, s.db.Model(model).Count(&n).Error)
	return n
}

// importedDef is a valid one-question campaign; edits adjust it.
func importedDef(edits ...func(*Definition)) *Definition {
	d := &Definition{
		UUID: uuid.NewString(), Type: TypeSurvey, Name: Text{"": "Coffee habits"}, Reward: "0.50", EstimatedMinutes: 3,
		Questions: []Question{{ID: "drink", ControlType: ControlRadio, Text: Text{"": "What do you drink?"},
			Answers: []Option{{ID: "coffee"}, {ID: "tea"}}}},
	}
	for _, e := range edits {
		e(d)
	}
	return d
}

func TestImportCreatesACampaignWithEveryColumnFromItsFile(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		doc := `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11
type: competition
default_language: es
name: {es: Gana un viaje, en: Win a trip}
description: {es: Tres preguntas}
reward: "1.25"
estimated_minutes: 7
priority: 4
opens_at: 2026-05-01T08:00:00Z
closes_at: 2026-06-01T08:00:00Z
survey_theme_guid: theme-1
competition: {prize: Un viaje, winners: 1}
targeting:
  languages: [en, es]
  profile: [{field: emailValidated, op: eq, value: true}]
quotas:
  - {id: all, limit: 100}
  - {id: tea, limit: 5, when: [{question: drink, op: eq, value: tea}]}
questions:
  - id: drink
    control_type: radio
    text: Bebida
    answers: [{id: coffee}, {id: tea}]
  - {id: why, control_type: textarea, text: Por qué}
`
		def, err := ParseFile("trip.yaml", []byte(doc))
		require.NoError(t, err)

		res, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		assert.Equal(t, &ImportResult{Created: []string{def.UUID}}, res)

		c := s.campaign(t, def.UUID)
		assert.Equal(t, s.acme.ID, c.PanelID)
		assert.Equal(t, TypeCompetition, c.Type)
		assert.Equal(t, "es", c.DefaultLanguage)
		assert.Equal(t, Text{"es": "Gana un viaje", "en": "Win a trip"}, c.Names)
		assert.Equal(t, Text{"es": "Tres preguntas"}, c.Descriptions)
		assert.EqualValues(t, 125, c.RewardMinor)
		assert.Equal(t, "USD", c.CurrencyCode)
		assert.Equal(t, 7, c.EstimatedMinutes)
		assert.Equal(t, 2, c.QuestionCount)
		assert.False(t, c.IsWelcome)
		assert.True(t, c.IsCompetition)
		assert.Equal(t, 4, c.Priority)
		require.NotNil(t, c.OpensAt)
		require.NotNil(t, c.ClosesAt)
		assert.True(t, c.OpensAt.Equal(time.Date(2026, 5, 1, 8, 0, 0, 0, time.UTC)), "opens_at %s", c.OpensAt)
		assert.True(t, c.ClosesAt.Equal(time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)), "closes_at %s", c.ClosesAt)
		assert.True(t, c.PublishedAt.Equal(*c.OpensAt), "published at opens_at, got %s", c.PublishedAt)
		assert.Equal(t, ",en,es,", c.AudienceLanguages)
		assert.Equal(t, []Condition{{Field: "emailValidated", Op: OpEq, Value: true}}, c.ProfileTargeting)
		assert.Equal(t, "theme-1", c.SurveyThemeGUID)
		assert.False(t, c.QuotaFull)
		assert.Empty(t, c.FullAudiences)
		assert.Equal(t, *def, c.Definition, "the whole definition is stored")
		assert.True(t, c.CreatedAt.Equal(s.clock))

		q := s.quotas(t, def.UUID)
		require.Len(t, q, 2)
		assert.Equal(t, CampaignQuota{CampaignID: def.UUID, QuotaID: "all", LimitCount: 100, Conditions: []Condition{}}, q["all"])
		assert.Equal(t, []Condition{{Question: "drink", Op: OpEq, Value: "tea"}}, q["tea"].Conditions)
	})
}

func TestImportFillsDefaultsForWhatTheFileLeavesOut(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		def := importedDef()
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)

		c := s.campaign(t, def.UUID)
		assert.Equal(t, "en", c.DefaultLanguage, "no default language means en")
		assert.Equal(t, "", c.AudienceLanguages, "no targeted languages means every language")
		assert.True(t, c.PublishedAt.Equal(s.clock), "no opens_at: published at the first import")
		assert.Nil(t, c.OpensAt)
		assert.Empty(t, c.ProfileTargeting)
		assert.Equal(t, Text{}, c.Descriptions)
		assert.False(t, c.IsCompetition)
	})
}

func TestReimportUpdatesTheSameRowAndIsIdempotent(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		def := importedDef()
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		created := s.clock

		s.clock = s.clock.Add(time.Hour)
		def.Name = Text{"": "Tea habits"}
		def.Priority = 9
		res, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		assert.Equal(t, &ImportResult{Updated: []string{def.UUID}}, res)

		s.clock = s.clock.Add(time.Hour)
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)

		assert.EqualValues(t, 1, s.count(t, &Campaign{}))
		c := s.campaign(t, def.UUID)
		assert.Equal(t, Text{"": "Tea habits"}, c.Names)
		assert.Equal(t, 9, c.Priority)
		assert.True(t, c.CreatedAt.Equal(created), "CreatedAt kept, got %s", c.CreatedAt)
		assert.True(t, c.PublishedAt.Equal(created), "PublishedAt kept while opens_at is unchanged, got %s", c.PublishedAt)
		assert.True(t, c.UpdatedAt.Equal(s.clock), "UpdatedAt moves, got %s", c.UpdatedAt)
	})
}

func TestReimportWithAnotherOpeningTimeMovesPublishedAt(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		opens := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		def := importedDef(func(d *Definition) { d.OpensAt = &opens })
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		assert.True(t, s.campaign(t, def.UUID).PublishedAt.Equal(opens))

		later := opens.Add(48 * time.Hour)
		def.OpensAt = &later
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		assert.True(t, s.campaign(t, def.UUID).PublishedAt.Equal(later))

		s.clock = s.clock.Add(time.Minute)
		def.OpensAt = nil
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		c := s.campaign(t, def.UUID)
		assert.Nil(t, c.OpensAt)
		assert.True(t, c.PublishedAt.Equal(s.clock), "opening removed: published now, got %s", c.PublishedAt)
	})
}

func TestABatchWithOneRewardTooPreciseForThePanelCurrencyImportsNothing(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		good := importedDef()
		bad := importedDef(func(d *Definition) { d.Reward = "0.505" }) // fine for the format, not for USD
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{good, bad})
		require.Error(t, err)
		assert.Contains(t, err.Error(), bad.UUID)
		assert.Contains(t, err.Error(), "reward")
		assert.ErrorIs(t, err, web.ErrMoneyDecimals)
		assert.EqualValues(t, 0, s.count(t, &Campaign{}), "nothing is imported")
		assert.EqualValues(t, 0, s.count(t, &CampaignQuota{}))
	})
}

func TestAFailureInsideTheTransactionRollsBackTheWholeBatch(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		theirs := importedDef()
		_, err := s.m.Import(s.ctx, s.globex, []*Definition{theirs})
		require.NoError(t, err)

		first := importedDef(func(d *Definition) { d.Quotas = []Quota{{ID: "all", Limit: 5}} })
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{first, theirs})
		require.Error(t, err)
		assert.EqualValues(t, 1, s.count(t, &Campaign{}), "the first campaign of the batch was rolled back")
		assert.EqualValues(t, 0, s.count(t, &CampaignQuota{}))
	})
}

func TestAnotherPanelsUUIDIsRefusedAndLeftUntouched(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		def := importedDef(func(d *Definition) { d.Quotas = []Quota{{ID: "all", Limit: 5}} })
		_, err := s.m.Import(s.ctx, s.globex, []*Definition{def})
		require.NoError(t, err)

		steal := *def
		steal.Name = Text{"": "Stolen"}
		steal.Quotas = nil
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{&steal})
		require.Error(t, err)
		assert.Contains(t, err.Error(), def.UUID)
		assert.Contains(t, err.Error(), "another panel")

		c := s.campaign(t, def.UUID)
		assert.Equal(t, s.globex.ID, c.PanelID)
		assert.Equal(t, Text{"": "Coffee habits"}, c.Names)
		assert.Equal(t, "GBP", c.CurrencyCode)
		assert.Len(t, s.quotas(t, def.UUID), 1, "the owner's quotas are untouched")
	})
}

func TestImportRefusesADefinitionThatBreaksTheRules(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		def := importedDef(func(d *Definition) { d.Questions[0].Answers = d.Questions[0].Answers[:1] })
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.Error(t, err)
		assert.Contains(t, err.Error(), def.UUID)
		assert.Contains(t, err.Error(), "/questions/0/answers: radio needs at least 2 answers")

		twice := importedDef()
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{twice, twice})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "appears twice")
		assert.EqualValues(t, 0, s.count(t, &Campaign{}))
	})
}

func TestQuotasKeepTheirCompletesAcrossReimportAndFullnessIsRecomputed(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		young := []Condition{{Field: "metadata.age", Op: OpLt, Value: 30.0}}
		tea := []Condition{{Question: "drink", Op: OpEq, Value: "tea"}}
		def := importedDef(func(d *Definition) {
			d.Quotas = []Quota{{ID: "all", Limit: 10}, {ID: "young", Limit: 2, When: young}, {ID: "tea", Limit: 1, When: tea}}
		})
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)

		// The survey engine counts completes.
		for id, n := range map[string]int{"all": 3, "young": 2, "tea": 1} {
			require.NoError(t, s.db.Model(&CampaignQuota{}).Where("campaign_id = ? AND quota_id = ?", def.UUID, id).Update("completes", n).Error)
		}
		require.NoError(t, refreshQuotaState(s.db, def.UUID))
		c := s.campaign(t, def.UUID)
		assert.False(t, c.QuotaFull, "the overall quota has room")
		assert.Equal(t, [][]Condition{young}, c.FullAudiences, "only full quotas on profile fields hide the campaign from an audience")

		def.Quotas[0].Limit = 3 // the overall quota is now reached
		def.Quotas[1].Limit = 4 // the young quota has room again
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)

		q := s.quotas(t, def.UUID)
		assert.Equal(t, 3, q["all"].Completes)
		assert.Equal(t, 3, q["all"].LimitCount)
		assert.Equal(t, 2, q["young"].Completes)
		assert.Equal(t, 4, q["young"].LimitCount)
		c = s.campaign(t, def.UUID)
		assert.True(t, c.QuotaFull)
		assert.Empty(t, c.FullAudiences)
	})
}

func TestRemovingAQuotaFromTheFileDeletesItsRow(t *testing.T) {
	t.Parallel()
	eachImportSetup(t, func(t *testing.T, s *importSetup) {
		def := importedDef(func(d *Definition) { d.Quotas = []Quota{{ID: "all", Limit: 1}, {ID: "tea", Limit: 1}} })
		_, err := s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		require.NoError(t, s.db.Model(&CampaignQuota{}).Where("campaign_id = ? AND quota_id = ?", def.UUID, "all").Update("completes", 1).Error)
		require.NoError(t, refreshQuotaState(s.db, def.UUID))
		require.True(t, s.campaign(t, def.UUID).QuotaFull)

		def.Quotas = def.Quotas[1:]
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		q := s.quotas(t, def.UUID)
		assert.Len(t, q, 1)
		assert.Contains(t, q, "tea")
		assert.False(t, s.campaign(t, def.UUID).QuotaFull, "the full quota went with its row")

		def.Quotas = nil
		_, err = s.m.Import(s.ctx, s.acme, []*Definition{def})
		require.NoError(t, err)
		assert.Empty(t, s.quotas(t, def.UUID))
	})
}

func TestImportRefusesLanguagesThePanelDoesNotOffer(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		cases := map[string]func(*Definition){
			"default_language":    func(d *Definition) { d.DefaultLanguage, d.Name = "es", Text{"es": "Café"} },
			"targeting.languages": func(d *Definition) { d.Targeting.Languages = []string{"en", "es"} },
		}
		for field, edit := range cases {
			_, err := f.m.Import(f.ctx, f.globex, []*Definition{definition("Coffee", edit)})
			require.Error(t, err, field)
			assert.Contains(t, err.Error(), field)
			assert.Contains(t, err.Error(), `"es" is not a language of panel globex`)
		}
		_, err := f.m.Import(f.ctx, f.acme, []*Definition{definition("Coffee", cases["targeting.languages"])})
		assert.NoError(t, err, "acme offers Spanish")
	})
}
