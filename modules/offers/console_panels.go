package offers

import (
	"context"
	"fmt"

	"github.com/canvass/canvass/modules/web"
)

// SpecOf reads a panel's offers provider back as the tenant file's `offers:` part, secrets
// opened (the operator console shows them masked and keeps the ones not replaced); nil when
// the panel has none.
func (m *Module) SpecOf(ctx context.Context, panelID string) (*Spec, error) {
	row, err := m.svc.store.Provider(ctx, panelID)
	if err != nil || row == nil {
		return nil, err
	}
	secret, err := m.svc.sealer.Open(row.PostbackSecretSealed, sealBinding(panelID, "postback"))
	if err != nil {
		return nil, fmt.Errorf("open postback secret of panel %s: %w", panelID, err)
	}
	s := &Spec{BaseURL: row.BaseURL, AppID: row.AppID, PostbackSecret: string(secret)}
	if row.CreditCeilingMinor != nil {
		s.CreditCeiling = web.MoneyString(*row.CreditCeilingMinor, row.CreditCeilingCurrency)
	}
	if row.APIKeySealed != "" {
		key, err := m.svc.sealer.Open(row.APIKeySealed, sealBinding(panelID, "api-key"))
		if err != nil {
			return nil, fmt.Errorf("open API key of panel %s: %w", panelID, err)
		}
		s.APIKey = string(key)
	}
	return s, nil
}
