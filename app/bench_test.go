package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
)

// gzipSize is the size of b compressed with gzip at the default level.
func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

// benchGet measures one GET per iteration through the whole middleware chain.
func benchGet(b *testing.B, c *client, path string) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := c.get(path); res.StatusCode != http.StatusOK {
			b.Fatal(path, res.StatusCode)
		}
	}
}

// BenchmarkLoginPage renders the login page of a tenant.
func BenchmarkLoginPage(b *testing.B) {
	e := newEnv(b, "sqlite")
	benchGet(b, e.client("localhost"), "/login")
}

// BenchmarkFeedPageSignedIn renders a private page: session lookup, gates, layout.
func BenchmarkFeedPageSignedIn(b *testing.B) {
	e := newEnv(b, "sqlite")
	c := e.client("localhost")
	c.login(DemoEmail, DemoPassword)
	benchGet(b, c, "/feed")
}

// BenchmarkProfileAPI answers GET /api/v3/user/profile with a pp-token header.
func BenchmarkProfileAPI(b *testing.B) {
	e := newEnv(b, "sqlite")
	benchGet(b, tokenClient(e), "/api/v3/user/profile")
}

// tokenClient is a client of the demo member that sends only the pp-token header, as the
// spec's apps do.
func tokenClient(e *env) *client {
	login := e.client("localhost")
	login.login(DemoEmail, DemoPassword)
	c := e.client("localhost")
	c.header.Set("pp-token", login.cookie("pp-token"))
	return c
}

// BenchmarkSurveyInvitationPage renders a campaign's survey screen before the member starts
// it: the audience rule with the member's standing, then the invitation.
func BenchmarkSurveyInvitationPage(b *testing.B) {
	e := newEnv(b, "sqlite")
	c := e.client("localhost")
	c.login(DemoEmail, DemoPassword)
	benchGet(b, c, "/survey/"+e.campaignID("demo", "Quick poll"))
}

// BenchmarkSurveyGoAPI answers campaigns/{id}/go of a started campaign with a pp-token header.
func BenchmarkSurveyGoAPI(b *testing.B) {
	e := newEnv(b, "sqlite")
	benchGet(b, tokenClient(e), "/api/v1/demo/campaigns/"+e.campaignID("demo", "Quick poll")+"/go")
}

// BenchmarkFeedAPI answers campaigns/paged (the first page) with a pp-token header.
func BenchmarkFeedAPI(b *testing.B) {
	e := newEnv(b, "sqlite")
	c := tokenClient(e)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := c.postJSON("/api/v3/campaigns/paged", ""); res.StatusCode != http.StatusOK {
			b.Fatal(res.StatusCode, res.Body)
		}
	}
}

// BenchmarkATestAppStarts is what every test of this package pays before its first request:
// a database holding the demo, the app, its SMTP server and job workers (newEnv). Copies of
// migrated and seeded templates keep it low (migrations/dbtest); a rise here is a slower
// `make test`.
func BenchmarkATestAppStarts(b *testing.B) {
	for _, d := range dbtest.Dialects(b) {
		b.Run(string(d), func(b *testing.B) {
			newEnv(b, d) // the process's templates, made once
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				newEnv(b, d)
			}
		})
	}
}

// BenchmarkAnswerSubmit is the survey engine's answer (no HTTP) in the middle of a run, where
// nothing is counted, and at its end, where the run's results are counted (result_counts) and
// the finish hooks run: a synthetic member per iteration, each starting a fresh two-question run
// outside the timer. `benchstat` of it before and after a change to the engine's write path says
// what the change costs an answer.
func BenchmarkAnswerSubmit(b *testing.B) {
	for _, d := range dbtest.Dialects(b) {
		e := newEnvWith(b, d, withoutJobWorkers())
		ctx := context.Background()
		panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
		if err != nil {
			b.Fatal(err)
		}
		def := importBudgetSurvey(b, e, 2)
		next := 0
		members := func(n int) []surveys.Member {
			ids, err := e.app.Accounts.Service().EnsureSyntheticMembers(ctx, panel, next+n)
			if err != nil {
				b.Fatal(err)
			}
			out := make([]surveys.Member, n)
			for i, id := range ids[next:] {
				out[i] = surveys.Member(campaigns.PersonOf(&web.Member{ParticipantID: id, LanguageCode: "en", EmailValidated: true,
					Metadata: map[string]any{"welcomeCampaignCompleted": true}}, "en"))
			}
			next += n
			return out
		}
		answer := func(who surveys.Member, qid string) {
			if _, err := e.app.Surveys.Answer(ctx, panel, who, def.UUID, qid, []byte(`{"answer":"a"}`)); err != nil {
				b.Fatal(err)
			}
		}
		for _, end := range []bool{false, true} {
			name := string(d) + "/middle"
			if end {
				name = string(d) + "/end"
			}
			b.Run(name, func(b *testing.B) {
				who := members(b.N)
				for _, m := range who {
					if _, err := e.app.Surveys.Go(ctx, panel, m, def.UUID); err != nil {
						b.Fatal(err)
					}
					if end {
						answer(m, "q01")
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					qid := "q01"
					if end {
						qid = "q02"
					}
					answer(who[i], qid)
				}
			})
		}
	}
}
