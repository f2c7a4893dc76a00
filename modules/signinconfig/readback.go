package signinconfig

import (
	"context"
	"fmt"
)

// SignInSpecOf reads a panel's sign-in providers and captcha back as the tenant file's
// `sign_in:` and `captcha:` parts, secrets opened: the operator console (issue 21, part 2)
// shows them masked and keeps the ones an owner does not replace. Nil captcha: none.
func (m *Module) SignInSpecOf(ctx context.Context, panelID string) (SignInSpec, *CaptchaSpec, error) {
	rows, err := m.store.SignInProviders(ctx, panelID)
	if err != nil {
		return nil, nil, err
	}
	spec := SignInSpec{}
	for _, r := range rows {
		secret, err := m.sealer.Open(r.ClientSecretSealed, providerBinding(panelID, r.Provider, "client"))
		if err != nil {
			return nil, nil, fmt.Errorf("open %s secret of panel %s: %w", r.Provider, panelID, err)
		}
		ps := ProviderSpec{
			ClientID: r.ClientID, ClientSecret: string(secret), Issuer: r.Issuer, AuthURL: r.AuthURL,
			TokenURL: r.TokenURL, APIURL: r.APIURL, ConsumerKey: r.ConsumerKey,
		}
		if r.ConsumerSecretSealed != "" {
			cs, err := m.sealer.Open(r.ConsumerSecretSealed, providerBinding(panelID, r.Provider, "consumer"))
			if err != nil {
				return nil, nil, fmt.Errorf("open %s consumer secret of panel %s: %w", r.Provider, panelID, err)
			}
			ps.ConsumerSecret = string(cs)
		}
		spec[r.Provider] = ps
	}
	row, err := m.store.Captcha(ctx, panelID)
	if err != nil || row == nil {
		return spec, nil, err
	}
	secret, err := m.sealer.Open(row.SecretSealed, captchaBinding(panelID))
	if err != nil {
		return nil, nil, fmt.Errorf("open captcha secret of panel %s: %w", panelID, err)
	}
	return spec, &CaptchaSpec{
		Kind: row.Kind, SiteKey: row.SiteKey, Secret: string(secret), VerifyURL: row.VerifyURL,
		MinScore: row.MinScore, Mode: row.Mode, AfterFailures: row.AfterFailures,
	}, nil
}
