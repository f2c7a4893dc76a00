package competitions

import (
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// decisionJSON answers enter-competition and reject-competition.
type decisionJSON struct {
	CompetitionUUID string `json:"competition_uuid"`
	Decision        string `json:"decision"`
	TransactionUUID string `json:"transactionUuid,omitempty"` // the ledger's record of an entry
}

// POST /api/{v1|v2}/{code}/campaigns/{id}/enter-competition/{x}: the member enters the draw
// of the campaign's competition x (the body, if any, is not read).
func (m *Module) apiEnter(c fiber.Ctx) error {
	id, x := c.Params("id"), c.Params("x")
	transactionID, err := m.EnterCompetition(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, id, x, web.LocaleOf(c))
	if err != nil {
		return err
	}
	return c.JSON(decisionJSON{CompetitionUUID: campaigns.CompetitionID(id), Decision: DecisionEntered, TransactionUUID: transactionID})
}

// POST /api/{v1|v2}/{code}/campaigns/{id}/reject-competition: the member declines the draw.
func (m *Module) apiReject(c fiber.Ctx) error {
	id := c.Params("id")
	panel, member := web.PanelOf(c), web.MemberOf(c)
	if err := m.Reject(c.Context(), panel, member.ParticipantID, id); err != nil {
		return err
	}
	return c.JSON(decisionJSON{CompetitionUUID: campaigns.CompetitionID(id), Decision: DecisionRejected})
}
