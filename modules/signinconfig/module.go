// Package signinconfig owns each panel's sign-in configuration: the identity providers it offers
// (the tenant file's `sign_in:` part) and its captcha (`captcha:`), checked before anything
// changes, their secrets sealed at rest, read back for the operator console, and kept per
// process for a while so that the login page costs no database round trip. Signing in is the
// accounts module's, which reads a panel's configuration through the interface it declares
// (accounts.SignIns).
package signinconfig

import (
	"cmp"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Deps are what the module needs from the app.
type Deps struct {
	DB  *gorm.DB
	Kit *web.Kit // its Secret seals the providers' and captcha's secrets
	// CacheTTL bounds how long a panel's providers and captcha are kept per process (how long
	// another process's `tenant apply` takes to show); 0: a minute.
	CacheTTL time.Duration
}

type Module struct {
	store  *Store
	sealer *web.Sealer
	cache  signInCache
}

// keyPurpose derives the key that seals panels' provider and captcha secrets at rest (named when
// accounts kept them: the secrets already sealed keep opening).
const keyPurpose = "accounts-sign-in-secrets"

func New(d Deps) *Module {
	sealer, err := web.NewSealer(d.Kit.Secret(keyPurpose))
	if err != nil {
		panic(fmt.Errorf("signinconfig: %w", err)) // Kit.Secret is always 32 bytes
	}
	return &Module{
		store: &Store{db: d.DB}, sealer: sealer,
		cache: signInCache{ttl: cmp.Or(d.CacheTTL, time.Minute), byID: map[string]signInEntry{}},
	}
}

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&SignInProvider{}, &CaptchaSetting{}} }
