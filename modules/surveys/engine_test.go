package surveys

import (
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reward is what the engine's test campaigns pay: "2.50" in acme's USD.
const reward = int64(250)

// survey is a campaign of the given questions that pays 2.50.
func survey(name string, qs []campaigns.Question, edits ...func(*campaigns.Definition)) *campaigns.Definition {
	return definition(name, append([]func(*campaigns.Definition){func(d *campaigns.Definition) { d.Questions, d.Reward = qs, "2.50" }}, edits...)...)
}

func radioQ(id string, ids ...string) campaigns.Question {
	return campaigns.Question{ID: id, ControlType: campaigns.ControlRadio, Text: campaigns.Text{"en": "Pick " + id}, Answers: opts(ids...)}
}

func checkboxQ(id string, ids ...string) campaigns.Question {
	return campaigns.Question{ID: id, ControlType: campaigns.ControlCheckbox, Text: campaigns.Text{"en": "Tick " + id}, Answers: opts(ids...)}
}

func numberQ(id string, lo, hi float64) campaigns.Question {
	return campaigns.Question{ID: id, ControlType: campaigns.ControlNumber, Text: campaigns.Text{"en": "How many " + id}, MinNum: floatp(lo), MaxNum: floatp(hi)}
}

func textQ(id string) campaigns.Question {
	return campaigns.Question{ID: id, ControlType: campaigns.ControlText, Text: campaigns.Text{"en": "Say " + id}}
}

// threeQuestions is a radio, a number and a text question.
func threeQuestions() []campaigns.Question {
	return []campaigns.Question{radioQ("q1", "yes", "no"), numberQ("q2", 0, 120), textQ("q3")}
}

// progress is a go result's progress: answered, questions, percent.
func progress(r *GoResult) [3]int {
	a, q, p := r.Progress()
	return [3]int{a, q, p}
}

// requireRefused checks err is a *web.Error of the status, with the detail code if given.
func requireRefused(t *testing.T, err error, status int, code string) *web.Error {
	t.Helper()
	require.Error(t, err)
	var we *web.Error
	require.ErrorAs(t, err, &we)
	assert.Equal(t, status, we.Status, "%v", err)
	if code != "" {
		require.NotEmpty(t, we.Details)
		assert.Equal(t, code, we.Details[0].Code)
	}
	return we
}

// requireFinished checks err is the 409 campaign_finished telling the member's status.
func requireFinished(t *testing.T, err error, status string) {
	t.Helper()
	we := requireRefused(t, err, 409, "campaign_finished")
	assert.Equal(t, status, we.Body["campaign_status"])
}

// endedQuotaFull checks an answer ended the member's survey in quota_full: as the go result,
// or, when the quota was already full as the answer arrived, as the 409 that says so.
func endedQuotaFull(t *testing.T, r *GoResult, err error) {
	t.Helper()
	if err != nil {
		requireFinished(t, err, campaigns.StatusQuotaFull)
		return
	}
	assert.Equal(t, campaigns.StatusQuotaFull, r.Status)
	assert.Nil(t, r.Question)
}

// runState is everything an answer may change for a member: where they are, what they
// answered and what they were paid.
type runState struct {
	Status   string
	Current  string
	Answered int
	Answers  map[string]string
	Balance  int64
	Entries  int
}

func (f *fixture) runState(panel *web.Panel, who Member, id string) runState {
	p := f.participation(who, id)
	s := runState{Status: p.Status, Answered: p.Answered, Answers: f.storedAnswers(who, id), Balance: f.balance(panel, who), Entries: len(f.ledger(who))}
	if p.CurrentQuestion != nil {
		s.Current = *p.CurrentQuestion
	}
	return s
}

type outcome struct {
	res *GoResult
	err error
}

// concurrently runs fn n times at once (released together) and returns what each returned.
func concurrently(n int, fn func(i int) (*GoResult, error)) []outcome {
	out := make([]outcome, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r, err := fn(i)
			out[i] = outcome{r, err}
		}()
	}
	close(start)
	wg.Wait()
	return out
}

