package redemptions

import (
	"context"
	"fmt"

	"github.com/canvass/canvass/modules/web"
)

// Reasons an option is not available to a member, most pressing first.
const (
	ReasonNone            = ""
	ReasonNotEligible     = "not_eligible"
	ReasonNeedsPayPalData = "needs_paypal_data"
	ReasonNeedsBankData   = "needs_bank_data"
	ReasonBelowMinimum    = "below_minimum"
)

// OptionState is an option as one member sees it: what they still need to give.
type OptionState struct {
	Option
	Needs string // "paypal-data", "bank-data", or "" when nothing is missing
}

// Settings lists the panel's enabled options with what the member still needs for each.
func (m *Module) Settings(ctx context.Context, panel *web.Panel, participantID string) ([]OptionState, error) {
	opts, err := m.store.options(ctx, panel.ID, true)
	if err != nil {
		return nil, err
	}
	has, err := m.detailsGiven(ctx, panel, participantID)
	if err != nil {
		return nil, err
	}
	out := make([]OptionState, 0, len(opts))
	for _, o := range opts {
		s := OptionState{Option: o}
		if need := needsOf(o.Kind); need != "" && !has[o.Kind] {
			s.Needs = need
		}
		out = append(out, s)
	}
	return out, nil
}

// detailsGiven tells which kinds of payout details the member has stored (for this panel and,
// for a bank account, its currency).
func (m *Module) detailsGiven(ctx context.Context, panel *web.Panel, participantID string) (map[Kind]bool, error) {
	has := map[Kind]bool{}
	for _, k := range []Kind{KindPayPal, KindBank} {
		d, err := m.Details(ctx, panel, participantID, k)
		if err != nil {
			return nil, err
		}
		has[k] = d != nil
	}
	return has, nil
}

// Availability is whether a member can redeem with an option now, and if not, why.
type Availability struct {
	Option      Option
	Balance     int64
	Currency    string
	Eligibility string // the member's eligibleToRedeem value
	Needs       string
	Available   bool
	Reason      string
}

// Availability answers the spec's redemptions/{id}/availability for one enabled option; an
// unknown or disabled option is not found.
func (m *Module) Availability(ctx context.Context, panel *web.Panel, participantID, optionID string) (Availability, error) {
	o, err := m.store.option(m.store.db.WithContext(ctx), panel.ID, optionID)
	if err != nil {
		return Availability{}, err
	}
	if o == nil || !o.Enabled {
		return Availability{}, fmt.Errorf("redemption option %q of %s: %w", optionID, panel.Key, web.ErrNotFound)
	}
	value, err := m.eligible(ctx, panel, participantID)
	if err != nil {
		return Availability{}, fmt.Errorf("eligibility of %s: %w", participantID, err)
	}
	has, err := m.detailsGiven(ctx, panel, participantID)
	if err != nil {
		return Availability{}, err
	}
	b, err := m.ledger.Balance(ctx, panel, participantID)
	if err != nil {
		return Availability{}, err
	}
	a := Availability{Option: *o, Balance: b.Minor, Currency: panel.CurrencyCode, Eligibility: value}
	if need := needsOf(o.Kind); need != "" && !has[o.Kind] {
		a.Needs = need
	}
	a.Reason = reason(value, a.Needs, b.Minor, o.MinimumMinor)
	a.Available = a.Reason == ReasonNone
	return a, nil
}

// reason decides availability: eligibility first (nothing else helps until it is fixed),
// then missing payout details, then the balance against the minimum.
func reason(eligibility, needs string, balance, minimum int64) string {
	switch {
	case !CanRedeem(eligibility):
		return ReasonNotEligible
	case needs == "paypal-data":
		return ReasonNeedsPayPalData
	case needs == "bank-data":
		return ReasonNeedsBankData
	case balance < minimum:
		return ReasonBelowMinimum
	}
	return ReasonNone
}
