package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"golang.org/x/crypto/argon2"
	"gorm.io/gorm"
)

// Synthetic members are made-up respondents that demo data (and load tests) fill a panel's
// results with. They are labelled so that no one takes them for people: the email
// respondent-0001@synthetic.invalid (the .invalid top-level domain never resolves, RFC 2606, so
// no mail reaches anyone), the first name "Synthetic", the metadata {"synthetic": true}; and
// they can never sign in (syntheticPasswordHash).

// SyntheticDomain is the email domain of every synthetic member.
const SyntheticDomain = "synthetic.invalid"

// syntheticBatch is how many synthetic members one statement inserts (one transaction each).
const syntheticBatch = 500

// SyntheticEmail is the email of the synthetic member numbered n (from 1).
func SyntheticEmail(n int) string { return fmt.Sprintf("respondent-%04d@%s", n, SyntheticDomain) }

// syntheticNumber is the number of a synthetic member's email; 0 when it is none.
func syntheticNumber(email string) int {
	s, ok := strings.CutPrefix(email, "respondent-")
	if !ok {
		return 0
	}
	if s, ok = strings.CutSuffix(s, "@"+SyntheticDomain); !ok {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || SyntheticEmail(n) != email {
		return 0
	}
	return n
}

// SyntheticLanguage is the language of the synthetic member at index i (numbered i+1): the
// panel's languages in turn, its default one twice as often as each other.
func SyntheticLanguage(panel *web.Panel, i int) string {
	langs := make([]string, 0, len(panel.Languages))
	if panel.DefaultLanguage != "" {
		langs = append(langs, panel.DefaultLanguage)
	}
	for _, l := range panel.Languages {
		if l.Code != panel.DefaultLanguage {
			langs = append(langs, l.Code)
		}
	}
	if len(langs) == 0 {
		return "en"
	}
	return langs[max(0, i%(len(langs)+1)-1)]
}

// EnsureSyntheticMembers returns the participant ids of the panel's synthetic members numbered
// 1 to n (ids[i] is respondent i+1, speaking SyntheticLanguage(panel, i)), creating those
// missing in multi-row inserts; a second call returns the same ids and creates nothing. They
// are active, accepted the terms, have a validated email and joined on dates spread over the
// year before now.
func (s *Service) EnsureSyntheticMembers(ctx context.Context, panel *web.Panel, n int) ([]string, error) {
	if n <= 0 {
		return []string{}, nil
	}
	have, err := s.store.syntheticMembers(ctx, panel.ID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, n)
	var missing []int
	for i := range ids {
		if id, ok := have[i+1]; ok {
			ids[i] = id
		} else {
			missing = append(missing, i)
		}
	}
	now := s.now().UTC().Truncate(time.Second)
	for start := 0; start < len(missing); start += syntheticBatch {
		batch := missing[start:min(start+syntheticBatch, len(missing))]
		holders := make([]AccountHolder, len(batch))
		parts := make([]Participant, len(batch))
		for j, i := range batch {
			// Joined 31 to 396 days ago, before any run the demo gives them (the last 30 days).
			joined := now.Add(-time.Duration(31*24*60+(i*7919)%(365*24*60)) * time.Minute)
			hash, err := syntheticPasswordHash()
			if err != nil {
				return nil, err
			}
			email := SyntheticEmail(i + 1)
			holders[j] = AccountHolder{
				ID: uuid.NewString(), PanelID: panel.ID, Email: email, EmailNormalized: email, PasswordHash: hash,
				FirstName: "Synthetic", LastName: fmt.Sprintf("Respondent %04d", i+1), LanguageCode: SyntheticLanguage(panel, i),
				Status: StatusActive, AcceptedTermsAt: &joined, EmailValidatedAt: &joined, CreatedAt: joined, UpdatedAt: joined,
				JoinAppName: "synthetic",
			}
			parts[j] = Participant{
				ID: uuid.NewString(), AccountHolderID: holders[j].ID, PanelID: panel.ID,
				Metadata: Metadata{"synthetic": true, "siteId": panel.Key}, CreatedAt: joined,
			}
			ids[i] = parts[j].ID
		}
		if err := s.store.createMembers(ctx, holders, parts); err != nil {
			return nil, fmt.Errorf("create synthetic members of %s: %w", panel.Key, err)
		}
	}
	return ids, nil
}

// syntheticPasswordHash is a well-formed argon2id hash that no password matches: its salt and
// its key are random bytes, not a key derived from any password, so a login is refused as
// with a wrong password (a 401, not an error) after the same work as any other. It is made at
// the cost of new hashes without doing their work, so creating many members costs nothing.
func syntheticPasswordHash() (string, error) {
	b := make([]byte, 16+argonKeyLen)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("synthetic password hash: %w", err)
	}
	cost := hashCost.Load()
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, cost.memory, cost.time, cost.threads,
		base64.RawStdEncoding.EncodeToString(b[:16]), base64.RawStdEncoding.EncodeToString(b[16:])), nil
}

// syntheticMembers are the panel's synthetic members: participant id by number.
func (s *Store) syntheticMembers(ctx context.Context, panelID string) (map[int]string, error) {
	var rows []struct {
		Email         string
		ParticipantID string
	}
	err := s.db.WithContext(ctx).Table("account_holders AS ah").
		Joins("JOIN participants p ON p.account_holder_id = ah.id").
		Select("ah.email_normalized AS email, p.id AS participant_id").
		Where("ah.panel_id = ? AND ah.email_normalized LIKE ?", panelID, "respondent-%@"+SyntheticDomain).
		Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("load synthetic members: %w", err)
	}
	out := make(map[int]string, len(rows))
	for _, r := range rows {
		if n := syntheticNumber(r.Email); n > 0 {
			out[n] = r.ParticipantID
		}
	}
	return out, nil
}

// createMembers inserts account holders and their participants, each a multi-row insert, in
// one transaction.
func (s *Store) createMembers(ctx context.Context, holders []AccountHolder, parts []Participant) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&holders).Error; err != nil {
			return err
		}
		return tx.Create(&parts).Error
	})
}