func TestGoStartsACampaignAtItsFirstQuestionAndResumesWhereTheMemberIs(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Three", threeQuestions()))[0]
		who := f.member(f.acme, "en", true, nil)

		r := f.start(f.acme, who, id)
		assert.Equal(t, campaigns.StatusStarted, r.Status)
		require.NotNil(t, r.Question)
		assert.Equal(t, "q1", r.Question.ID)
		assert.Nil(t, r.Answer, "nothing answered yet")
		assert.Equal(t, [3]int{0, 3, 0}, progress(r))
		p := f.participation(who, id)
		assert.Equal(t, campaigns.StatusStarted, p.Status)
		require.NotNil(t, p.StartedAt)
		require.NotNil(t, p.CurrentQuestion)
		assert.Equal(t, "q1", *p.CurrentQuestion)
		assert.NotNil(t, p.SeenAt, "starting a campaign opens it")
		startedAt := *p.StartedAt

		f.clock = f.clock.Add(time.Hour)
		again := f.start(f.acme, who, id)
		assert.Equal(t, campaigns.StatusStarted, again.Status)
		assert.Equal(t, "q1", again.Question.ID, "a second go resumes at the same question")
		assert.Equal(t, [3]int{0, 3, 0}, progress(again))
		assert.True(t, startedAt.Equal(*f.participation(who, id).StartedAt), "resuming does not start again")

		next := f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		assert.Equal(t, campaigns.StatusStarted, next.Status)
		require.NotNil(t, next.Question)
		assert.Equal(t, "q2", next.Question.ID)
		assert.Nil(t, next.Answer)
		assert.Equal(t, [3]int{1, 3, 33}, progress(next))

		// A reload (another module over the same database, as after a restart) resumes at q2.
		catalogue := campaigns.New(campaigns.Deps{DB: f.db, Standing: Standing{}, Now: f.now})
		reloaded := New(Deps{DB: f.db, Catalogue: catalogue, Audience: catalogue.Audience})
		reloaded.now = f.now
		resumed, err := reloaded.Go(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusStarted, resumed.Status)
		require.NotNil(t, resumed.Question)
		assert.Equal(t, "q2", resumed.Question.ID)
		assert.Equal(t, [3]int{1, 3, 33}, progress(resumed))
		assert.Equal(t, map[string]string{"q1": `"yes"`}, f.storedAnswers(who, id))
	})
}

func TestTheLastAnswerCompletesTheCampaignAndPaysTheRewardOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Breakfast habits", threeQuestions()))[0]
		who := f.member(f.acme, "en", true, nil)
		f.start(f.acme, who, id)
		f.mustAnswer(f.acme, who, id, "q1", `"no"`)
		f.mustAnswer(f.acme, who, id, "q2", `12`)
		assert.Zero(t, f.balance(f.acme, who), "nothing is paid before the end")

		done := f.mustAnswer(f.acme, who, id, "q3", `"  toast  "`)
		assert.Equal(t, campaigns.StatusCompleted, done.Status)
		assert.Nil(t, done.Question)
		assert.Equal(t, [3]int{3, 3, 100}, progress(done))

		p := f.participation(who, id)
		assert.Equal(t, campaigns.StatusCompleted, p.Status)
		assert.NotNil(t, p.FinishedAt)
		assert.Nil(t, p.CurrentQuestion)
		assert.Equal(t, 3, p.Answered)
		assert.Equal(t, map[string]string{"q1": `"no"`, "q2": `12`, "q3": `"toast"`}, f.storedAnswers(who, id), "answers stored normalised")

		assert.Equal(t, reward, f.balance(f.acme, who))
		entries := f.ledger(who)
		require.Len(t, entries, 1)
		e := entries[0]
		assert.Equal(t, wallet.OriginCampaign, e.Origin)
		require.NotNil(t, e.CampaignID)
		assert.Equal(t, id, *e.CampaignID)
		assert.Equal(t, reward, e.AmountMinor)
		assert.Equal(t, "USD", e.CurrencyCode)
		assert.Equal(t, "Breakfast habits", e.Title)
		require.NotNil(t, e.NaturalKey)
		assert.Equal(t, wallet.CampaignKey(id), *e.NaturalKey)
		assert.False(t, e.Competition)

		// A retry of the last answer (its response lost) gets the outcome again; any other
		// answer is refused: the campaign is finished.
		retry := f.mustAnswer(f.acme, who, id, "q3", `"toast"`)
		assert.Equal(t, campaigns.StatusCompleted, retry.Status)
		assert.Nil(t, retry.Question)
		assert.Equal(t, [3]int{3, 3, 100}, progress(retry))
		for _, q := range []struct{ id, value string }{{"q3", `"eggs"`}, {"q1", `"yes"`}, {"q2", `13`}} {
			_, err := f.answer(f.acme, who, id, q.id, q.value)
			requireFinished(t, err, campaigns.StatusCompleted)
		}
		assert.Equal(t, reward, f.balance(f.acme, who), "answering again pays nothing")
		assert.Len(t, f.ledger(who), 1)
		assert.Equal(t, map[string]string{"q1": `"no"`, "q2": `12`, "q3": `"toast"`}, f.storedAnswers(who, id), "nor changes an answer")

		after := f.start(f.acme, who, id)
		assert.Equal(t, campaigns.StatusCompleted, after.Status)
		assert.Nil(t, after.Question)
		assert.Equal(t, [3]int{3, 3, 100}, progress(after))
	})
}

func TestACampaignWithoutRewardCompletesWithoutALedgerEntry(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Free", func(d *campaigns.Definition) { d.Reward = "0.00" }))[0]
		who := f.member(f.acme, "en", true, nil)
		r := f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		assert.Equal(t, campaigns.StatusCompleted, r.Status)
		assert.Empty(t, f.ledger(who))
	})
}

func TestACompetitionCompletionIsPaidAsACompetitionEntry(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Win a bike", []campaigns.Question{radioQ("q1", "yes", "no")}, func(d *campaigns.Definition) {
			d.Type, d.Competition = campaigns.TypeCompetition, &campaigns.Competition{Prize: campaigns.Text{"en": "A bike"}, Winners: 1}
		}))[0]
		who := f.member(f.acme, "en", true, nil)
		f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		entries := f.ledger(who)
		require.Len(t, entries, 1)
		assert.True(t, entries[0].Competition)
	})
}

