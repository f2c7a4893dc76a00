package localprovider_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheGoogleDiscoveryDocumentDescribesTheLocalEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	iss := e.cfg[social.Google].Issuer
	resp, body := e.get(t, iss+"/.well-known/openid-configuration")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &doc))
	assert.Equal(t, iss, doc["issuer"])
	assert.Equal(t, iss+"/authorize", doc["authorization_endpoint"])
	assert.Equal(t, iss+"/token", doc["token_endpoint"])
	assert.Equal(t, iss+"/jwks", doc["jwks_uri"])
	assert.Equal(t, []any{"RS256"}, doc["id_token_signing_alg_values_supported"])
}

func TestMintedIDTokensVerifyAgainstTheJWKSAndForgeriesDoNot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := oidc.ClientContext(context.Background(), e.srv.Client())
	p, err := oidc.NewProvider(ctx, e.cfg[social.Google].Issuer)
	require.NoError(t, err)
	v := p.VerifierContext(ctx, &oidc.Config{ClientID: clientID})
	claims := e.lp.IDTokenClaims("1001", clientID)

	idt, err := v.Verify(ctx, e.lp.MintIDToken(claims))
	require.NoError(t, err, "a minted token verifies")
	assert.Equal(t, "1001", idt.Subject)

	_, err = v.Verify(ctx, e.lp.MintForeignIDToken(claims))
	assert.Error(t, err, "a forgery does not")
}
