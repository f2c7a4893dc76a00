package console

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme, globex), the console's service over it and a
// clock the test moves.
type fixture struct {
	t      *testing.T
	ctx    context.Context
	store  *Store
	svc    *Service
	acme   PanelRef
	globex PanelRef
	clock  time.Time
}

func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), store: NewStore(db), clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		for _, p := range []*PanelRef{&f.acme, &f.globex} {
			key := map[*PanelRef]string{&f.acme: "acme", &f.globex: "globex"}[p]
			wp := seed.Panel(t, db, key, "USD")
			*p = PanelRef{ID: wp.ID, Key: wp.Key, Name: wp.Name}
		}
		f.svc = NewService(f.store, func(context.Context) ([]PanelRef, error) { return []PanelRef{f.acme, f.globex}, nil }, false)
		f.svc.now = func() time.Time { return f.clock }
		fn(t, f)
	})
}

// operator adds an operator with a role on a panel and returns them.
func (f *fixture) operator(email string, role Role, panel PanelRef) *Operator {
	f.t.Helper()
	res, err := f.svc.AddOperator(f.ctx, CLI, email, role, panel.ID, "operator-password-1")
	require.NoError(f.t, err)
	return res.Operator
}

func TestEachRoleMayDoItsOwnActionsOnItsOwnPanelOnly(t *testing.T) {
	t.Parallel()
	allowed := map[Role][]Action{
		RoleOwner:   Actions,
		RoleEditor:  {ActionView, ActionEditCampaigns, ActionPreview, ActionReadResults, ActionReadResponses},
		RoleFinance: {ActionView, ActionRedemptions, ActionRevealPayout, ActionLedger, ActionCompetitions},
		RoleSupport: {ActionView, ActionReadMembers, ActionSuspendMembers, ActionEndSessions, ActionResendMail, ActionReadResponses},
	}
	every := allowed[RoleOwner]
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, role := range Roles {
			op := f.operator(string(role)+"@ops.test", role, f.acme)
			for _, action := range every {
				want := Forbidden
				for _, a := range allowed[role] {
					if a == action {
						want = Allowed
					}
				}
				got, access, err := f.svc.Can(f.ctx, op, "acme", action)
				require.NoError(t, err)
				assert.Equal(t, want, got, "%s may %s on their panel", role, action)
				assert.Equal(t, []Role{role}, access.Roles)
				for _, other := range []string{"globex", "no-such-panel"} {
					got, _, err = f.svc.Can(f.ctx, op, other, action)
					require.NoError(t, err)
					assert.Equal(t, Hidden, got, "%s may not even see %s", role, other)
				}
			}
		}
	})
}

func TestAnOperatorHoldsDifferentRolesOnDifferentPanels(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("multi@ops.test", RoleFinance, f.acme)
		f.operator("multi@ops.test", RoleEditor, f.acme)
		f.operator("multi@ops.test", RoleOwner, f.globex)
		access, err := f.svc.Access(f.ctx, op.ID)
		require.NoError(t, err)
		require.Len(t, access, 2)
		assert.Equal(t, PanelAccess{Panel: f.acme, Roles: []Role{RoleEditor, RoleFinance}}, access[0])
		assert.Equal(t, PanelAccess{Panel: f.globex, Roles: []Role{RoleOwner}}, access[1])
		for action, want := range map[Action]Decision{ActionLedger: Allowed, ActionPreview: Allowed, ActionManageOperators: Forbidden, ActionReadMembers: Forbidden} {
			got, _, err := f.svc.Can(f.ctx, op, "acme", action)
			require.NoError(t, err)
			assert.Equal(t, want, got, action)
		}
		got, _, err := f.svc.Can(f.ctx, op, "globex", ActionManageOperators)
		require.NoError(t, err)
		assert.Equal(t, Allowed, got)
	})
}

func TestAPanelKeepsItsLastOwner(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		first := f.operator("first@ops.test", RoleOwner, f.acme)
		second := f.operator("second@ops.test", RoleOwner, f.acme)
		f.operator("first@ops.test", RoleOwner, f.globex)
		who := ActorOf(first)

		require.NoError(t, f.svc.RemoveGrant(f.ctx, who, f.acme.ID, second.ID, RoleOwner), "two owners: one may go")
		assert.ErrorIs(t, f.svc.RemoveGrant(f.ctx, who, f.acme.ID, first.ID, RoleOwner), ErrLastOwner)
		assert.ErrorIs(t, f.svc.RemoveGrant(f.ctx, who, f.globex.ID, first.ID, RoleOwner), ErrLastOwner, "each panel keeps its own")
		assert.ErrorIs(t, f.svc.RemoveGrant(f.ctx, who, f.acme.ID, second.ID, RoleEditor), ErrNotFound, "a grant never given")
		n, err := f.store.CountRole(f.ctx, f.acme.ID, RoleOwner)
		require.NoError(t, err)
		assert.Equal(t, int64(1), n)
	})
}

