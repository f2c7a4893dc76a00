package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/canvass/canvass/migrations"
	"net"
	"net/mail"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/tenancy"
)

// Config is read once from the environment (ARCHITECTURE.md section 3) and passed down.
type Config struct {
	Addr        string
	DatabaseURL string
	// DatabaseListenURL is a direct postgres:// URL to the same database, for the job queue's
	// LISTEN when DatabaseURL goes through a pooler in transaction mode (pool_mode=transaction),
	// where a LISTEN would hear nothing; empty there, the queue polls.
	DatabaseListenURL string
	Env               string
	Demo              bool
	Secret            string
	// SecretDerived is true when no CANVASS_SECRET was given and a development key was derived.
	SecretDerived bool
	SMTPURL       string
	MailFrom      string
	// BaseURL, when set, is the public origin used in mailed links; otherwise the request's own origin is used.
	BaseURL string
	// SMSURL names the SMS provider (twilio://SID:TOKEN@api.twilio.com?from=...); empty logs the codes.
	SMSURL string
	// PprofAddr, when set, serves Go's profiles (/debug/pprof/) on their own listener, never on
	// a panel's domain: `make profile` reads them. Keep it on loopback.
	PprofAddr string
	// PanelCacheTTL is how long each process keeps a panel (theme, domains, languages) before
	// reading it again: the bound on how long another process's change takes to show.
	PanelCacheTTL time.Duration
	// UploadsDir is where members' uploads (profile pictures) are kept on the local disk.
	UploadsDir string
	// UnsubscribeMailto, when set, is a mailbox bulk mails' List-Unsubscribe names beside the
	// one-click https address (unsubscribe@panel.example); its mail is the operator's to act on.
	UnsubscribeMailto string
	// ConsoleHost is the operator console's host (compared without port); the console is
	// served there only, never on a panel's domain.
	ConsoleHost string
	// MetricsAddr, when set, serves Prometheus metrics (/metrics only) on a listener of its own,
	// never on a panel's domain.
	MetricsAddr string
	// TrustedProxies are the addresses and CIDR ranges of the reverse proxies whose
	// X-Forwarded-For (and X-Forwarded-Proto, X-Forwarded-Host) are believed; empty: none is.
	TrustedProxies []string
	// JobWorkers is how many background jobs `canvass serve` works at once (0: it works none,
	// another process does); JobPoll how often an idle worker looks for new jobs.
	JobWorkers int
	JobPoll    time.Duration
	// StaticDir, in development only, serves /static/ from this folder on disk, uncached, and
	// pages name the islands of the build found there: `make dev` reloads a saved stylesheet or
	// a re-bundled island without rebuilding the binary.
	StaticDir string
}

func LoadConfig(getenv func(string) string) (Config, error) {
	get := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	cfg := Config{
		Addr:              get("CANVASS_ADDR", ":3000"),
		DatabaseURL:       get("CANVASS_DATABASE_URL", "sqlite://data/canvass.db"),
		DatabaseListenURL: get("CANVASS_DATABASE_LISTEN_URL", ""),
		Env:               get("CANVASS_ENV", "production"),
		Demo:              get("CANVASS_DEMO", "") == "1",
		Secret:            get("CANVASS_SECRET", ""),
		SMTPURL:           get("CANVASS_SMTP_URL", ""),
		MailFrom:          get("CANVASS_MAIL_FROM", "no-reply@canvass.local"),
		BaseURL:           strings.TrimRight(get("CANVASS_BASE_URL", ""), "/"),
		SMSURL:            get("CANVASS_SMS_URL", ""),
		PprofAddr:         get("CANVASS_PPROF_ADDR", ""),
		UploadsDir:        get("CANVASS_UPLOADS_DIR", filepath.Join("data", "uploads")),
		StaticDir:         get("CANVASS_STATIC_DIR", ""),
		// A mailbox name, not a display address: it goes into a header as mailto:ADDRESS.
		UnsubscribeMailto: get("CANVASS_UNSUBSCRIBE_MAILTO", ""),
		ConsoleHost:       strings.ToLower(get("CANVASS_CONSOLE_HOST", "console.localhost")),
		MetricsAddr:       get("CANVASS_METRICS_ADDR", ""),
	}
	proxies, err := parseTrustedProxies(getenv("CANVASS_TRUSTED_PROXIES"))
	if err != nil {
		return cfg, err
	}
	cfg.TrustedProxies = proxies
	ttl, err := time.ParseDuration(get("CANVASS_PANEL_CACHE_TTL", tenancy.DefaultCacheTTL.String()))
	if err != nil || ttl <= 0 {
		return cfg, fmt.Errorf("CANVASS_PANEL_CACHE_TTL must be a positive duration such as 1m or 5s, not %q", getenv("CANVASS_PANEL_CACHE_TTL"))
	}
	cfg.PanelCacheTTL = ttl
	workers, err := strconv.Atoi(get("CANVASS_JOB_WORKERS", strconv.Itoa(jobs.DefaultWorkers)))
	if err != nil || workers < 0 || workers > 1000 {
		return cfg, fmt.Errorf("CANVASS_JOB_WORKERS must be a whole number from 0 to 1000, not %q", getenv("CANVASS_JOB_WORKERS"))
	}
	cfg.JobWorkers = workers
	poll, err := time.ParseDuration(get("CANVASS_JOB_POLL", jobs.DefaultPollInterval.String()))
	if err != nil || poll < 10*time.Millisecond || poll > time.Minute {
		return cfg, fmt.Errorf("CANVASS_JOB_POLL must be a duration from 10ms to 1m such as 1s, not %q", getenv("CANVASS_JOB_POLL"))
	}
	cfg.JobPoll = poll
	if cfg.Secret == "" && cfg.Env != "production" {
		// Development and staging derive a stable key so sessions survive restarts; production must set one.
		sum := sha256.Sum256([]byte("canvass-development-secret:" + cfg.DatabaseURL))
		cfg.Secret = hex.EncodeToString(sum[:])
		cfg.SecretDerived = true
	}
	return cfg, cfg.Validate()
}

