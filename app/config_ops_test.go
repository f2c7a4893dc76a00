package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetricsAddressAndTrustedProxiesAreCheckedAtStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		env         map[string]string
		wantErr     string
		wantMetrics string
		wantProxies []string
	}{
		{"metrics are off and no proxy is trusted by default", nil, "", "", nil},
		{"a loopback metrics address is accepted", map[string]string{"CANVASS_METRICS_ADDR": "127.0.0.1:9090"}, "", "127.0.0.1:9090", nil},
		{"a metrics port alone listens everywhere", map[string]string{"CANVASS_METRICS_ADDR": ":9090"}, "", ":9090", nil},
		{"a metrics address without a port is refused", map[string]string{"CANVASS_METRICS_ADDR": "127.0.0.1"}, "CANVASS_METRICS_ADDR must be a listen address", "", nil},
		{"a metrics port that is not a number is refused", map[string]string{"CANVASS_METRICS_ADDR": "127.0.0.1:metrics"}, "CANVASS_METRICS_ADDR must be a listen address", "", nil},
		{"the panels' own address is refused for metrics", map[string]string{"CANVASS_ADDR": ":3000", "CANVASS_METRICS_ADDR": ":3000"}, "must differ from CANVASS_ADDR", "", nil},
		{"proxies are addresses and ranges, comma-separated", map[string]string{"CANVASS_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.10 ,::1,fd00::/8"}, "", "",
			[]string{"10.0.0.0/8", "192.168.1.10", "::1", "fd00::/8"}},
		{"a range is written with its host bits cleared", map[string]string{"CANVASS_TRUSTED_PROXIES": "10.1.2.3/8"}, "", "", []string{"10.0.0.0/8"}},
		{"empty entries are skipped", map[string]string{"CANVASS_TRUSTED_PROXIES": " , 127.0.0.1,"}, "", "", []string{"127.0.0.1"}},
		{"a host name is refused as a proxy", map[string]string{"CANVASS_TRUSTED_PROXIES": "proxy.internal"}, `CANVASS_TRUSTED_PROXIES: "proxy.internal" is not an IP address`, "", nil},
		{"a bad range is refused", map[string]string{"CANVASS_TRUSTED_PROXIES": "10.0.0.0/33"}, `CANVASS_TRUSTED_PROXIES: "10.0.0.0/33" is not a CIDR range`, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfig(func(k string) string {
				if v, ok := tc.env[k]; ok {
					return v
				}
				switch k {
				case "CANVASS_ENV":
					return "development"
				}
				return ""
			})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantMetrics, cfg.MetricsAddr)
			assert.Equal(t, tc.wantProxies, cfg.TrustedProxies)
		})
	}
}
