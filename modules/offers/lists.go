package offers

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// listCache keeps each panel's offers and games lists for CacheTTL (spec: 5000 ms), per
// country, language and device. The lists name no member (the member's own link comes from
// start-offer), so one list serves every member it is kept for. Members asking together for
// a list that is not kept wait for one call to the provider (singleflight), not one each.
type listCache struct {
	mu      sync.Mutex
	entries map[string]listEntry
	calls   singleflight.Group
}

type listEntry struct {
	offers []Offer
	until  time.Time
}

// maxLists bounds the kept lists (panels x countries x languages x devices x kinds); past it
// the cache starts again rather than grow.
const maxLists = 10_000

// lists returns the panel's offers or games for q, from the cache when fresh.
func (s *Service) lists(ctx context.Context, panelID string, p *panelProvider, kind string, q Query) ([]Offer, error) {
	key := strings.Join([]string{panelID, p.cfg.AppID, kind, q.Country, q.Lang, q.Device}, "|")
	now := s.now()
	s.cache.mu.Lock()
	e, ok := s.cache.entries[key]
	s.cache.mu.Unlock()
	if ok && now.Before(e.until) {
		return e.offers, nil
	}
	v, err, _ := s.cache.calls.Do(key, func() (any, error) {
		var list []Offer
		var err error
		if kind == KindGame {
			list, err = p.provider.Games(ctx, q)
		} else {
			list, err = p.provider.Offers(ctx, q)
		}
		if err != nil {
			return nil, fmt.Errorf("list %ss of panel %s: %w", kind, panelID, err)
		}
		for i := range list {
			list[i].Kind = kind // the list says what its rows are
		}
		s.cache.mu.Lock()
		if len(s.cache.entries) >= maxLists {
			s.cache.entries = map[string]listEntry{}
		}
		s.cache.entries[key] = listEntry{offers: list, until: s.now().Add(CacheTTL)}
		s.cache.mu.Unlock()
		return list, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]Offer), nil
}

// forgetPanel drops a panel's kept lists: a provider changed by `tenant apply` lists afresh.
func (c *listCache) forgetPanel(panelID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key := range c.entries {
		if strings.HasPrefix(key, panelID+"|") {
			delete(c.entries, key)
		}
	}
}

// find is the offer or game of the panel's lists with this id.
func (s *Service) find(ctx context.Context, panelID string, p *panelProvider, q Query, id string) (Offer, bool, error) {
	for _, kind := range []string{KindOffer, KindGame} {
		list, err := s.lists(ctx, panelID, p, kind, q)
		if err != nil {
			return Offer{}, false, err
		}
		for _, o := range list {
			if o.ID == id {
				return o, true, nil
			}
		}
	}
	return Offer{}, false, nil
}