func (c Config) Validate() error {
	var errs []error
	switch c.Env {
	case "production", "staging", "development":
	default:
		errs = append(errs, fmt.Errorf("CANVASS_ENV must be production, staging or development, not %q", c.Env))
	}
	if !strings.HasPrefix(c.DatabaseURL, "sqlite://") && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		errs = append(errs, fmt.Errorf("CANVASS_DATABASE_URL must start with sqlite:// or postgres://, not %q", c.DatabaseURL))
	} else if !strings.HasPrefix(c.DatabaseURL, "sqlite://") {
		if _, _, err := migrations.PostgresDSN(c.DatabaseURL); err != nil {
			errs = append(errs, fmt.Errorf("CANVASS_DATABASE_URL: %w", err))
		}
	}
	if l := c.DatabaseListenURL; l != "" {
		if _, pooled, err := migrations.PostgresDSN(l); err != nil || pooled || !(strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")) {
			errs = append(errs, fmt.Errorf("CANVASS_DATABASE_LISTEN_URL must be a direct postgres:// URL (no pool_mode=transaction), not %q", l))
		}
	}
	if c.StaticDir != "" && c.Env != "development" {
		errs = append(errs, fmt.Errorf("CANVASS_STATIC_DIR is for development (make dev) only: CANVASS_ENV is %q", c.Env))
	}
	if strings.TrimSpace(c.UploadsDir) == "" {
		errs = append(errs, errors.New("CANVASS_UPLOADS_DIR must name a directory"))
	}
	if c.UnsubscribeMailto != "" {
		if a, err := mail.ParseAddress(c.UnsubscribeMailto); err != nil || a.Address != c.UnsubscribeMailto || a.Name != "" || !asciiOnly(c.UnsubscribeMailto) {
			errs = append(errs, fmt.Errorf("CANVASS_UNSUBSCRIBE_MAILTO must be a plain ASCII email address such as unsubscribe@panel.example, not %q", c.UnsubscribeMailto))
		}
	}
	if tenancy.NormalizeHost(c.ConsoleHost) != c.ConsoleHost || c.ConsoleHost == "" {
		errs = append(errs, fmt.Errorf("CANVASS_CONSOLE_HOST must be a host name without port, such as console.example.com, not %q", c.ConsoleHost))
	}
	if c.MetricsAddr != "" {
		if err := checkListenAddr(c.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("CANVASS_METRICS_ADDR must be a listen address such as 127.0.0.1:9090 or :9090, not %q: %v", c.MetricsAddr, err))
		} else if c.MetricsAddr == c.Addr {
			errs = append(errs, fmt.Errorf("CANVASS_METRICS_ADDR must differ from CANVASS_ADDR (%q): metrics never share the panels' listener", c.Addr))
		}
	}
	for _, p := range c.TrustedProxies {
		if _, err := parseProxy(p); err != nil {
			errs = append(errs, err)
		}
	}
	if c.Secret == "" {
		errs = append(errs, errors.New("CANVASS_SECRET is required in production (at least 32 characters)"))
	} else if len(c.Secret) < 32 {
		errs = append(errs, errors.New("CANVASS_SECRET must be at least 32 characters"))
	}
	return errors.Join(errs...)
}

func (c Config) Production() bool { return c.Env == "production" }

// asciiOnly: a mail header carries the value as it is (mailer.Header).
func asciiOnly(s string) bool {
	for _, r := range s {
		if r < 33 || r > 126 {
			return false
		}
	}
	return true
}

// checkListenAddr accepts host:port with a numeric port (the host may be empty: every address).
func checkListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q is not a number from 0 to 65535", port)
	}
	return nil
}

// parseTrustedProxies reads CANVASS_TRUSTED_PROXIES: addresses and CIDR ranges, comma-separated.
func parseTrustedProxies(raw string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := parseProxy(part)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// parseProxy checks one trusted proxy, an IP address (203.0.113.7, 2001:db8::1) or a CIDR range
// (10.0.0.0/8), and writes it as Fiber reads it.
func parseProxy(p string) (string, error) {
	if strings.Contains(p, "/") {
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			return "", fmt.Errorf("CANVASS_TRUSTED_PROXIES: %q is not a CIDR range such as 10.0.0.0/8", p)
		}
		return prefix.Masked().String(), nil
	}
	addr, err := netip.ParseAddr(p)
	if err != nil || addr.Zone() != "" {
		return "", fmt.Errorf("CANVASS_TRUSTED_PROXIES: %q is not an IP address or a CIDR range such as 10.0.0.0/8", p)
	}
	return addr.Unmap().String(), nil
}

// osConfig reads the process environment.
func osConfig() (Config, error) { return LoadConfig(os.Getenv) }
