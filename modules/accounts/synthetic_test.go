package accounts_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// syntheticFixture is the accounts service over a database with two panels: acme (English,
// Spanish) and globex (English).
type syntheticFixture struct {
	ctx    context.Context
	db     *gorm.DB
	svc    *accounts.Service
	acme   *web.Panel
	globex *web.Panel
}

func eachSyntheticFixture(t *testing.T, fn func(t *testing.T, f *syntheticFixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		kit := web.NewKit("development", strings.Repeat("s", 32), log, messages.Locales(t), nil)
		m := accounts.New(accounts.Deps{DB: db, Kit: kit, Limiter: ratelimit.New(db), Log: log})
		fn(t, &syntheticFixture{ctx: context.Background(), db: db, svc: m.Service(),
			acme: seed.Panel(t, db, "acme", "USD", "en", "es"), globex: seed.Panel(t, db, "globex", "GBP", "en")})
	})
}

// holders counts the account holders of a panel.
func (f *syntheticFixture) holders(t *testing.T, panel *web.Panel) int64 {
	var n int64
	require.NoError(t, f.db.Model(&accounts.AccountHolder{}).Where("panel_id = ?", panel.ID).Count(&n).Error)
	return n
}

func TestEnsureSyntheticMembersCreatesNLabelledMembersOfThePanel(t *testing.T) {
	t.Parallel()
	eachSyntheticFixture(t, func(t *testing.T, f *syntheticFixture) {
		ids, err := f.svc.EnsureSyntheticMembers(f.ctx, f.acme, 30)
		require.NoError(t, err)
		require.Len(t, ids, 30)
		assert.Equal(t, int64(30), f.holders(t, f.acme))
		assert.Zero(t, f.holders(t, f.globex), "another panel gets none")

		store := accounts.NewStore(f.db)
		langs := map[string]int{}
		for i, id := range ids {
			email := accounts.SyntheticEmail(i + 1)
			ah, err := store.HolderByEmail(f.ctx, f.acme.ID, email)
			require.NoError(t, err, email)
			p, err := store.ParticipantOf(f.ctx, ah.ID)
			require.NoError(t, err)
			assert.Equal(t, id, p.ID, "ids[%d] is %s", i, email)
			assert.Equal(t, "Synthetic", ah.FirstName)
			assert.Equal(t, accounts.StatusActive, ah.Status)
			assert.NotNil(t, ah.AcceptedTermsAt, "accepted the terms")
			assert.NotNil(t, ah.EmailValidatedAt, "validated their email")
			assert.Equal(t, accounts.Metadata{"synthetic": true, "siteId": "acme"}, p.Metadata)
			assert.Equal(t, accounts.SyntheticLanguage(f.acme, i), ah.LanguageCode)
			langs[ah.LanguageCode]++
		}
		assert.Equal(t, "respondent-0001@synthetic.invalid", accounts.SyntheticEmail(1))
		assert.Equal(t, map[string]int{"en": 20, "es": 10}, langs, "the panel's languages, its default one most")
	})
}

func TestSyntheticMembersCannotSignIn(t *testing.T) {
	t.Parallel()
	eachSyntheticFixture(t, func(t *testing.T, f *syntheticFixture) {
		_, err := f.svc.EnsureSyntheticMembers(f.ctx, f.acme, 2)
		require.NoError(t, err)
		ah, err := accounts.NewStore(f.db).HolderByEmail(f.ctx, f.acme.ID, accounts.SyntheticEmail(1))
		require.NoError(t, err)
		for _, password := range []string{"demo-password-1", "respondent-0001@synthetic.invalid", "Synthetic", ah.PasswordHash, strings.Repeat("a", 12)} {
			_, err := f.svc.Login(f.ctx, f.acme, accounts.SyntheticEmail(1), password, accounts.Client{IP: "203.0.113.9"}, nil)
			var we *web.Error
			require.ErrorAs(t, err, &we, "refused as a wrong password, not failing: %v", err)
			assert.Equal(t, 401, we.Status)
		}
		ok, err := accounts.CheckPassword(ah.PasswordHash, "")
		require.NoError(t, err, "the stored hash is a well-formed argon2id hash")
		assert.False(t, ok)
	})
}

func TestEnsureSyntheticMembersAgainReturnsTheSameMembersAndCreatesOnlyThoseMissing(t *testing.T) {
	t.Parallel()
	eachSyntheticFixture(t, func(t *testing.T, f *syntheticFixture) {
		first, err := f.svc.EnsureSyntheticMembers(f.ctx, f.globex, 3)
		require.NoError(t, err)
		cases := []struct {
			name    string
			n       int
			holders int64
		}{
			{"the same number returns the same members", 3, 3},
			{"fewer returns the first of them", 2, 3},
			{"more adds those missing, past a batch of inserts", 1201, 1201},
			{"and again creates nothing", 1201, 1201},
		}
		for _, tc := range cases {
			ids, err := f.svc.EnsureSyntheticMembers(f.ctx, f.globex, tc.n)
			require.NoError(t, err, tc.name)
			require.Len(t, ids, tc.n, tc.name)
			assert.Equal(t, first[:min(3, tc.n)], ids[:min(3, tc.n)], tc.name)
			assert.Equal(t, tc.holders, f.holders(t, f.globex), tc.name)
			seen := map[string]bool{}
			for _, id := range ids {
				seen[id] = true
			}
			assert.Len(t, seen, tc.n, "%s: every id once", tc.name)
		}
	})
}