func TestTheSameAnswerSentTwiceAdvancesOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Twice", threeQuestions()))[0]
		who := f.member(f.acme, "en", true, nil)
		f.start(f.acme, who, id)

		first := f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		repeat := f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		assert.Equal(t, first.Question.ID, repeat.Question.ID, "the repeat answers where the member is")
		assert.Equal(t, "q2", repeat.Question.ID)
		assert.Equal(t, [3]int{1, 3, 33}, progress(repeat))

		f.mustAnswer(f.acme, who, id, "q2", `30`)
		again := f.mustAnswer(f.acme, who, id, "q2", `30.0`)
		assert.Equal(t, "q3", again.Question.ID, "the same number, written differently, is the same answer")
		assert.Equal(t, 2, f.participation(who, id).Answered)

		f.mustAnswer(f.acme, who, id, "q3", `"done"`)
		last := f.mustAnswer(f.acme, who, id, "q3", `"done"`)
		assert.Equal(t, campaigns.StatusCompleted, last.Status, "a repeat of the last answer gets the outcome again")
		assert.Equal(t, 3, f.participation(who, id).Answered)
		assert.Equal(t, reward, f.balance(f.acme, who), "and pays nothing more")
		assert.Len(t, f.ledger(who), 1)
	})
}

func TestConcurrentIdenticalAnswersAdvanceOnceAndPayOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Double click", threeQuestions()))[0]
		who := f.member(f.acme, "en", true, nil)
		f.start(f.acme, who, id)
		f.mustAnswer(f.acme, who, id, "q1", `"yes"`)

		t.Run("a middle question", func(t *testing.T) {
			outs := concurrently(20, func(int) (*GoResult, error) { return f.answer(f.acme, who, id, "q2", `7`) })
			for _, o := range outs {
				require.NoError(t, o.err)
				assert.Equal(t, campaigns.StatusStarted, o.res.Status)
				assert.Equal(t, "q3", o.res.Question.ID)
				assert.Equal(t, 2, o.res.Answered)
			}
			p := f.participation(who, id)
			assert.Equal(t, 2, p.Answered, "twenty submissions advance once")
			assert.Equal(t, "q3", *p.CurrentQuestion)
		})

		t.Run("a first answer without a go", func(t *testing.T) {
			newcomer := f.member(f.acme, "en", true, nil)
			outs := concurrently(20, func(int) (*GoResult, error) { return f.answer(f.acme, newcomer, id, "q1", `"no"`) })
			for _, o := range outs {
				require.NoError(t, o.err)
				assert.Equal(t, "q2", o.res.Question.ID)
			}
			p := f.participation(newcomer, id)
			assert.Equal(t, campaigns.StatusStarted, p.Status)
			assert.Equal(t, 1, p.Answered)
		})

		t.Run("the last question", func(t *testing.T) {
			outs := concurrently(20, func(int) (*GoResult, error) { return f.answer(f.acme, who, id, "q3", `"same"`) })
			for _, o := range outs {
				require.NoError(t, o.err, "a repeat of the last answer is no error")
				assert.Equal(t, campaigns.StatusCompleted, o.res.Status)
				assert.Nil(t, o.res.Question)
			}
			p := f.participation(who, id)
			assert.Equal(t, campaigns.StatusCompleted, p.Status)
			assert.Equal(t, 3, p.Answered)
			assert.Equal(t, reward, f.balance(f.acme, who), "paid exactly once")
			assert.Len(t, f.ledger(who), 1)
		})
	})
}

func TestARefusedAnswerChangesNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		answer func(f *fixture, who Member, id, theirs string) (*GoResult, error)
		check  func(t *testing.T, err error)
	}{
		{"a different answer to an answered question is not_current_question",
			func(f *fixture, who Member, id, _ string) (*GoResult, error) {
				return f.answer(f.acme, who, id, "q1", `"no"`)
			},
			func(t *testing.T, err error) { requireRefused(t, err, 409, "not_current_question") }},
		{"an answer to a later question is not_current_question",
			func(f *fixture, who Member, id, _ string) (*GoResult, error) {
				return f.answer(f.acme, who, id, "q3", `"ahead"`)
			},
			func(t *testing.T, err error) { requireRefused(t, err, 409, "not_current_question") }},
		{"an unknown question is a 404",
			func(f *fixture, who Member, id, _ string) (*GoResult, error) {
				return f.answer(f.acme, who, id, "q9", `"x"`)
			},
			func(t *testing.T, err error) { requireRefused(t, err, 404, "") }},
		{"an invalid answer to the current question is a 400",
			func(f *fixture, who Member, id, _ string) (*GoResult, error) {
				return f.answer(f.acme, who, id, "q2", `500`)
			},
			func(t *testing.T, err error) {
				we := requireRefused(t, err, 400, "")
				assert.Equal(t, "answer", we.Details[0].Field)
			}},
		{"a null answer is the spec's 400",
			func(f *fixture, who Member, id, _ string) (*GoResult, error) {
				return f.m.Answer(f.ctx, f.acme, who, id, "q2", []byte(`{"answer":null}`))
			},
			func(t *testing.T, err error) {
				we := requireRefused(t, err, 400, "")
				assert.Equal(t, AnswerNullMessage, we.Message)
			}},
		{"another panel's campaign is not found",
			func(f *fixture, who Member, _, theirs string) (*GoResult, error) {
				return f.answer(f.acme, who, theirs, "q1", `"yes"`)
			},
			func(t *testing.T, err error) { assert.ErrorIs(t, err, web.ErrNotFound) }},
		{"a campaign id that is no uuid is not found",
			func(f *fixture, who Member, _, _ string) (*GoResult, error) {
				return f.answer(f.acme, who, "nope", "q1", `"yes"`)
			},
			func(t *testing.T, err error) { assert.ErrorIs(t, err, web.ErrNotFound) }},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Ours", threeQuestions()))[0]
		theirs := f.campaigns(f.globex, survey("Theirs", threeQuestions()))[0]
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				who := f.member(f.acme, "en", true, nil)
				f.start(f.acme, who, id)
				f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
				before := f.runState(f.acme, who, id)

				r, err := tc.answer(f, who, id, theirs)
				assert.Nil(t, r)
				tc.check(t, err)
				assert.Equal(t, before, f.runState(f.acme, who, id), "a refused answer changes nothing")
				assert.Zero(t, f.participation(who, theirs).ID, "nor starts the other panel's campaign")
			})
		}

		t.Run("a go on another panel's campaign is not found", func(t *testing.T) {
			who := f.member(f.acme, "en", true, nil)
			_, err := f.m.Go(f.ctx, f.acme, who, theirs)
			assert.ErrorIs(t, err, web.ErrNotFound)
			assert.Zero(t, f.participation(who, theirs).ID)
		})
	})
}

func TestRoutingDecidesWhereTheMemberGoesNext(t *testing.T) {
	t.Parallel()
	type step struct{ q, value string }
	qs := []campaigns.Question{radioQ("q1", "a", "b", "c"), numberQ("q2", 0, 120), checkboxQ("q3", "x", "y", "z"), textQ("q4")}
	qs[1].Routes = []campaigns.Route{
		{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "a"}, {Question: "q2", Op: campaigns.OpGt, Value: 60.0}}, Then: campaigns.ThenScreenOut},
		{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpIn, Values: []any{"b"}}}, Then: campaigns.ThenDisqualify},
		{When: []campaigns.Condition{{Question: "q2", Op: campaigns.OpGte, Value: 90.0}}, Then: campaigns.ThenComplete},
		{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "c"}}, Then: campaigns.ThenSkipTo, Target: "q4"},
	}
	qs[2].Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q3", Op: campaigns.OpIn, Values: []any{"z"}}}, Then: campaigns.ThenScreenOut}}

	cases := []struct {
		name     string
		steps    []step
		status   string
		question string // the question the member is at, if the campaign goes on
		answered int
		paid     bool
	}{
		{name: "screen_out when q1 is a and q2 is over 60", steps: []step{{"q1", `"a"`}, {"q2", `61`}}, status: campaigns.StatusScreened, answered: 2},
		{name: "no rule holds at exactly 60: the next question", steps: []step{{"q1", `"a"`}, {"q2", `60`}}, status: campaigns.StatusStarted, question: "q3", answered: 2},
		{name: "no rule holds all the way: completed", steps: []step{{"q1", `"a"`}, {"q2", `60`}, {"q3", `["x","y"]`}, {"q4", `"ok"`}}, status: campaigns.StatusCompleted, answered: 4, paid: true},
		{name: "disqualify when q1 is in the listed ids", steps: []step{{"q1", `"b"`}, {"q2", `95`}}, status: campaigns.StatusDisqualified, answered: 2},
		{name: "complete ends early and pays", steps: []step{{"q1", `"c"`}, {"q2", `95`}}, status: campaigns.StatusCompleted, answered: 2, paid: true},
		{name: "skip_to jumps over the questions between", steps: []step{{"q1", `"c"`}, {"q2", `10`}}, status: campaigns.StatusStarted, question: "q4", answered: 2},
		{name: "the skipped-to question completes", steps: []step{{"q1", `"c"`}, {"q2", `10`}, {"q4", `"end"`}}, status: campaigns.StatusCompleted, answered: 3, paid: true},
		{name: "a checkbox answer routes when any chosen id is listed", steps: []step{{"q1", `"a"`}, {"q2", `20`}, {"q3", `["x","z"]`}}, status: campaigns.StatusScreened, answered: 3},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Routed", qs))[0]
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				who := f.member(f.acme, "en", true, nil)
				f.start(f.acme, who, id)
				var r *GoResult
				for _, s := range tc.steps {
					r = f.mustAnswer(f.acme, who, id, s.q, s.value)
				}
				assert.Equal(t, tc.status, r.Status)
				assert.Equal(t, tc.answered, r.Answered)
				if tc.question != "" {
					require.NotNil(t, r.Question)
					assert.Equal(t, tc.question, r.Question.ID)
					assert.Equal(t, tc.question, *f.participation(who, id).CurrentQuestion)
				} else {
					assert.Nil(t, r.Question)
					assert.Equal(t, 100, progress(r)[2], "a finished campaign is 100%")
					assert.Equal(t, tc.status, f.participation(who, id).Status)
				}
				if tc.paid {
					assert.Equal(t, reward, f.balance(f.acme, who))
					assert.Len(t, f.ledger(who), 1)
				} else {
					assert.Zero(t, f.balance(f.acme, who), "only a completion is paid")
					assert.Empty(t, f.ledger(who))
				}
				if campaigns.IsTerminal(tc.status) {
					_, err := f.answer(f.acme, who, id, "q4", `"more"`)
					requireFinished(t, err, tc.status)
				}
			})
		}

		t.Run("a skipped question can't be answered and is never stored", func(t *testing.T) {
			who := f.member(f.acme, "en", true, nil)
			f.start(f.acme, who, id)
			f.mustAnswer(f.acme, who, id, "q1", `"c"`)
			f.mustAnswer(f.acme, who, id, "q2", `10`)
			_, err := f.answer(f.acme, who, id, "q3", `["x"]`)
			requireRefused(t, err, 409, "not_current_question")
			f.mustAnswer(f.acme, who, id, "q4", `"end"`)
			assert.NotContains(t, f.storedAnswers(who, id), "q3")
		})
	})
}

