package campaigns

import (
	"context"
	"fmt"
	"time"
)

// ListTTL bounds how long a campaign change made by another process (an import, a quota
// filling up) takes to show in this process's lists: each process keeps a panel's list of
// live campaigns, decoded and in feed order, this long. The process that made the change
// drops its list at once. Taking a campaign (go, answers) never reads this list: CanTake
// reads the campaign and the person's standing from the database on every call.
const ListTTL = 5 * time.Second

// liveList is one panel's campaigns that may still be listed: not closed and not full when
// read, in feed order (priority, then newest first), texts decoded, nobody's standing.
type liveList struct {
	listings []Listing
	expires  time.Time
	loading  bool // a request is reading a fresh copy; others keep using this one meanwhile
}

// live returns the panel's live list, from this process's copy while it is younger than
// ListTTL. When it has expired, one request reads it again while the others go on with the
// expired copy (for the few milliseconds of the read), so a busy panel never queues on it.
func (s *Store) live(ctx context.Context, panelID string, now time.Time) ([]Listing, error) {
	s.listMu.Lock()
	l := s.lists[panelID]
	switch {
	case l != nil && now.Before(l.expires):
		s.listMu.Unlock()
		return l.listings, nil
	case l != nil && l.loading:
		s.listMu.Unlock()
		return l.listings, nil
	case l != nil:
		l.loading = true
	}
	gen := s.listGen
	s.listMu.Unlock()

	listings, err := s.readLive(ctx, panelID, now)
	s.listMu.Lock()
	defer s.listMu.Unlock()
	if l != nil {
		l.loading = false
	}
	if err != nil {
		return nil, err
	}
	if gen == s.listGen { // no change in this process while it was read
		if s.lists == nil {
			s.lists = map[string]*liveList{}
		}
		s.lists[panelID] = &liveList{listings: listings, expires: now.Add(ListTTL)}
	}
	return listings, nil
}

func (s *Store) readLive(ctx context.Context, panelID string, now time.Time) ([]Listing, error) {
	res, err := s.db.WithContext(ctx).Table("campaigns AS c").Select(catalogueColumns).
		Where("c.panel_id = ? AND (c.closes_at IS NULL OR c.closes_at > ?) AND c.quota_full = ?", panelID, now.UTC(), false).
		Order("c.priority DESC, c.published_at DESC, c.id").Rows()
	if err != nil {
		return nil, fmt.Errorf("list live campaigns of panel %s: %w", panelID, err)
	}
	rows, err := scanListings(res)
	if err != nil {
		return nil, fmt.Errorf("list live campaigns of panel %s: %w", panelID, err)
	}
	for i := range rows {
		if err := rows[i].decodeTexts(); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// forgetLists drops this process's lists after it changed a campaign.
func (s *Store) forgetLists() {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	s.lists = nil
	s.listGen++
}