func TestTheAuditLogIsOnlyEverAppended(t *testing.T) {
	t.Parallel()
	// The store, which owns every query of the log, has no way to change or remove an entry.
	st := reflect.TypeOf(&Store{})
	var auditMethods []string
	for i := range st.NumMethod() {
		if name := st.Method(i).Name; strings.Contains(name, "Audit") {
			auditMethods = append(auditMethods, name)
		}
	}
	assert.ElementsMatch(t, []string{"AppendAudit", "Audit"}, auditMethods)

	eachFixture(t, func(t *testing.T, f *fixture) {
		owner := f.operator("owner@ops.test", RoleOwner, f.acme)
		f.clock = f.clock.Add(time.Minute)
		added := f.operator("editor@ops.test", RoleEditor, f.acme)
		f.clock = f.clock.Add(time.Minute)
		require.NoError(t, f.svc.RemoveGrant(f.ctx, ActorOf(owner), f.acme.ID, added.ID, RoleEditor))

		log, err := f.svc.AuditLog(f.ctx, AuditFilter{PanelIDs: []string{f.acme.ID}})
		require.NoError(t, err)
		require.Len(t, log, 3)
		assert.Equal(t, []string{"operator.remove", "operator.add", "operator.add"}, []string{log[0].Action, log[1].Action, log[2].Action}, "newest first")
		assert.Equal(t, "owner@ops.test", log[0].OperatorEmail)
		assert.JSONEq(t, `{"email":"editor@ops.test","role":"editor"}`, log[0].BeforeJSON)
		assert.Empty(t, log[0].AfterJSON)

		// An entry's id cannot be written twice: appending never overwrites.
		again := log[0]
		again.Action = "tampered"
		assert.Error(t, f.store.AppendAudit(f.ctx, nil, &again))
		log, err = f.svc.AuditLog(f.ctx, AuditFilter{PanelIDs: []string{f.acme.ID}})
		require.NoError(t, err)
		assert.Equal(t, "operator.remove", log[0].Action)

		other, err := f.svc.AuditLog(f.ctx, AuditFilter{PanelIDs: []string{f.globex.ID}})
		require.NoError(t, err)
		assert.Empty(t, other, "another panel's log holds none of it")
	})
}

// enrol enrols an operator's TOTP through a session and returns the secret and recovery codes.
func (f *fixture) enrol(op *Operator) (string, []string) {
	f.t.Helper()
	token, err := f.svc.StartSession(f.ctx, op, StageFull)
	require.NoError(f.t, err)
	sess, _, err := f.svc.Resume(f.ctx, token)
	require.NoError(f.t, err)
	en, err := f.svc.BeginEnrol(f.ctx, sess, op)
	require.NoError(f.t, err)
	_, err = f.svc.FinishEnrol(f.ctx, sess, op, "000000")
	require.ErrorIs(f.t, err, ErrBadCode)
	code, err := totp.GenerateCode(en.Secret, f.clock)
	require.NoError(f.t, err)
	codes, err := f.svc.FinishEnrol(f.ctx, sess, op, code)
	require.NoError(f.t, err)
	return en.Secret, codes
}

func TestARecoveryCodeIsAcceptedOnceAndOnlyForItsOperator(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("owner@ops.test", RoleOwner, f.acme)
		other := f.operator("other@ops.test", RoleOwner, f.globex)
		secret, codes := f.enrol(op)
		require.Len(t, codes, RecoveryCodes)
		f.enrol(other)
		op, err := f.store.OperatorByID(f.ctx, op.ID)
		require.NoError(t, err)
		assert.Equal(t, secret, op.TOTPSecret)
		other, err = f.store.OperatorByID(f.ctx, other.ID)
		require.NoError(t, err)

		cases := []struct {
			name string
			who  *Operator
			code string
			want bool
		}{
			{"a recovery code", op, codes[0], true},
			{"the same code again", op, codes[0], false},
			{"another code, upper case and without its dash", op, strings.ToUpper(strings.ReplaceAll(codes[1], "-", "")), true},
			{"a code of another operator", other, codes[2], false},
			{"a code never given", op, "aaaaa-bbbbb", false},
			{"nothing", op, "", false},
		}
		for _, tc := range cases {
			ok, err := f.svc.CheckSecondFactor(f.ctx, tc.who, tc.code)
			require.NoError(t, err, tc.name)
			assert.Equal(t, tc.want, ok, tc.name)
		}
		left, err := f.svc.UnusedRecoveryCodes(f.ctx, op.ID)
		require.NoError(t, err)
		assert.Equal(t, int64(RecoveryCodes-2), left)

	})
}