// A re-import may drop the question a member is at; Go then carries on from the start
// (describe's fallback), and the member must be able to answer what Go shows them.
func TestAMemberWhoseQuestionWasRemovedByAReimportCanCarryOn(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		def := survey("Edited", threeQuestions())
		id := f.campaigns(f.acme, def)[0]
		who := f.member(f.acme, "en", true, nil)
		f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		assert.Equal(t, "q2", *f.participation(who, id).CurrentQuestion)

		edited := *def
		edited.Questions = []campaigns.Question{def.Questions[0], def.Questions[2]} // q2 is gone
		f.campaigns(f.acme, &edited)

		g := f.start(f.acme, who, id)
		require.NotNil(t, g.Question, "the member is not stranded without a question")
		answers := map[string]string{"q1": `"no"`, "q3": `"fine"`}
		var r *GoResult
		var err error
		for range 3 {
			r, err = f.answer(f.acme, who, id, g.Question.ID, answers[g.Question.ID])
			if !assert.NoError(t, err, "answering the question Go shows (%s)", g.Question.ID) || r.Question == nil {
				break
			}
			if !assert.NotEqual(t, g.Question.ID, r.Question.ID, "the answer moves the member on") {
				break
			}
			g = r
		}
		if err == nil {
			assert.Equal(t, campaigns.StatusCompleted, r.Status)
			assert.Equal(t, reward, f.balance(f.acme, who))
		}
	})
}

func TestAQuotaOfOneCompletePaysTheFirstCompleterOnly(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("One only", []campaigns.Question{radioQ("q1", "yes", "no")}, func(d *campaigns.Definition) {
			d.Quotas = []campaigns.Quota{{ID: "all", Limit: 1}}
		}))[0]
		first, second, late := f.member(f.acme, "en", true, nil), f.member(f.acme, "en", true, nil), f.member(f.acme, "en", true, nil)
		f.start(f.acme, first, id)
		f.start(f.acme, second, id)

		r := f.mustAnswer(f.acme, first, id, "q1", `"yes"`)
		assert.Equal(t, campaigns.StatusCompleted, r.Status)
		assert.Equal(t, reward, f.balance(f.acme, first))
		assert.Equal(t, 1, f.quotaCompletes(id, "all"))
		require.NotNil(t, f.participation(first, id).QuotaID)
		assert.Equal(t, "all", *f.participation(first, id).QuotaID)

		r, err := f.answer(f.acme, second, id, "q1", `"yes"`)
		endedQuotaFull(t, r, err)
		assert.Zero(t, f.balance(f.acme, second), "a quota_full member is not paid")
		assert.Empty(t, f.ledger(second))
		assert.Equal(t, 1, f.quotaCompletes(id, "all"))
		g := f.start(f.acme, second, id)
		assert.Equal(t, campaigns.StatusQuotaFull, g.Status)
		assert.Nil(t, g.Question)

		g = f.start(f.acme, late, id)
		assert.Equal(t, campaigns.StatusQuotaFull, g.Status, "no one new may start a full campaign")
		assert.Nil(t, g.Question)
	})
}

