package campaigns

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ImportResult lists the campaigns an import created and updated, by uuid, in input order.
type ImportResult struct {
	Created []string
	Updated []string
}

// Import creates or updates a panel's campaigns from definitions, all in one transaction:
// any error leaves the database as it was. Importing a uuid again updates that campaign
// (CreatedAt kept; PublishedAt kept unless opens_at changed) and its quotas (their completes
// kept). A uuid that belongs to another panel is refused: a tenant never moves or overwrites
// another's campaign.
func (m *Module) Import(ctx context.Context, panel *web.Panel, defs []*Definition) (*ImportResult, error) {
	if panel == nil || panel.ID == "" {
		return nil, errors.New("import campaigns: no panel")
	}
	rows := make([]*Campaign, len(defs))
	var errs []error
	seen := map[string]bool{}
	for i, def := range defs {
		if def == nil {
			errs = append(errs, fmt.Errorf("import campaign #%d: no definition", i+1))
			continue
		}
		if seen[def.UUID] {
			errs = append(errs, fmt.Errorf("import campaign %s: the uuid appears twice in the batch", def.UUID))
			continue
		}
		seen[def.UUID] = true
		row, err := campaignRow(panel, def)
		if err != nil {
			errs = append(errs, fmt.Errorf("import campaign %s: %w", def.UUID, err))
			continue
		}
		rows[i] = row
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	now := m.now().UTC()
	res := &ImportResult{}
	// The module's clock also stamps what GORM stamps itself (UpdatedAt on update).
	db := m.db.WithContext(ctx).Session(&gorm.Session{NowFunc: func() time.Time { return now }})
	err := db.Transaction(func(tx *gorm.DB) error {
		for i, row := range rows {
			created, err := upsertCampaign(tx, row, defs[i], now)
			if err != nil {
				return fmt.Errorf("import campaign %s: %w", row.ID, err)
			}
			if err := syncQuotas(tx, row.ID, defs[i].Quotas); err != nil {
				return fmt.Errorf("import campaign %s: %w", row.ID, err)
			}
			if err := refreshQuotaState(tx, row.ID); err != nil {
				return fmt.Errorf("import campaign %s: %w", row.ID, err)
			}
			if created {
				res.Created = append(res.Created, row.ID)
			} else {
				res.Updated = append(res.Updated, row.ID)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Other processes see the new updated_at; this one forgets at once (a re-import within
	// the same clock tick keeps its stamp).
	m.store.forget(res.Updated...)
	m.store.forgetLists()
	if m.log != nil {
		m.log.Info("campaigns imported", "panel", panel.Key, "created", len(res.Created), "updated", len(res.Updated))
	}
	return res, nil
}

// campaignRow checks a definition against the rules and the panel's currency and builds its
// row, without the timestamps the database decides.
func campaignRow(panel *web.Panel, def *Definition) (*Campaign, error) {
	if issues := checkDefinition(def); len(issues) > 0 {
		msgs := make([]string, len(issues))
		for i, is := range issues {
			msgs[i] = is.Path + ": " + is.Message
		}
		return nil, fmt.Errorf("invalid definition: %s", strings.Join(msgs, "; "))
	}
	reward, err := web.ParseMoney(def.Reward, panel.CurrencyCode)
	if err != nil {
		return nil, fmt.Errorf("reward: %w", err)
	}
	if def.Competition != nil && def.Competition.PrizeAmount != "" {
		if _, err := web.ParseMoney(def.Competition.PrizeAmount, panel.CurrencyCode); err != nil {
			return nil, fmt.Errorf("competition.prize_amount: %w", err)
		}
	}
	// A campaign in, or for, a language the panel does not offer would reach no one.
	if len(panel.Languages) > 0 {
		var errs []error
		if lang := cmp.Or(def.DefaultLanguage, "en"); !panel.Offers(lang) {
			errs = append(errs, fmt.Errorf("default_language %q is not a language of panel %s", lang, panel.Key))
		}
		for _, l := range def.Targeting.Languages {
			if !panel.Offers(l) {
				errs = append(errs, fmt.Errorf("targeting.languages: %q is not a language of panel %s", l, panel.Key))
			}
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	audience := ""
	if len(def.Targeting.Languages) > 0 {
		audience = "," + strings.Join(def.Targeting.Languages, ",") + ","
	}
	return &Campaign{
		ID:                def.UUID,
		PanelID:           panel.ID,
		Type:              def.Type,
		DefaultLanguage:   cmp.Or(def.DefaultLanguage, "en"),
		Names:             nonNilText(def.Name),
		Descriptions:      nonNilText(def.Description),
		RewardMinor:       reward,
		CurrencyCode:      panel.CurrencyCode,
		EstimatedMinutes:  def.EstimatedMinutes,
		QuestionCount:     len(def.Questions),
		IsWelcome:         def.IsWelcome,
		IsOnboarding:      def.Onboarding,
		IsFinalOnboarding: def.Onboarding && def.ThankYou.IsFinalOnboardingCampaign,
		IsCompetition:     def.Type == TypeCompetition || def.Competition != nil,
		Priority:          def.Priority,
		OpensAt:           utcPtr(def.OpensAt),
		ClosesAt:          utcPtr(def.ClosesAt),
		AudienceLanguages: audience,
		ProfileTargeting:  nonNilConditions(def.Targeting.Profile),
		FullAudiences:     [][]Condition{},
		SurveyThemeGUID:   def.SurveyThemeGUID,
		Definition:        *def,
	}, nil
}

// upsertCampaign writes the row; it tells whether the campaign is new.
func upsertCampaign(tx *gorm.DB, row *Campaign, def *Definition, now time.Time) (bool, error) {
	var existing Campaign
	err := tx.Where("id = ?", row.ID).Take(&existing).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		row.PublishedAt = now
		if row.OpensAt != nil {
			row.PublishedAt = *row.OpensAt
		}
		row.CreatedAt, row.UpdatedAt = now, now
		if err := tx.Create(row).Error; err != nil {
			return false, fmt.Errorf("create: %w", err)
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("load: %w", err)
	}
	if existing.PanelID != row.PanelID {
		return false, fmt.Errorf("the uuid %s belongs to another panel: refused", row.ID)
	}
	row.CreatedAt, row.UpdatedAt = existing.CreatedAt, now
	row.PublishedAt = existing.PublishedAt
	if !sameTime(existing.Definition.OpensAt, def.OpensAt) {
		row.PublishedAt = now
		if row.OpensAt != nil {
			row.PublishedAt = *row.OpensAt
		}
	}
	// Quota state is recomputed from the quota rows right after.
	row.QuotaFull, row.FullAudiences = existing.QuotaFull, nonNilAudiences(existing.FullAudiences)
	res := tx.Model(&Campaign{}).Where("id = ? AND panel_id = ?", row.ID, row.PanelID).Select("*").Omit("id", "created_at").Updates(row)
	if res.Error != nil {
		return false, fmt.Errorf("update: %w", res.Error)
	}
	if res.RowsAffected != 1 {
		return false, fmt.Errorf("update: %d rows changed", res.RowsAffected)
	}
	return false, nil
}

// syncQuotas makes the campaign's quota rows those of the definition: new ones start at zero
// completes, kept ones keep their completes with the new limit and conditions, the others go.
func syncQuotas(tx *gorm.DB, campaignID string, quotas []Quota) error {
	ids := make([]string, 0, len(quotas))
	for _, q := range quotas {
		row := CampaignQuota{CampaignID: campaignID, QuotaID: q.ID, LimitCount: q.Limit, Conditions: nonNilConditions(q.When)}
		err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "campaign_id"}, {Name: "quota_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"limit_count", "conditions"}),
		}).Create(&row).Error
		if err != nil {
			return fmt.Errorf("quota %s: %w", q.ID, err)
		}
		ids = append(ids, q.ID)
	}
	del := tx.Where("campaign_id = ?", campaignID)
	if len(ids) > 0 {
		del = del.Where("quota_id NOT IN ?", ids)
	}
	if err := del.Delete(&CampaignQuota{}).Error; err != nil {
		return fmt.Errorf("delete old quotas: %w", err)
	}
	return nil
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func nonNilText(t Text) Text {
	if t == nil {
		return Text{}
	}
	return t
}

func nonNilConditions(c []Condition) []Condition {
	if c == nil {
		return []Condition{}
	}
	return c
}

func nonNilAudiences(a [][]Condition) [][]Condition {
	if a == nil {
		return [][]Condition{}
	}
	return a
}
