package captcha

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

var (
	// ErrFailed means the provider, or a check on its answer, refused the token: missing, bad,
	// expired, already used, too low a score, or made for another hostname or action. Ask the
	// user to solve the captcha again.
	ErrFailed = errors.New("captcha: token refused")
	// ErrUnavailable means no verdict could be had: the provider could not be reached, timed
	// out, answered with an HTTP error or a body that does not parse, or the captcha is
	// misconfigured (see ErrMisconfigured). The token is unproven; fail closed.
	ErrUnavailable = errors.New("captcha: provider unavailable")
	// ErrMisconfigured is the ErrUnavailable that only an operator can fix: the config does
	// not validate, or the provider refused the secret or site key. errors.Is(err,
	// ErrUnavailable) holds for it too.
	ErrMisconfigured = fmt.Errorf("%w: captcha misconfigured", ErrUnavailable)
)

const (
	// maxResponseBytes is the most of a siteverify answer Verify reads.
	maxResponseBytes = 64 << 10
	// defaultTimeout bounds one siteverify call made with New(nil)'s client.
	defaultTimeout = 10 * time.Second
)

// Verifier checks tokens with the providers' siteverify endpoints. It is safe for concurrent use.
type Verifier struct {
	// HTTP makes the calls. Verify never follows redirects with it, whatever its CheckRedirect:
	// a 307 would re-send the secret to another host.
	HTTP *http.Client
}

// New returns a Verifier using httpClient, or when it is nil a client with a 10-second timeout.
func New(httpClient *http.Client) *Verifier {
	if httpClient == nil {
		httpClient = &http.Client{Timeout: defaultTimeout}
	}
	return &Verifier{HTTP: httpClient}
}

// siteverifyResponse is the union of the three providers' answers.
type siteverifyResponse struct {
	Success     bool     `json:"success"`
	ChallengeTS string   `json:"challenge_ts"`
	Hostname    string   `json:"hostname"`
	ErrorCodes  []string `json:"error-codes"`
	Score       *float64 `json:"score"`  // reCAPTCHA v3; hCaptcha Enterprise (ignored)
	Action      string   `json:"action"` // reCAPTCHA v3, Turnstile
	Credit      *bool    `json:"credit"` // hCaptcha (ignored)
	CData       string   `json:"cdata"`  // Turnstile (ignored)
}

// Verify checks token with cfg's provider (cfg.WithDefaults() is applied). It returns nil when
// the token is good, an error wrapping ErrFailed when it is refused, and one wrapping
// ErrUnavailable when no verdict could be had (ErrMisconfigured for a bad config or a secret
// the provider refuses).
//
// An empty token fails at once, without a call. remoteIP (an IP, or IP:port) is passed on when it
// parses. When expectedHost is not "", the hostname the provider reports the captcha was solved
// on must equal it, ignoring case and any port. For reCAPTCHA v3 the score must reach
// cfg.MinScore and, when action is not "", the token's action must equal it; for Turnstile a
// token that carries an action must carry that one. hCaptcha is also sent the site key, so it
// refuses tokens made for another site.
//
// Verify does not look at cfg.Mode: whether to ask for a captcha is the caller's decision.
// Providers' test keys report placeholder hostnames; pass expectedHost "" with them.
//
// The secret and the token never appear in returned errors; provider error codes do.
func (v *Verifier) Verify(ctx context.Context, cfg Config, token, remoteIP, expectedHost, action string) error {
	if strings.TrimSpace(token) == "" {
		return fmt.Errorf("%w: no captcha response", ErrFailed)
	}
	cfg = cfg.WithDefaults()
	if problems := cfg.providerProblems(); len(problems) > 0 {
		return fmt.Errorf("%w: %w", ErrMisconfigured, errors.Join(problems...))
	}

	form := url.Values{"secret": {cfg.Secret}, "response": {token}}
	if ip := cleanIP(remoteIP); ip != "" {
		form.Set("remoteip", ip)
	}
	if cfg.Kind == HCaptcha && cfg.SiteKey != "" {
		form.Set("sitekey", cfg.SiteKey)
	}
	res, err := v.post(ctx, cfg.VerifyURL, form)
	if err != nil {
		return err
	}

	if !res.Success {
		return refusal(res.ErrorCodes)
	}
	if expectedHost != "" {
		if got := normalizeHost(res.Hostname); got == "" || got != normalizeHost(expectedHost) {
			return fmt.Errorf("%w: solved on hostname %q, want %q", ErrFailed, clip(res.Hostname), clip(expectedHost))
		}
	}
	switch cfg.Kind {
	case Recaptcha:
		if res.Score == nil {
			return fmt.Errorf("%w: no score in the answer (is the site key a reCAPTCHA v3 key?)", ErrFailed)
		}
		if *res.Score < cfg.MinScore {
			return fmt.Errorf("%w: score %.2f below %.2f", ErrFailed, *res.Score, cfg.MinScore)
		}
		if action != "" && res.Action != action {
			return fmt.Errorf("%w: action %q, want %q", ErrFailed, clip(res.Action), clip(action))
		}
	case Turnstile:
		if action != "" && res.Action != "" && res.Action != action {
			return fmt.Errorf("%w: action %q, want %q", ErrFailed, clip(res.Action), clip(action))
		}
	}
	return nil
}