func TestAQuotaOnAnswersCountsOnlyTheCompletersItMatches(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("Yes quota", []campaigns.Question{radioQ("q1", "yes", "no")}, func(d *campaigns.Definition) {
			d.Quotas = []campaigns.Quota{{ID: "yes", Limit: 1, When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "yes"}}}}
		}))[0]
		steps := []struct {
			answer  string
			status  string
			counted bool
		}{
			{`"yes"`, campaigns.StatusCompleted, true},
			{`"no"`, campaigns.StatusCompleted, false},
			{`"yes"`, campaigns.StatusQuotaFull, false},
			{`"no"`, campaigns.StatusCompleted, false},
		}
		for i, s := range steps {
			who := f.member(f.acme, "en", true, nil)
			f.start(f.acme, who, id)
			r := f.mustAnswer(f.acme, who, id, "q1", s.answer)
			assert.Equal(t, s.status, r.Status, "member %d", i+1)
			p := f.participation(who, id)
			assert.Equal(t, s.status, p.Status, "member %d", i+1)
			if s.counted {
				require.NotNil(t, p.QuotaID)
				assert.Equal(t, "yes", *p.QuotaID)
			} else {
				assert.Nil(t, p.QuotaID, "member %d counts towards no quota", i+1)
			}
			if s.status == campaigns.StatusCompleted {
				assert.Equal(t, reward, f.balance(f.acme, who), "member %d", i+1)
			} else {
				assert.Zero(t, f.balance(f.acme, who), "member %d", i+1)
				assert.Empty(t, f.ledger(who))
			}
			assert.Equal(t, 1, f.quotaCompletes(id, "yes"), "after member %d", i+1)
		}
	})
}

func TestACompleteRefusedByAFullQuotaCountsTowardsNoOtherQuota(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		// Quotas are counted in id order: "all" before "yes".
		id := f.campaigns(f.acme, survey("Two quotas", []campaigns.Question{radioQ("q1", "yes", "no")}, func(d *campaigns.Definition) {
			d.Quotas = []campaigns.Quota{
				{ID: "all", Limit: 2},
				{ID: "yes", Limit: 1, When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "yes"}}},
			}
		}))[0]
		first, second, third := f.member(f.acme, "en", true, nil), f.member(f.acme, "en", true, nil), f.member(f.acme, "en", true, nil)
		assert.Equal(t, campaigns.StatusCompleted, f.mustAnswer(f.acme, first, id, "q1", `"yes"`).Status)
		assert.Equal(t, 1, f.quotaCompletes(id, "all"))
		assert.Equal(t, 1, f.quotaCompletes(id, "yes"))

		assert.Equal(t, campaigns.StatusQuotaFull, f.mustAnswer(f.acme, second, id, "q1", `"yes"`).Status)
		assert.Zero(t, f.balance(f.acme, second))
		assert.Equal(t, 1, f.quotaCompletes(id, "yes"))
		assert.Equal(t, 1, f.quotaCompletes(id, "all"), "the quota_full member is no complete of quota all")

		// So quota all still has room for one complete.
		g := f.start(f.acme, third, id)
		assert.Equal(t, campaigns.StatusStarted, g.Status, "the campaign is not full")
		r, err := f.answer(f.acme, third, id, "q1", `"no"`)
		if assert.NoError(t, err) {
			assert.Equal(t, campaigns.StatusCompleted, r.Status)
		}
		assert.Equal(t, reward, f.balance(f.acme, third))
	})
}

func TestConcurrentLastAnswersFillALimitThreeQuotaExactly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		quota campaigns.Quota
		// strict: the quota never closes the campaign to those who started (it tests an
		// answer), so every late answer ends in quota_full itself rather than a 409.
		strict bool
	}{
		{name: "a quota on every complete", quota: campaigns.Quota{ID: "q", Limit: 3}},
		{name: "a quota on an answer", quota: campaigns.Quota{ID: "q", Limit: 3, When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "yes"}}}, strict: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				id := f.campaigns(f.acme, survey("Rush", []campaigns.Question{radioQ("q1", "yes", "no")}, func(d *campaigns.Definition) {
					d.Quotas = []campaigns.Quota{tc.quota}
				}))[0]
				members := make([]Member, 10)
				for i := range members {
					members[i] = f.member(f.acme, "en", true, nil)
					f.start(f.acme, members[i], id)
				}
				outs := concurrently(len(members), func(i int) (*GoResult, error) {
					return f.answer(f.acme, members[i], id, "q1", `"yes"`)
				})

				completed, full := 0, 0
				for i, o := range outs {
					who := members[i]
					if o.err == nil && o.res.Status == campaigns.StatusCompleted {
						completed++
						assert.Equal(t, campaigns.StatusCompleted, f.participation(who, id).Status)
						assert.Equal(t, reward, f.balance(f.acme, who))
						assert.Len(t, f.ledger(who), 1)
						continue
					}
					full++
					if tc.strict {
						require.NoError(t, o.err)
						assert.Equal(t, campaigns.StatusQuotaFull, f.participation(who, id).Status)
					}
					endedQuotaFull(t, o.res, o.err)
					assert.Zero(t, f.balance(f.acme, who))
					assert.Empty(t, f.ledger(who))
					g := f.start(f.acme, who, id)
					assert.Equal(t, campaigns.StatusQuotaFull, g.Status)
					assert.Nil(t, g.Question)
				}
				assert.Equal(t, 3, completed)
				assert.Equal(t, 7, full)
				assert.Equal(t, 3, f.quotaCompletes(id, "q"))
				var paid int64
				require.NoError(t, f.db.Model(&wallet.Entry{}).Where("campaign_id = ?", id).Count(&paid).Error)
				assert.EqualValues(t, 3, paid)
			})
		})
	}
}

