package competitions

import (
	"context"

	"github.com/canvass/canvass/modules/web"
)

// VerifyOn verifies the draw of one of the panel's competitions (the console's check, which
// must not reach another panel's): ErrNotFound for a competition the panel does not have,
// ErrNotDrawn before its draw.
func (m *Module) VerifyOn(ctx context.Context, panel *web.Panel, competitionID string) (*Verification, error) {
	info, err := m.competition(ctx, panel, competitionID)
	if err != nil {
		return nil, err
	}
	return m.Verify(ctx, info.ID)
}
