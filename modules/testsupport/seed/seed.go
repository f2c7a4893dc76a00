// Package seed is test support: it writes the panels and members that module and app tests
// build on, through the tenancy and accounts modules' own stores, so no test reaches into
// their tables. It sits above the modules it calls and only tests import it.
package seed

import (
	"context"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// Every test binary that seeds members hashes their passwords cheaply: at OWASP's cost the
// hashing of thousands of sign-ins was a third of the tests' CPU (accounts.UseLightPasswordHashing
// says why that is safe, and panics outside a test binary).
func init() { accounts.UseLightPasswordHashing() }

// Panel creates (or updates) the panel key, of its own instance and host key.example.com,
// in currency with langs (English alone when none), and returns it resolved.
func Panel(t testing.TB, db *gorm.DB, key, currency string, langs ...string) *web.Panel {
	t.Helper()
	if len(langs) == 0 {
		langs = []string{"en"}
	}
	var spec tenancy.PanelSpec
	spec.Instance.Code, spec.Key, spec.Name, spec.CurrencyCode = key, key, "Panel "+key, currency
	spec.Hosts, spec.Languages = []string{key + ".example.com"}, langs
	ctx := context.Background()
	ts := tenancy.NewStore(db)
	_, err := ts.Apply(ctx, spec)
	require.NoError(t, err)
	p, _, err := tenancy.NewResolver(ts).ByKey(ctx, key)
	require.NoError(t, err)
	return p
}

// Member creates an active member of panel, speaking lang, with metadata (none when nil),
// created at, and returns their participant id.
func Member(t testing.TB, db *gorm.DB, panel *web.Panel, lang string, metadata accounts.Metadata, at time.Time) string {
	t.Helper()
	if metadata == nil {
		metadata = accounts.Metadata{}
	}
	id := uuid.NewString()
	ah := &accounts.AccountHolder{ID: uuid.NewString(), PanelID: panel.ID, Email: id + "@example.com", EmailNormalized: id + "@example.com",
		Status: accounts.StatusActive, LanguageCode: lang, CreatedAt: at, UpdatedAt: at}
	p := &accounts.Participant{ID: id, AccountHolderID: ah.ID, PanelID: panel.ID, Metadata: metadata, CreatedAt: at}
	require.NoError(t, accounts.NewStore(db).CreateMember(context.Background(), ah, p))
	return id
}
