package feed

import (
	"context"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Broken-campaign reports: a member reports a campaign that does not work for them, which
// hides it from their feed; user/reports lists them beside other modules' reports.

// Report is a member's broken-campaign report (reasonCode, reasonText).
type Report struct {
	ID            string `gorm:"primaryKey"`
	PanelID       string
	CampaignID    string
	ParticipantID string
	ReasonCode    string
	ReasonText    string
	CreatedAt     time.Time
}

// TableName: reports of campaigns, apart from the wallet's transaction reports.
func (Report) TableName() string { return "campaign_reports" }

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Report{}} }

// ReportRecency is the spec's "under 61 days" (web.ReportRecency).
const ReportRecency = web.ReportRecency

// ReasonCodes are the reasons a member may give for a broken campaign.
var ReasonCodes = []string{"not_loading", "error_message", "cannot_answer", "unfair_screen_out", "other"}

// Report records a broken-campaign report (and hides the campaign). A second report of the
// same campaign while the first is recent returns the first: created is false.
func (m *Module) Report(ctx context.Context, panel *web.Panel, who campaigns.Person, id, reasonCode, reasonText string) (*Report, bool, error) {
	in, err := web.BrokenReport{ReasonCode: reasonCode, ReasonText: reasonText}.Check(ReasonCodes)
	if err != nil {
		return nil, false, err
	}
	reasonText = in.ReasonText
	if err := m.catalogue.Exists(ctx, panel, id); err != nil {
		return nil, false, err
	}
	now := m.now().UTC()
	r := &Report{ID: uuid.NewString(), PanelID: panel.ID, CampaignID: id, ParticipantID: who.ID, ReasonCode: reasonCode, ReasonText: reasonText, CreatedAt: now}
	// The report hides the campaign it reports, in the same transaction.
	hide := func(tx *gorm.DB) error { return m.marks.HideTx(tx, panel, who.ID, id, now) }
	return m.store.report(ctx, r, now.Add(-ReportRecency), hide)
}

// Reports lists the member's reports, newest first.
func (m *Module) Reports(ctx context.Context, who campaigns.Person) ([]Report, error) {
	return m.store.reports(ctx, who.ID, 200)
}

// IsRecent tells whether a report is under 61 days old.
func (m *Module) IsRecent(r Report) bool { return m.now().Sub(r.CreatedAt) < web.ReportRecency }

// store owns the module's GORM calls.
type store struct {
	db *gorm.DB
}

// report stores a broken-campaign report and hides the campaign, in one transaction; a
// report of the same campaign by the same member since recentSince is returned instead.
func (s *store) report(ctx context.Context, r *Report, recentSince time.Time, hide func(tx *gorm.DB) error) (*Report, bool, error) {
	var out *Report
	created := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var existing []Report
		if err := tx.Where("participant_id = ? AND campaign_id = ? AND created_at > ?", r.ParticipantID, r.CampaignID, recentSince).
			Order("created_at DESC").Limit(1).Find(&existing).Error; err != nil {
			return err
		}
		if len(existing) > 0 {
			out = &existing[0]
			return nil
		}
		if err := tx.Create(r).Error; err != nil {
			return err
		}
		out, created = r, true
		return hide(tx)
	})
	if err != nil {
		return nil, false, fmt.Errorf("report campaign %s: %w", r.CampaignID, err)
	}
	return out, created, nil
}

// reports lists the member's broken-campaign reports, newest first.
func (s *store) reports(ctx context.Context, participantID string, limit int) ([]Report, error) {
	var out []Report
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("created_at DESC, id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list reports of %s: %w", participantID, err)
	}
	return out, nil
}
