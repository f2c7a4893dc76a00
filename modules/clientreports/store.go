package clientreports

import (
	"context"
	"fmt"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// SamplesPerHour is how many reports of one error are kept in full in each hour; the rest
// are only counted.
const SamplesPerHour = 5

// Store owns every query of the module's tables.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// Occurrence is one report to record: the payload and what the request said of its sender.
type Occurrence struct {
	PanelID string
	Payload Payload
	Sample  Report // who and where: the fields of the sample row but its ids and level
	At      time.Time
}

// Recorded tells what Record did: the error's id, its count after this report, and whether
// the report was kept as a sample.
type Recorded struct {
	ErrorID string
	Count   int64
	Sampled bool
}

// Record counts one report in one transaction: the error by fingerprint (created on its first
// report), its hour, and a sample while the hour has fewer than SamplesPerHour.
func (s *Store) Record(ctx context.Context, o Occurrence) (Recorded, error) {
	var out Recorded
	at := o.At.UTC()
	p := o.Payload
	err := migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		out = Recorded{}
		var row struct {
			ID    string
			Count int64
		}
		err := tx.Raw(`INSERT INTO client_errors (id, panel_id, fingerprint, level, name, message, source, lineno, colno, stack, arguments, count, first_seen_at, last_seen_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
ON CONFLICT (panel_id, fingerprint) DO UPDATE SET count = client_errors.count + 1, last_seen_at = excluded.last_seen_at
RETURNING id, count`, uuid.NewString(), o.PanelID, p.Fingerprint(), p.Level, p.Name, p.Message, p.Source, p.Lineno, p.Colno, p.Stack, p.Arguments, at, at).
			Scan(&row).Error
		if err != nil {
			return fmt.Errorf("count client error: %w", err)
		}
		out.ErrorID, out.Count = row.ID, row.Count
		var inHour int64
		err = tx.Raw(`INSERT INTO client_error_hours (error_id, hour, count) VALUES (?, ?, 1)
ON CONFLICT (error_id, hour) DO UPDATE SET count = client_error_hours.count + 1
RETURNING count`, row.ID, at.Truncate(time.Hour)).Scan(&inHour).Error
		if err != nil {
			return fmt.Errorf("count client error hour: %w", err)
		}
		if inHour > SamplesPerHour {
			return nil
		}
		r := o.Sample
		r.ID, r.ErrorID, r.PanelID, r.Level, r.CreatedAt = uuid.NewString(), row.ID, o.PanelID, p.Level, at
		if err := tx.Create(&r).Error; err != nil {
			return fmt.Errorf("keep client report: %w", err)
		}
		out.Sampled = true
		return nil
	})
	return out, err
}

// TopError is an error with its reports in a window.
type TopError struct {
	Error
	InWindow int64 // reports since the window's start
}

// Top lists a panel's errors ("" for every panel) by their reports since `since`, most first,
// at most limit. The window is counted in whole hours: since is rounded down to its hour.
func (s *Store) Top(ctx context.Context, panelID string, since time.Time, limit int) ([]TopError, error) {
	q := s.db.WithContext(ctx).Table("client_error_hours AS h").
		Select("e.*, CAST(SUM(h.count) AS BIGINT) AS in_window").
		Joins("JOIN client_errors AS e ON e.id = h.error_id").
		Where("h.hour >= ?", since.UTC().Truncate(time.Hour))
	if panelID != "" {
		q = q.Where("e.panel_id = ?", panelID)
	}
	var rows []TopError
	// Grouped by the primary key alone: both engines then allow the error's other columns.
	err := q.Group("e.id").
		Order("in_window DESC, e.last_seen_at DESC, e.id").Limit(limit).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("top client errors: %w", err)
	}
	return rows, nil
}

// ListedReport is a kept report with the error it is a sample of.
type ListedReport struct {
	Report
	Name      string
	Message   string
	Source    string
	Lineno    int
	Colno     int
	Arguments string
	Count     int64 // the error's reports in all
}

// Recent lists a panel's kept reports ("" for every panel), newest first, at most limit.
func (s *Store) Recent(ctx context.Context, panelID string, limit int) ([]ListedReport, error) {
	q := s.db.WithContext(ctx).Table("client_reports AS r").
		Select("r.*, e.name, e.message, e.source, e.lineno, e.colno, e.arguments, e.count").
		Joins("JOIN client_errors AS e ON e.id = r.error_id")
	if panelID != "" {
		q = q.Where("r.panel_id = ?", panelID)
	}
	var rows []ListedReport
	if err := q.Order("r.created_at DESC, r.id").Limit(limit).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("list client reports: %w", err)
	}
	return rows, nil
}

// Erase removes a closing member's kept reports (the pages they were on, their browser); the
// errors' counts stay, as they say nothing of anyone.
func (s *Store) Erase(tx *gorm.DB, participantID string) error {
	if err := tx.Where("participant_id = ?", participantID).Delete(&Report{}).Error; err != nil {
		return fmt.Errorf("erase client reports: %w", err)
	}
	return nil
}
