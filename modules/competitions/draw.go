package competitions

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Errors of the operators' commands.
var (
	ErrNotFound       = fmt.Errorf("no such competition: %w", web.ErrNotFound)
	ErrOperatorReason = errors.New("an operator and a reason are required")
	ErrTooEarly       = errors.New("the draw date has not come (draw early only when you must, and say why)")
	ErrAlreadyDrawn   = errors.New("the competition has been drawn already")
	ErrNotDrawn       = errors.New("the competition has not been drawn")
)

// SeedSize is the number of random bytes a draw is keyed with.
const SeedSize = 32

// Draw is a competition's draw as recorded, with its winners by rank.
type Draw struct {
	Record  DrawRecord
	Winners []Winner
}

// Draw draws the winners of a competition of the panel, once. It refuses a blank operator or
// reason, a draw before the competition's draw date unless early, and a second draw
// (ErrAlreadyDrawn; of two at once exactly one succeeds). The entrants are the members who
// entered; each is scored HMAC-SHA256(seed, participant id) with 32 fresh random bytes as the
// seed, and the lowest scores win, as many as the competition has winners (all entrants when
// fewer). The draw, its winners and their prizes (a credit of the prize amount, or a record of
// amount zero when the prize is not money) are written in one transaction.
func (m *Module) Draw(ctx context.Context, panel *web.Panel, competitionID, operator, reason string, early bool) (*Draw, error) {
	operator, reason = strings.TrimSpace(operator), strings.TrimSpace(reason)
	if operator == "" || reason == "" {
		return nil, ErrOperatorReason
	}
	info, err := m.competition(ctx, panel, competitionID)
	if err != nil {
		return nil, err
	}
	now := m.now().UTC().Truncate(timeUnit)
	beforeDate := info.DrawAt != nil && now.Before(*info.DrawAt)
	if beforeDate && !early {
		return nil, fmt.Errorf("competition %s draws at %s: %w", info.ID, info.DrawAt.UTC().Format(time.RFC3339), ErrTooEarly)
	}
	if prior, err := m.store.draw(m.store.db.WithContext(ctx), info.ID); err != nil || prior != nil {
		return nil, drawnAlready(prior, err)
	}
	seed := make([]byte, SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("draw seed: %w", err)
	}
	// An operator's act: the prize's title is in the panel's default language.
	title := m.title(panel.DefaultLanguage, "competitions.prize_title", "Won: ", info.Prizes.In(panel.DefaultLanguage, info.Prize))
	var out *Draw
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		out = nil
		if err := m.store.lockEntries(tx); err != nil {
			return err
		}
		if prior, err := m.store.draw(tx, info.ID); err != nil || prior != nil {
			return drawnAlready(prior, err)
		}
		entrants, err := m.store.entrants(tx, info.ID)
		if err != nil {
			return err
		}
		ranked := Rank(seed, entrants)
		rec := DrawRecord{
			CompetitionID: info.ID, CampaignID: info.CampaignID, PanelID: panel.ID, Seed: hex.EncodeToString(seed),
			Entrants: len(entrants), EntrantsDigest: Digest(entrants), Winners: info.Winners,
			Operator: operator, Reason: reason, Early: beforeDate, DrawnAt: now,
		}
		// The primary key is the arbiter between two draws at once: the second fails here,
		// and its next attempt finds the first.
		if err := tx.Create(&rec).Error; err != nil {
			return fmt.Errorf("record draw of competition %s: %w", info.ID, err)
		}
		d := &Draw{Record: rec}
		for i, pid := range ranked[:min(info.Winners, len(ranked))] {
			entry, err := m.pay(tx, panel, info, pid, title)
			if err != nil {
				return err
			}
			w := Winner{CompetitionID: info.ID, ParticipantID: pid, Rank: i + 1, TransactionID: &entry.ID}
			if err := tx.Create(&w).Error; err != nil {
				return fmt.Errorf("record winner %d of competition %s: %w", i+1, info.ID, err)
			}
			d.Winners = append(d.Winners, w)
		}
		out = d
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.log.Info("competition drawn", "competition", info.ID, "campaign", info.CampaignID, "panel", panel.Key,
		"entrants", out.Record.Entrants, "winners", len(out.Winners), "operator", operator, "early", out.Record.Early)
	return out, nil
}

