package redemptions

// detailsBinding and redemptionBinding are what sealed values are bound to.
func detailsBinding(participantID string, kind Kind) string {
	return "payout-details:" + participantID + ":" + string(kind)
}

func redemptionBinding(redemptionID string) string { return "redemption:" + redemptionID }
