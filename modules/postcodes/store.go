package postcodes

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Store owns every query on the postcodes table.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// likeEscape makes s a literal inside a LIKE pattern with ESCAPE '!'.
var likeEscape = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")

// List returns a panel's places in postcode order, at most limit.
func (s *Store) List(ctx context.Context, panelID string, limit int) ([]Place, error) {
	var out []Place
	err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Order("normalized, id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list postcodes of panel %s: %w", panelID, err)
	}
	return out, nil
}

// Search returns a panel's places whose normalized postcode starts with prefix or, when
// word is not empty, whose label has a word starting with word: the exact postcode first,
// then the other postcode matches, then the label matches, each in postcode order.
func (s *Store) Search(ctx context.Context, panelID, prefix, word string, limit int) ([]Place, error) {
	pre := likeEscape.Replace(prefix) + "%"
	q := s.db.WithContext(ctx).Where("panel_id = ?", panelID)
	if word == "" {
		q = q.Where("normalized LIKE ? ESCAPE '!'", pre)
	} else {
		q = q.Where("(normalized LIKE ? ESCAPE '!' OR words LIKE ? ESCAPE '!')", pre, "% "+likeEscape.Replace(word)+"%")
	}
	var out []Place
	err := q.Clauses(clause.OrderBy{Expression: clause.Expr{
		SQL:  "CASE WHEN normalized = ? THEN 0 WHEN normalized LIKE ? ESCAPE '!' THEN 1 ELSE 2 END, normalized, id",
		Vars: []any{prefix, pre},
	}}).Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("search postcodes of panel %s: %w", panelID, err)
	}
	return out, nil
}

// ByNormalized returns the place whose normalized postcode is norm (the first by id when
// several share it).
func (s *Store) ByNormalized(ctx context.Context, panelID, norm string) (Place, bool, error) {
	return s.first(ctx, "normalized", panelID, norm)
}

// ByID returns a panel's place with that id.
func (s *Store) ByID(ctx context.Context, panelID, id string) (Place, bool, error) {
	return s.first(ctx, "id", panelID, id)
}

func (s *Store) first(ctx context.Context, column, panelID, value string) (Place, bool, error) {
	var p Place
	err := s.db.WithContext(ctx).Where("panel_id = ? AND "+column+" = ?", panelID, value).Order("id").Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Place{}, false, nil
	}
	if err != nil {
		return Place{}, false, fmt.Errorf("postcode by %s %q of panel %s: %w", column, value, panelID, err)
	}
	return p, true, nil
}

// HasAny tells whether a panel has any place at all.
func (s *Store) HasAny(ctx context.Context, panelID string) (bool, error) {
	var ids []string
	if err := s.db.WithContext(ctx).Model(&Place{}).Where("panel_id = ?", panelID).Limit(1).Pluck("id", &ids).Error; err != nil {
		return false, fmt.Errorf("postcodes of panel %s: %w", panelID, err)
	}
	return len(ids) > 0, nil
}

// importBatch bounds the rows of one INSERT (SQLite allows 32766 parameters).
const importBatch = 500

// upsertColumns are what an import replaces; a row whose values are all the same is left
// alone, so importing a file again changes nothing (not even updated_at).
var upsertColumns = []string{"postcode", "normalized", "label", "locality", "region", "words"}

// Upsert writes places in one transaction, replacing those with the same (panel, id) whose
// values differ, and tells how many were new and how many changed.
func (s *Store) Upsert(ctx context.Context, panelID string, places []Place) (created, changed int, err error) {
	changedWhere := make([]string, len(upsertColumns))
	for i, c := range upsertColumns {
		changedWhere[i] = "postcodes." + c + " <> excluded." + c
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var before, after int64
		if err := tx.Model(&Place{}).Where("panel_id = ?", panelID).Count(&before).Error; err != nil {
			return fmt.Errorf("count postcodes: %w", err)
		}
		res := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "panel_id"}, {Name: "id"}},
			DoUpdates: clause.AssignmentColumns(append(upsertColumns, "updated_at")),
			Where:     clause.Where{Exprs: []clause.Expression{clause.Expr{SQL: strings.Join(changedWhere, " OR ")}}},
		}).CreateInBatches(places, importBatch)
		if res.Error != nil {
			return fmt.Errorf("write postcodes: %w", res.Error)
		}
		if err := tx.Model(&Place{}).Where("panel_id = ?", panelID).Count(&after).Error; err != nil {
			return fmt.Errorf("count postcodes: %w", err)
		}
		// Rows affected are the inserted and the updated rows; skipped ones are not counted.
		created = int(after - before)
		changed = int(res.RowsAffected) - created
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("import postcodes of panel %s: %w", panelID, err)
	}
	return created, changed, nil
}
