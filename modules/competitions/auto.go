package competitions

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The operator and reason recorded with an automatic draw.
const (
	AutoDrawOperator = "auto-draw"
	AutoDrawReason   = "automatic draw at the draw date (auto_draw: true in the campaign)"
)

// DrawDue draws every competition of every panel that asks for an automatic draw (auto_draw)
// and whose draw date has come by now, through Draw, and says how many it drew. It is the
// periodic job's round: safe to run twice and in two processes at once, since Draw draws a
// competition once and refuses the second (ErrAlreadyDrawn, which here means done). One
// competition that fails does not hold back the others; its error is returned with the count,
// and the next round tries it again.
func (m *Module) DrawDue(ctx context.Context, now time.Time) (int64, error) {
	panels, err := m.Panels(ctx)
	if err != nil {
		return 0, err
	}
	var drawn int64
	var errs []error
	for _, panel := range panels {
		list, err := m.List(ctx, panel)
		if err != nil {
			errs = append(errs, fmt.Errorf("panel %s: %w", panel.Key, err))
			continue
		}
		for _, s := range list {
			if !s.Info.AutoDraw || s.Info.DrawAt == nil || now.Before(*s.Info.DrawAt) || s.Drawn != nil {
				continue
			}
			_, err := m.Draw(ctx, panel, s.Info.ID, AutoDrawOperator, AutoDrawReason, false)
			switch {
			case err == nil:
				drawn++
			case errors.Is(err, ErrAlreadyDrawn), errors.Is(err, ErrTooEarly):
				// Drawn by another process meanwhile; or this process's clock is behind the
				// round's (the next round draws it).
			default:
				errs = append(errs, fmt.Errorf("automatic draw of competition %s in panel %s: %w", s.Info.ID, panel.Key, err))
			}
		}
	}
	return drawn, errors.Join(errs...)
}
