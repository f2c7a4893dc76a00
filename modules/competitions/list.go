package competitions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
)

// Summary is a competition as operators list it: how many entered and declined, and its draw
// once drawn.
type Summary struct {
	Info     campaigns.CompetitionInfo
	Entered  int
	Rejected int
	Drawn    *DrawRecord // nil until drawn
}

// Details are a competition with its winners.
type Details struct {
	Summary
	Winners []Winner
}

// List is every competition of the panel, the latest published first.
func (m *Module) List(ctx context.Context, panel *web.Panel) ([]Summary, error) {
	infos, err := m.campaigns.Competitions(ctx, panel)
	if err != nil {
		return nil, err
	}
	tallies, err := m.store.tallies(ctx, panel.ID)
	if err != nil {
		return nil, err
	}
	draws, err := m.store.draws(ctx, panel.ID)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(infos))
	for _, info := range infos {
		s := Summary{Info: info, Entered: tallies[info.ID].Entered, Rejected: tallies[info.ID].Rejected}
		if d, ok := draws[info.ID]; ok {
			s.Drawn = &d
		}
		out = append(out, s)
	}
	return out, nil
}

// Show is one competition of the panel with its entries counted and its winners.
func (m *Module) Show(ctx context.Context, panel *web.Panel, competitionID string) (*Details, error) {
	info, err := m.competition(ctx, panel, competitionID)
	if err != nil {
		return nil, err
	}
	tallies, err := m.store.tallies(ctx, panel.ID)
	if err != nil {
		return nil, err
	}
	db := m.store.db.WithContext(ctx)
	d := &Details{Summary: Summary{Info: *info, Entered: tallies[info.ID].Entered, Rejected: tallies[info.ID].Rejected}}
	if d.Drawn, err = m.store.draw(db, info.ID); err != nil {
		return nil, err
	}
	if d.Drawn != nil {
		if d.Winners, err = m.store.winners(db, info.ID); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Panels lists every panel (Deps.Panels), for operators' lists across panels.
func (m *Module) Panels(ctx context.Context) ([]*web.Panel, error) {
	if m.panels == nil {
		return nil, errors.New("competitions: no panel list (Deps.Panels)")
	}
	return m.panels(ctx)
}

// PanelOf finds the panel a competition belongs to, for operators who name it by id alone.
func (m *Module) PanelOf(ctx context.Context, competitionID string) (*web.Panel, error) {
	panels, err := m.Panels(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range panels {
		if _, err := m.competition(ctx, p, competitionID); err == nil {
			return p, nil
		} else if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%s: %w", competitionID, ErrNotFound)
}

// competition is the panel's competition with the id.
func (m *Module) competition(ctx context.Context, panel *web.Panel, competitionID string) (*campaigns.CompetitionInfo, error) {
	infos, err := m.campaigns.Competitions(ctx, panel)
	if err != nil {
		return nil, err
	}
	for i := range infos {
		if sameID(competitionID, infos[i].ID) {
			return &infos[i], nil
		}
	}
	return nil, fmt.Errorf("%s in panel %s: %w", strings.TrimSpace(competitionID), panel.Key, ErrNotFound)
}