func TestATOTPCodeSignsInOnceAndNoEarlierCodeAfterIt(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("owner@ops.test", RoleOwner, f.acme)
		secret, _ := f.enrol(op) // with the code of the step now: spent
		code := func(offset time.Duration) string {
			c, err := totp.GenerateCode(secret, f.clock.Add(offset))
			require.NoError(t, err)
			return c
		}
		f.clock = f.clock.Add(5 * time.Minute) // past the enrolment's steps
		steps := []struct {
			name   string
			offset time.Duration
			want   bool
		}{
			{"two steps ago is too old", -60 * time.Second, false},
			{"the step before now, within the skew", -30 * time.Second, true},
			{"the same code again", -30 * time.Second, false},
			{"the step now", 0, true},
			{"the step now again", 0, false},
			{"the step before now, after the step now was spent", -30 * time.Second, false},
			{"the step after now, within the skew", 30 * time.Second, true},
			{"now, after the step after it", 0, false},
			{"three steps ahead is too far", 90 * time.Second, false},
		}
		for _, st := range steps {
			ok, err := f.svc.CheckSecondFactor(f.ctx, op, code(st.offset))
			require.NoError(t, err, st.name)
			assert.Equal(t, st.want, ok, st.name)
		}
	})
}

func TestTheCodeThatConfirmedAnEnrolmentDoesNotSignIn(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("owner@ops.test", RoleOwner, f.acme)
		secret, _ := f.enrol(op)
		enrolCode, err := totp.GenerateCode(secret, f.clock)
		require.NoError(t, err)
		f.clock = f.clock.Add(20 * time.Second) // a later sign-in within the skew of that code
		ok, err := f.svc.CheckSecondFactor(f.ctx, op, enrolCode)
		require.NoError(t, err)
		assert.False(t, ok)
	})
}

func TestOneTOTPCodeSentManyTimesAtOnceSignsInOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("owner@ops.test", RoleOwner, f.acme)
		secret, _ := f.enrol(op)
		f.clock = f.clock.Add(5 * time.Minute)
		code, err := totp.GenerateCode(secret, f.clock)
		require.NoError(t, err)
		const racers = 12
		var wg sync.WaitGroup
		var accepted atomic.Int32
		for range racers {
			wg.Go(func() {
				ok, err := f.svc.CheckSecondFactor(f.ctx, op, code)
				assert.NoError(t, err)
				if ok {
					accepted.Add(1)
				}
			})
		}
		wg.Wait()
		assert.Equal(t, int32(1), accepted.Load())
	})
}

func TestASessionEndsWhenIdleOrPastItsAbsoluteEnd(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("owner@ops.test", RoleOwner, f.acme)
		start := f.clock

		idle, err := f.svc.StartSession(f.ctx, op, StageFull)
		require.NoError(t, err)
		f.clock = start.Add(IdleTimeout - time.Second)
		_, _, err = f.svc.Resume(f.ctx, idle)
		require.NoError(t, err, "in use just before the idle limit")
		f.clock = f.clock.Add(IdleTimeout - time.Second)
		_, _, err = f.svc.Resume(f.ctx, idle)
		require.NoError(t, err, "each use moves the idle clock on")
		f.clock = f.clock.Add(IdleTimeout)
		_, _, err = f.svc.Resume(f.ctx, idle)
		assert.ErrorIs(t, err, ErrNotFound, "idle too long")

		f.clock = start
		busy, err := f.svc.StartSession(f.ctx, op, StageFull)
		require.NoError(t, err)
		for f.clock.Before(start.Add(AbsoluteTimeout - IdleTimeout)) {
			f.clock = f.clock.Add(IdleTimeout / 2)
			_, _, err = f.svc.Resume(f.ctx, busy)
			require.NoError(t, err)
		}
		f.clock = start.Add(AbsoluteTimeout)
		_, _, err = f.svc.Resume(f.ctx, busy)
		assert.ErrorIs(t, err, ErrNotFound, "never past its absolute end, however busy")

		_, err = f.store.SessionByHash(f.ctx, HashToken(busy))
		assert.ErrorIs(t, err, ErrNotFound, "an ended session is deleted")
		assert.NotEqual(t, busy, HashToken(busy), "only the token's hash is kept")
	})
}

func TestTheCleanUpDeletesOnlyTheSessionsThatEnded(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		op := f.operator("owner@ops.test", RoleOwner, f.acme)
		start := f.clock
		left, err := f.svc.StartSession(f.ctx, op, StageFull) // never used again
		require.NoError(t, err)
		f.clock = start.Add(IdleTimeout / 2)
		live, err := f.svc.StartSession(f.ctx, op, StageFull)
		require.NoError(t, err)

		f.clock = start.Add(IdleTimeout + time.Minute)
		n, err := f.svc.SweepSessions(f.ctx, f.clock)
		require.NoError(t, err)
		assert.Equal(t, int64(1), n, "the session idle past its limit")
		_, err = f.store.SessionByHash(f.ctx, HashToken(left))
		assert.ErrorIs(t, err, ErrNotFound)
		_, err = f.store.SessionByHash(f.ctx, HashToken(live))
		assert.NoError(t, err, "a session still within its idle limit stays")

		n, err = f.svc.SweepSessions(f.ctx, f.clock)
		require.NoError(t, err)
		assert.Zero(t, n, "sweeping again deletes nothing")
	})
}