func TestCompletingTheWelcomeCampaignMarksTheProfileOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ids := f.campaigns(f.acme,
			survey("Welcome", []campaigns.Question{radioQ("q1", "yes", "no")}, func(d *campaigns.Definition) { d.IsWelcome = true }),
			survey("Regular", []campaigns.Question{radioQ("q1", "yes", "no")}))
		welcome, regular := ids[0], ids[1]
		who := f.member(f.acme, "en", false, nil)

		_, err := f.m.Go(f.ctx, f.acme, who, regular)
		we := requireRefused(t, err, 409, "invalid_start_go_to_welcome_campaign")
		assert.Equal(t, welcome, we.Body["welcome_campaign_uuid"])
		_, err = f.answer(f.acme, who, regular, "q1", `"yes"`)
		requireRefused(t, err, 409, "invalid_start_go_to_welcome_campaign")
		assert.Zero(t, f.participation(who, regular).ID, "the refused go starts nothing")

		g := f.start(f.acme, who, welcome)
		assert.Equal(t, "q1", g.Question.ID)
		assert.Empty(t, f.welcomeCalls())
		r := f.mustAnswer(f.acme, who, welcome, "q1", `"yes"`)
		assert.Equal(t, campaigns.StatusCompleted, r.Status)
		assert.Equal(t, []string{who.ID}, f.welcomeCalls())
		assert.Equal(t, true, f.metadata(who)["welcomeCampaignCompleted"])
		assert.Equal(t, reward, f.balance(f.acme, who))

		assert.Equal(t, campaigns.StatusCompleted, f.mustAnswer(f.acme, who, welcome, "q1", `"yes"`).Status)
		_, err = f.answer(f.acme, who, welcome, "q1", `"no"`)
		requireFinished(t, err, campaigns.StatusCompleted)
		assert.Len(t, f.welcomeCalls(), 1, "once, however often the last answer is sent")
		assert.Equal(t, reward, f.balance(f.acme, who))

		now := f.refreshed(who)
		g = f.start(f.acme, now, regular)
		assert.Equal(t, campaigns.StatusStarted, g.Status, "after the welcome campaign the others open")
		f.mustAnswer(f.acme, now, regular, "q1", `"yes"`)
		assert.Len(t, f.welcomeCalls(), 1, "completing another campaign does not mark it again")
	})
}

func TestAWelcomeCampaignThatScreensTheMemberOutDoesNotMarkTheProfile(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		q := radioQ("q1", "yes", "no")
		q.Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}
		id := f.campaigns(f.acme, survey("Welcome", []campaigns.Question{q}, func(d *campaigns.Definition) { d.IsWelcome = true }))[0]
		who := f.member(f.acme, "en", false, nil)
		r := f.mustAnswer(f.acme, who, id, "q1", `"no"`)
		assert.Equal(t, campaigns.StatusScreened, r.Status)
		assert.Empty(t, f.welcomeCalls())
		assert.Equal(t, false, f.metadata(who)["welcomeCampaignCompleted"])
	})
}

func TestACampaignTheMemberMayNotTakeHasNoQuestion(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		def     func(f *fixture) func(*campaigns.Definition)
		started bool // the member started before it became unavailable
		later   time.Duration
		status  string
	}{
		{name: "closed after the member started", started: true, later: 2 * time.Hour, status: campaigns.StatusExpired,
			def: func(f *fixture) func(*campaigns.Definition) {
				return func(d *campaigns.Definition) { at := f.clock.Add(time.Hour); d.ClosesAt = &at }
			}},
		{name: "closed before the member started", later: 2 * time.Hour, status: campaigns.StatusExpired,
			def: func(f *fixture) func(*campaigns.Definition) {
				return func(d *campaigns.Definition) { at := f.clock.Add(time.Hour); d.ClosesAt = &at }
			}},
		{name: "closing exactly now", later: time.Hour, status: campaigns.StatusExpired,
			def: func(f *fixture) func(*campaigns.Definition) {
				return func(d *campaigns.Definition) { at := f.clock.Add(time.Hour); d.ClosesAt = &at }
			}},
		{name: "not open yet", status: campaigns.StatusUnavailable,
			def: func(f *fixture) func(*campaigns.Definition) {
				return func(d *campaigns.Definition) { at := f.clock.Add(time.Hour); d.OpensAt = &at }
			}},
		{name: "targeted at another language", status: campaigns.StatusUnavailable,
			def: func(*fixture) func(*campaigns.Definition) {
				return func(d *campaigns.Definition) { d.Targeting.Languages = []string{"es"} }
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				id := f.campaigns(f.acme, survey("Limited", threeQuestions(), tc.def(f)))[0]
				who := f.member(f.acme, "en", true, nil)
				if tc.started {
					f.start(f.acme, who, id)
					f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
				}
				f.clock = f.clock.Add(tc.later)
				before := f.runState(f.acme, who, id)

				g := f.start(f.acme, who, id)
				assert.Equal(t, tc.status, g.Status)
				assert.Nil(t, g.Question)

				q, value := "q1", `"yes"` // the question the member is at
				if tc.started {
					q, value = "q2", `5`
				}
				res, err := f.answer(f.acme, who, id, q, value)
				after := f.runState(f.acme, who, id)
				if tc.started {
					// The member was in it: their participation ends with the campaign's
					// outcome, which they are shown; nothing is recorded or paid.
					require.NoError(t, err)
					assert.Equal(t, tc.status, res.Status)
					assert.Nil(t, res.Question)
					assert.Equal(t, tc.status, after.Status)
					before.Status, before.Current = after.Status, after.Current
				} else {
					requireRefused(t, err, 409, "")
				}
				if !tc.started {
					assert.NotEqual(t, campaigns.StatusStarted, after.Status, "an unavailable campaign is never started")
					assert.Empty(t, after.Current)
					before.Status = after.Status // the go may open the participation as new
				}
				assert.Equal(t, before, after)
			})
		})
	}
}