// pay gives a winner the prize: a credit of its amount, or a record of amount zero.
func (m *Module) pay(tx *gorm.DB, panel *web.Panel, info *campaigns.CompetitionInfo, participantID, title string) (*wallet.Entry, error) {
	mv := wallet.Movement{
		Panel: panel, ParticipantID: participantID, Currency: panel.CurrencyCode, Origin: wallet.OriginCampaign,
		Key: PrizeKey(info.ID), CampaignID: info.CampaignID, Competition: true, Title: title,
	}
	var entry *wallet.Entry
	var err error
	if info.PrizeMinor > 0 {
		mv.Amount, mv.Currency = info.PrizeMinor, info.Currency
		entry, _, err = m.ledger.CreditTx(tx, mv)
	} else {
		entry, _, err = m.ledger.RecordTx(tx, mv)
	}
	if err != nil {
		return nil, fmt.Errorf("prize of %s in competition %s: %w", participantID, info.ID, err)
	}
	return entry, nil
}

func drawnAlready(prior *DrawRecord, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("competition %s was drawn at %s by %s: %w", prior.CompetitionID, prior.DrawnAt.UTC().Format(time.RFC3339), prior.Operator, ErrAlreadyDrawn)
}

// Rank orders entrants by HMAC-SHA256(key seed, message participant id), lowest first; equal
// scores (never seen in practice) go by id. The first of the ranking win.
func Rank(seed []byte, entrants []string) []string {
	type scored struct {
		id    string
		score []byte
	}
	all := make([]scored, len(entrants))
	for i, id := range entrants {
		mac := hmac.New(sha256.New, seed)
		mac.Write([]byte(id))
		all[i] = scored{id: id, score: mac.Sum(nil)}
	}
	sort.Slice(all, func(i, j int) bool {
		if c := bytes.Compare(all[i].score, all[j].score); c != 0 {
			return c < 0
		}
		return all[i].id < all[j].id
	})
	out := make([]string, len(all))
	for i, s := range all {
		out[i] = s.id
	}
	return out
}

// Digest is the sha256 (hex) of the entrants' ids, sorted, one per line.
func Digest(entrants []string) string {
	ids := slices.Clone(entrants)
	sort.Strings(ids)
	sum := sha256.Sum256([]byte(strings.Join(ids, "\n")))
	return hex.EncodeToString(sum[:])
}

// Verification is a draw checked again from what is stored: the entrants now, their digest,
// and the winners the recorded seed ranks first.
type Verification struct {
	Draw     Draw
	Entrants []string // the members entered now, sorted
	Digest   string   // their digest
	Expected []string // the winners the seed gives them, by rank
	Problems []string // what does not match the record; empty when the draw checks out
}

// OK tells whether the draw checks out.
func (v *Verification) OK() bool { return len(v.Problems) == 0 }

// Verify recomputes a draw: the entrants' number and digest against the record, and the
// ranking by the recorded seed against the recorded winners. A problem is reported, not
// returned as an error; ErrNotDrawn when there is no draw.
func (m *Module) Verify(ctx context.Context, competitionID string) (*Verification, error) {
	db := m.store.db.WithContext(ctx)
	rec, err := m.store.draw(db, strings.ToLower(strings.TrimSpace(competitionID)))
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, fmt.Errorf("competition %s: %w", competitionID, ErrNotDrawn)
	}
	winners, err := m.store.winners(db, rec.CompetitionID)
	if err != nil {
		return nil, err
	}
	entrants, err := m.store.entrants(db, rec.CompetitionID)
	if err != nil {
		return nil, err
	}
	v := &Verification{Draw: Draw{Record: *rec, Winners: winners}, Entrants: entrants, Digest: Digest(entrants)}
	if len(entrants) != rec.Entrants {
		v.Problems = append(v.Problems, fmt.Sprintf("the draw had %d entrants; %d are entered now", rec.Entrants, len(entrants)))
	}
	if v.Digest != rec.EntrantsDigest {
		v.Problems = append(v.Problems, fmt.Sprintf("the entrants' digest is %s; the draw recorded %s", v.Digest, rec.EntrantsDigest))
	}
	seed, err := hex.DecodeString(rec.Seed)
	if err != nil || len(seed) != SeedSize {
		v.Problems = append(v.Problems, fmt.Sprintf("the recorded seed %q is not %d bytes of hex", rec.Seed, SeedSize))
		return v, nil
	}
	ranked := Rank(seed, entrants)
	v.Expected = ranked[:min(rec.Winners, len(ranked))]
	for i := range max(len(v.Expected), len(winners)) {
		want, got := "(none)", "(none)"
		if i < len(v.Expected) {
			want = v.Expected[i]
		}
		if i < len(winners) {
			got = winners[i].ParticipantID
			if winners[i].Rank != i+1 {
				v.Problems = append(v.Problems, fmt.Sprintf("winner %s has rank %d; want %d", got, winners[i].Rank, i+1))
			}
		}
		if want != got {
			v.Problems = append(v.Problems, fmt.Sprintf("rank %d: the draw recorded %s; the seed ranks %s", i+1, got, want))
		}
	}
	return v, nil
}
