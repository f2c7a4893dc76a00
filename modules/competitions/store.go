package competitions

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
)

// timeUnit is the precision times are stored with (PostgreSQL keeps microseconds).
const timeUnit = time.Microsecond

// Store owns every GORM call of the module. Methods taking a *gorm.DB run on the caller's
// transaction (or db.WithContext(ctx)); the others take ctx first.
type Store struct {
	db *gorm.DB
}

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// entry is a member's decision on a competition; nil when they have not decided.
func (s *Store) entry(db *gorm.DB, competitionID, participantID string) (*Entry, error) {
	var e Entry
	err := db.Where("competition_id = ? AND participant_id = ?", competitionID, participantID).Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load entry of %s in competition %s: %w", participantID, competitionID, err)
	}
	return &e, nil
}

// decide writes a member's decision unless they have entered already (an entry is never
// taken back): it tells whether the row was written. Of two requests at once, the second
// waits on the row and then sees the first's decision.
func (s *Store) decide(tx *gorm.DB, e Entry) (bool, error) {
	res := tx.Exec(`INSERT INTO competition_entries (competition_id, participant_id, campaign_id, panel_id, decision, transaction_id, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, NULL, ?, ?)
		ON CONFLICT (competition_id, participant_id) DO UPDATE SET decision = excluded.decision, updated_at = excluded.updated_at
		WHERE competition_entries.decision <> 'entered'`,
		e.CompetitionID, e.ParticipantID, e.CampaignID, e.PanelID, e.Decision, e.CreatedAt, e.UpdatedAt)
	if res.Error != nil {
		return false, fmt.Errorf("record %s of %s in competition %s: %w", e.Decision, e.ParticipantID, e.CompetitionID, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// linkEntry stores the ledger record of an entry.
func (s *Store) linkEntry(tx *gorm.DB, competitionID, participantID, transactionID string) error {
	err := tx.Model(&Entry{}).Where("competition_id = ? AND participant_id = ?", competitionID, participantID).UpdateColumn("transaction_id", transactionID).Error
	if err != nil {
		return fmt.Errorf("link entry of %s in competition %s to the ledger: %w", participantID, competitionID, err)
	}
	return nil
}

// lockEntries keeps every entry as it is until the transaction ends, so a draw ranks exactly
// the entrants there are: on PostgreSQL a table lock that waits for entries being written and
// holds off new ones (and other draws); a SQLite write transaction already holds the
// database's write lock (it begins IMMEDIATE).
func (s *Store) lockEntries(tx *gorm.DB) error {
	if migrations.DialectOf(tx) != migrations.Postgres {
		return nil
	}
	if err := tx.Exec(`LOCK TABLE competition_entries IN SHARE ROW EXCLUSIVE MODE`).Error; err != nil {
		return fmt.Errorf("lock competition entries: %w", err)
	}
	return nil
}

// draw is a competition's draw; nil when it has not been drawn.
func (s *Store) draw(db *gorm.DB, competitionID string) (*DrawRecord, error) {
	var d DrawRecord
	err := db.Where("competition_id = ?", competitionID).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load draw of competition %s: %w", competitionID, err)
	}
	return &d, nil
}

// entrants are the ids of the members who entered a competition, sorted by their bytes (in
// Go: a database's collation may order them otherwise).
func (s *Store) entrants(db *gorm.DB, competitionID string) ([]string, error) {
	var ids []string
	err := db.Model(&Entry{}).Where("competition_id = ? AND decision = ?", competitionID, DecisionEntered).Pluck("participant_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("load entrants of competition %s: %w", competitionID, err)
	}
	sort.Strings(ids)
	return ids, nil
}

// winners are a draw's winners by rank.
func (s *Store) winners(db *gorm.DB, competitionID string) ([]Winner, error) {
	var out []Winner
	if err := db.Where("competition_id = ?", competitionID).Order("rank").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("load winners of competition %s: %w", competitionID, err)
	}
	return out, nil
}

// tally counts a panel's decisions by competition.
type tally struct {
	Entered, Rejected int
}

func (s *Store) tallies(ctx context.Context, panelID string) (map[string]tally, error) {
	var rows []struct {
		CompetitionID string
		Decision      string
		N             int
	}
	err := s.db.WithContext(ctx).Model(&Entry{}).Select("competition_id, decision, COUNT(*) AS n").
		Where("panel_id = ?", panelID).Group("competition_id, decision").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count competition entries: %w", err)
	}
	out := map[string]tally{}
	for _, r := range rows {
		t := out[r.CompetitionID]
		if r.Decision == DecisionEntered {
			t.Entered = r.N
		} else {
			t.Rejected = r.N
		}
		out[r.CompetitionID] = t
	}
	return out, nil
}

// draws are a panel's draws by competition.
func (s *Store) draws(ctx context.Context, panelID string) (map[string]DrawRecord, error) {
	var rows []DrawRecord
	if err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load draws: %w", err)
	}
	out := make(map[string]DrawRecord, len(rows))
	for _, r := range rows {
		out[r.CompetitionID] = r
	}
	return out, nil
}