// A member who never started a campaign that has since closed (a stale link, an open tab)
// and posts its first answer is told the campaign is over and why, as a member who had
// started is: not that they are at another question.
func TestAnAnswerToAClosedCampaignTheMemberNeverStartedSaysItIsFinished(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		at := f.clock.Add(time.Hour)
		id := f.campaigns(f.acme, survey("Closing", threeQuestions(), func(d *campaigns.Definition) { d.ClosesAt = &at }))[0]
		who := f.member(f.acme, "en", true, nil)
		f.clock = f.clock.Add(2 * time.Hour)

		_, err := f.answer(f.acme, who, id, "q1", `"yes"`)
		requireFinished(t, err, campaigns.StatusExpired)
	})
}

func TestRatingAFinishedCampaign(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Rated"))[0]
		theirs := f.campaigns(f.globex, definition("Theirs"))[0]
		who := f.member(f.acme, "en", true, nil)

		none, err := f.m.RatingOf(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.Nil(t, none.Rating)
		assert.Nil(t, none.Comment)

		_, err = f.m.Rate(f.ctx, f.acme, who, id, 4, "")
		requireRefused(t, err, 409, "campaign_not_finished")
		f.start(f.acme, who, id)
		_, err = f.m.Rate(f.ctx, f.acme, who, id, 4, "")
		requireRefused(t, err, 409, "campaign_not_finished")

		f.mustAnswer(f.acme, who, id, "q1", `"yes"`)
		for n := 1; n <= 5; n++ {
			r, err := f.m.Rate(f.ctx, f.acme, who, id, n, "")
			require.NoError(t, err, "rating %d", n)
			assert.Equal(t, n, *r.Rating)
			got, err := f.m.RatingOf(f.ctx, f.acme, who, id)
			require.NoError(t, err)
			require.NotNil(t, got.Rating)
			assert.Equal(t, n, *got.Rating, "rating again replaces")
			assert.Nil(t, got.Comment, "an empty comment is dropped")
		}

		r, err := f.m.Rate(f.ctx, f.acme, who, id, 2, "  Too \n long,\t\tbut   fine  ")
		require.NoError(t, err)
		require.NotNil(t, r.Comment)
		assert.Equal(t, "Too long, but fine", *r.Comment)
		got, err := f.m.RatingOf(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.Equal(t, 2, *got.Rating)
		require.NotNil(t, got.Comment)
		assert.Equal(t, "Too long, but fine", *got.Comment)

		_, err = f.m.Rate(f.ctx, f.acme, who, id, 3, " \n\t ")
		require.NoError(t, err)
		got, err = f.m.RatingOf(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.Equal(t, 3, *got.Rating)
		assert.Nil(t, got.Comment, "a blank comment replaces the earlier one with none")

		for _, bad := range []int{0, 6, -1} {
			_, err := f.m.Rate(f.ctx, f.acme, who, id, bad, "nice")
			we := requireRefused(t, err, 400, "")
			require.NotEmpty(t, we.Details)
			assert.Equal(t, "rating", we.Details[0].Field, "rating %d", bad)
		}
		got, err = f.m.RatingOf(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.Equal(t, 3, *got.Rating, "a refused rating changes nothing")

		_, err = f.m.Rate(f.ctx, f.acme, who, theirs, 5, "")
		assert.ErrorIs(t, err, web.ErrNotFound)
		_, err = f.m.RatingOf(f.ctx, f.acme, who, theirs)
		assert.ErrorIs(t, err, web.ErrNotFound)

		other := f.member(f.acme, "en", true, nil)
		mine, err := f.m.RatingOf(f.ctx, f.acme, other, id)
		require.NoError(t, err)
		assert.Nil(t, mine.Rating, "a rating is the member's own")
	})
}

func TestAScreenedOutCampaignCanBeRated(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		q := radioQ("q1", "yes", "no")
		q.Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}
		id := f.campaigns(f.acme, survey("Screener", []campaigns.Question{q}))[0]
		who := f.member(f.acme, "en", true, nil)
		assert.Equal(t, campaigns.StatusScreened, f.mustAnswer(f.acme, who, id, "q1", `"no"`).Status)
		r, err := f.m.Rate(f.ctx, f.acme, who, id, 1, "unfair")
		require.NoError(t, err)
		assert.Equal(t, 1, *r.Rating)
	})
}
