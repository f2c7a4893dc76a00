package web

import (
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
)

// ReportRecency is the spec's "under 61 days": a report that recent counts as recent, and a
// second report of the same campaign or transaction inside it returns the first.
const ReportRecency = 61 * 24 * time.Hour

// MaxReportText bounds a broken report's reasonText.
const MaxReportText = 1000

// ReportJSON is the spec's "Transaction report / campaign report" (campaignUuid,
// transactionUuid, createdAt) in the API: a campaign report has no transaction, a report of
// a redemption or a manual entry no campaign.
type ReportJSON struct {
	ID              string    `json:"id"`
	CampaignUUID    *string   `json:"campaignUuid"`
	TransactionUUID *string   `json:"transactionUuid"`
	ReasonCode      string    `json:"reasonCode"`
	ReasonText      string    `json:"reasonText,omitempty"`
	CreatedAt       time.Time `json:"createdAt"`
	Recent          bool      `json:"recent"` // under the spec's 61 days
}

// BrokenReport is the spec's "Broken report": reasonCode, reasonText.
type BrokenReport struct {
	ReasonCode string `json:"reasonCode"`
	ReasonText string `json:"reasonText"`
}

// Check returns the report with its text trimmed and whitespace collapsed, or a 400 naming
// the field: a code outside codes, a text over MaxReportText, "other" without a text.
func (r BrokenReport) Check(codes []string) (BrokenReport, error) {
	r.ReasonText = strings.Join(strings.Fields(r.ReasonText), " ")
	switch {
	case !slices.Contains(codes, r.ReasonCode):
		return r, Invalid("reasonCode", "error.report_reason", nil)
	case len([]rune(r.ReasonText)) > MaxReportText:
		return r, Invalid("reasonText", "error.report_text_long", map[string]any{"Max": MaxReportText})
	case r.ReasonCode == "other" && r.ReasonText == "":
		return r, Invalid("reasonText", "error.report_text_required", nil)
	}
	return r, nil
}

// ReportBroken serves a report-broken call: it decodes the body, files it, and answers 201
// with a new report or 200 with the recent one it repeats.
func ReportBroken(c fiber.Ctx, file func(BrokenReport) (ReportJSON, bool, error)) error {
	var in BrokenReport
	if err := DecodeJSON(c, &in); err != nil {
		return err
	}
	r, created, err := file(in)
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(r)
}
