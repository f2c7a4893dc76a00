package web

import "time"

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
