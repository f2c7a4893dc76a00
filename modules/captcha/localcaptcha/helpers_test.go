package localcaptcha_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha/localcaptcha"
)

const (
	secret = "dev-secret"
	host   = "panel.example.com"
)

// serve starts srv on loopback and returns its siteverify URL.
func serve(t *testing.T, srv *localcaptcha.Server) string {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL + "/siteverify"
}

// answer is a decoded siteverify answer; raw keeps every field for shape checks.
type answer struct {
	Success    bool     `json:"success"`
	ErrorCodes []string `json:"error-codes"`
	Hostname   string   `json:"hostname"`
	raw        map[string]any
}

// siteverify posts form to u and decodes the JSON answer.
func siteverify(t *testing.T, u string, form url.Values) answer {
	t.Helper()
	resp, err := http.PostForm(u, form)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json"))
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var a answer
	require.NoError(t, json.Unmarshal(body, &a))
	require.NoError(t, json.Unmarshal(body, &a.raw))
	return a
}

func form(secret, token string) url.Values {
	v := url.Values{}
	if secret != "" {
		v.Set("secret", secret)
	}
	if token != "" {
		v.Set("response", token)
	}
	return v
}