// post sends the siteverify request and decodes the answer. Every error wraps ErrUnavailable.
func (v *Verifier) post(ctx context.Context, verifyURL string, form url.Values) (*siteverifyResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, verifyURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMisconfigured, errors.New("captcha: verify URL unusable"))
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")

	client := http.Client{Timeout: defaultTimeout}
	if v != nil && v.HTTP != nil {
		client = *v.HTTP
	}
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

	resp, err := client.Do(req)
	if err != nil {
		// *url.Error names the URL (never the body, so never the secret or token).
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: siteverify answered HTTP %d", ErrUnavailable, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: reading the siteverify answer: %w", ErrUnavailable, err)
	}
	if len(body) > maxResponseBytes {
		return nil, fmt.Errorf("%w: siteverify answer larger than %d bytes", ErrUnavailable, maxResponseBytes)
	}
	var res siteverifyResponse
	if err := json.Unmarshal(body, &res); err != nil {
		return nil, fmt.Errorf("%w: siteverify answer is not the expected JSON", ErrUnavailable)
	}
	return &res, nil
}

// Error codes that say the request, not the user's token, is wrong.
var misconfiguredCodes = map[string]bool{
	"missing-input-secret":     true, // all
	"invalid-input-secret":     true, // all
	"bad-request":              true, // all
	"sitekey-secret-mismatch":  true, // hCaptcha
	"invalid-sitekey":          true, // hCaptcha
	"not-using-dummy-passcode": true, // hCaptcha test keys
	"not-using-dummy-secret":   true, // hCaptcha test keys
}

// refusal turns a success:false answer into an error.
func refusal(codes []string) error {
	clean := make([]string, 0, len(codes))
	for _, c := range codes {
		if c = sanitizeCode(c); c != "" && len(clean) < 8 {
			clean = append(clean, c)
		}
	}
	list := strings.Join(clean, ", ")
	if list == "" {
		list = "no error code"
	}
	for _, c := range clean {
		if misconfiguredCodes[c] {
			return fmt.Errorf("%w: provider refused the request (%s)", ErrMisconfigured, list)
		}
		if c == "internal-error" { // Turnstile: retry later
			return fmt.Errorf("%w: provider internal error (%s)", ErrUnavailable, list)
		}
	}
	return fmt.Errorf("%w (%s)", ErrFailed, list)
}

// sanitizeCode keeps an error code printable and short, as it goes into logs.
func sanitizeCode(c string) string {
	c = strings.ToLower(strings.TrimSpace(c))
	if len(c) > 64 {
		c = c[:64]
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '?'
	}, c)
}

// clip shortens a provider- or caller-supplied string for an error message.
func clip(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

// normalizeHost lower-cases a host and drops a port, IPv6 brackets and a trailing dot.
func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimPrefix(strings.TrimSuffix(h, "]"), "[")
	return strings.TrimSuffix(h, ".")
}

// cleanIP returns remoteIP's address without port or zone, or "" when it is not an IP.
func cleanIP(remoteIP string) string {
	s := strings.TrimSpace(remoteIP)
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	s = strings.TrimPrefix(strings.TrimSuffix(s, "]"), "[")
	if i := strings.IndexByte(s, '%'); i >= 0 {
		s = s[:i]
	}
	ip := net.ParseIP(s)
	if ip == nil {
		return ""
	}
	return ip.String()
}
