package campaigns

import (
	"fmt"
	"slices"

	"gorm.io/gorm"
)

// Quotas cap a campaign's completes. Import writes each quota's limit and conditions (their
// completes kept); the survey engine counts a complete in the transaction that records it.

// CountComplete counts a person's complete towards every quota of the campaign that their
// profile fields and answers match, in the caller's transaction. full: one of them is full,
// and the complete counts towards none (the campaign is quota_full for them). quotaID is
// the first quota it counted towards ("" when none matched).
func (m *Module) CountComplete(tx *gorm.DB, campaignID string, fields, answers map[string]any) (quotaID string, full bool, err error) {
	var quotas []CampaignQuota
	if err := tx.Where("campaign_id = ?", campaignID).Order("quota_id").Find(&quotas).Error; err != nil {
		return "", false, fmt.Errorf("load quotas of %s: %w", campaignID, err)
	}
	var counted []string
	for _, q := range quotas {
		if !MatchAll(q.Conditions, fields, answers) {
			continue
		}
		// The WHERE makes the count and the check one statement: two last completes can't both fit.
		res := tx.Model(&CampaignQuota{}).Where("campaign_id = ? AND quota_id = ? AND completes < limit_count", q.CampaignID, q.QuotaID).
			Update("completes", gorm.Expr("completes + 1"))
		if res.Error != nil {
			return "", false, fmt.Errorf("count quota %s: %w", q.QuotaID, res.Error)
		}
		if res.RowsAffected == 0 {
			// Full: this complete counts towards none of the quotas (the rows counted so far
			// are locked by this transaction, so taking the count back is exact).
			if len(counted) > 0 {
				err := tx.Model(&CampaignQuota{}).Where("campaign_id = ? AND quota_id IN ?", q.CampaignID, counted).
					Update("completes", gorm.Expr("completes - 1")).Error
				if err != nil {
					return "", false, fmt.Errorf("take back quota counts: %w", err)
				}
			}
			m.store.forgetLists() // this process lists it no longer; others within ListTTL
			return "", true, refreshQuotaState(tx, campaignID)
		}
		counted = append(counted, q.QuotaID)
		if q.Completes+1 >= q.LimitCount {
			m.store.forgetLists() // this complete filled the quota
		}
	}
	if len(counted) == 0 {
		return "", false, nil
	}
	return counted[0], false, refreshQuotaState(tx, campaignID)
}

// refreshQuotaState recomputes a campaign's QuotaFull (a quota without conditions is full)
// and FullAudiences (the conditions of full quotas that test only profile fields) from its
// quota rows. Import calls it, and the survey engine after counting a complete, in the
// transaction that changed the counts.
func refreshQuotaState(tx *gorm.DB, campaignID string) error {
	var quotas []CampaignQuota
	if err := tx.Where("campaign_id = ?", campaignID).Order("quota_id").Find(&quotas).Error; err != nil {
		return fmt.Errorf("load quotas: %w", err)
	}
	full := false
	audiences := [][]Condition{}
	for _, q := range quotas {
		if q.Completes < q.LimitCount {
			continue
		}
		if len(q.Conditions) == 0 {
			full = true
			continue
		}
		if !slices.ContainsFunc(q.Conditions, func(c Condition) bool { return c.Field == "" }) {
			audiences = append(audiences, q.Conditions)
		}
	}
	err := tx.Model(&Campaign{}).Where("id = ?", campaignID).Select("QuotaFull", "FullAudiences").
		Updates(&Campaign{QuotaFull: full, FullAudiences: audiences}).Error
	if err != nil {
		return fmt.Errorf("update quota state: %w", err)
	}
	return nil
}
