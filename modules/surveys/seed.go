package surveys

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Synthetic runs are made-up respondents' runs of a campaign, written straight into the
// participations and answers tables so that results have something to show (the demo, and
// load tests at scale). Nothing else happens as it would through the engine: no quota counts
// a complete (quota_id stays NULL), nothing is paid, no competition is entered, no profile
// changes. Every answer is one the engine's validation (ValidateAnswer) accepts.

// SyntheticRun is one made-up run of a campaign.
type SyntheticRun struct {
	ParticipantID string
	// Outcome is campaigns.StatusCompleted, StatusScreened, StatusQuotaFull,
	// StatusDisqualified, or StatusStarted (abandoned: answered part of the way).
	Outcome   string
	StartedAt time.Time
	Minutes   float64 // from start to the end of the run (for started: its pace)
	Language  string  // the language answered in ("" leaves it NULL)
	Seed      int64   // drives this run's answers: the same seed gives the same answers
	// Places are the postcodes location questions are answered from (the panel's own, say);
	// none: SyntheticPlaces(Language).
	Places []Place
}

// Place is a postcode a location question may be answered with, and its place id.
type Place struct {
	Postcode string
	ID       string
}

// seedBatch is how many runs one transaction writes (their participations in one statement);
// their answers go in statements of seedAnswerRows rows.
const (
	seedBatch      = 500
	seedAnswerRows = 1000
)

// seedOutcomes are the outcomes a synthetic run may have.
var seedOutcomes = []string{campaigns.StatusCompleted, campaigns.StatusScreened, campaigns.StatusQuotaFull,
	campaigns.StatusDisqualified, campaigns.StatusStarted}

// SeedRuns writes synthetic runs of a campaign of a panel with their answers, in multi-row
// inserts (a transaction per seedBatch runs), and returns how many it added. A participant who
// already has a participation in the campaign (or comes twice in runs) is skipped, so seeding
// the same runs again adds nothing.
//
// Completed runs answer the questions the routing leads through (an answer a route would screen
// out or disqualify with is drawn again); screened and disqualified runs follow the routing to
// the first answer that ends the run so, or, when no route can, stop after one or two
// questions; quota-full runs stop after one or two questions (the campaign filled up while
// they answered); started runs stop at a random question of a complete's path, which is their
// current question.
func (m *Module) SeedRuns(ctx context.Context, panelID string, c *campaigns.Campaign, runs []SyntheticRun) (int, error) {
	for _, r := range runs {
		if !slices.Contains(seedOutcomes, r.Outcome) {
			return 0, fmt.Errorf("seed runs of %s: outcome %q is none of %v", c.ID, r.Outcome, seedOutcomes)
		}
	}
	if len(c.Definition.Questions) == 0 {
		return 0, nil // no run of a campaign without questions starts
	}
	added := 0
	seen := map[string]bool{}
	for start := 0; start < len(runs); start += seedBatch {
		batch := runs[start:min(start+seedBatch, len(runs))]
		var parts []Participation
		err := m.inTx(ctx, func(tx *gorm.DB) error {
			parts = parts[:0]
			ids := make([]string, 0, len(batch))
			for _, r := range batch {
				ids = append(ids, r.ParticipantID)
			}
			var taken []string
			if err := tx.Model(&Participation{}).Where("campaign_id = ? AND participant_id IN ?", c.ID, ids).
				Pluck("participant_id", &taken).Error; err != nil {
				return fmt.Errorf("read participations of %s: %w", c.ID, err)
			}
			skip := make(map[string]bool, len(taken))
			for _, id := range taken {
				skip[id] = true
			}
			var answers []Answer
			for _, r := range batch {
				if skip[r.ParticipantID] || seen[r.ParticipantID] {
					continue
				}
				skip[r.ParticipantID] = true
				p, as := syntheticRun(panelID, c, r)
				parts = append(parts, p)
				answers = append(answers, as...)
			}
			if len(parts) == 0 {
				return nil
			}
			if err := tx.Create(&parts).Error; err != nil {
				return fmt.Errorf("insert synthetic participations of %s: %w", c.ID, err)
			}
			if err := tx.CreateInBatches(&answers, seedAnswerRows).Error; err != nil {
				return fmt.Errorf("insert synthetic answers of %s: %w", c.ID, err)
			}
			// Runs that ended in the past may end before the campaign's counting mark: its
			// next summary counts every run again (result_counts.go).
			return forgetCounts(tx, c.ID)
		})
		if err != nil {
			return added, err
		}
		for _, p := range parts {
			seen[p.ParticipantID] = true
		}
		added += len(parts)
	}
	return added, nil
}

// syntheticRun is a run's participation and answers.
func syntheticRun(panelID string, c *campaigns.Campaign, r SyntheticRun) (Participation, []Answer) {
	def := &c.Definition
	g := &synth{rng: rand.New(rand.NewPCG(uint64(r.Seed), 0x5eed5eed)), lang: r.Language, today: r.StartedAt.UTC(), places: r.Places}
	steps, current := g.walk(def, r.Outcome)

	start := r.StartedAt.UTC().Truncate(time.Second)
	dur := time.Duration(r.Minutes * float64(time.Minute))
	if dur <= 0 {
		dur = time.Duration(len(def.Questions)+1) * 20 * time.Second
	}
	at := func(i int) time.Time { // when the i-th answer (from 0) was given
		if r.Outcome == campaigns.StatusStarted {
			return start.Add(dur * time.Duration(i+1) / time.Duration(len(def.Questions)+1)).Truncate(time.Second)
		}
		return start.Add(dur * time.Duration(i+1) / time.Duration(len(steps))).Truncate(time.Second)
	}
	seen, started := start, start
	p := Participation{
		ID: uuid.NewString(), PanelID: panelID, CampaignID: c.ID, ParticipantID: r.ParticipantID, Status: r.Outcome,
		SeenAt: &seen, StartedAt: &started, CreatedAt: start, UpdatedAt: start, Answered: len(steps),
	}
	if r.Language != "" {
		lang := r.Language
		p.Language = &lang
	}
	answers := make([]Answer, len(steps))
	for i, s := range steps {
		value, _ := json.Marshal(s.value) // plain values, maps and slices: never fails
		t := at(i)
		answers[i] = Answer{ParticipationID: p.ID, QuestionID: def.Questions[s.qi].ID, Seq: i + 1, Value: string(value), CreatedAt: t, UpdatedAt: t}
		p.UpdatedAt = t
	}
	if r.Outcome == campaigns.StatusStarted {
		p.CurrentQuestion = &current
	} else {
		finished := start.Add(dur).Truncate(time.Second)
		p.FinishedAt, p.UpdatedAt = &finished, finished
	}
	return p, answers
}

// step is an answered question (its index) and the answer.
type step struct {
	qi    int
	value any
}

// Tries at drawing an answer: to avoid a route that would end a complete early, and to find
// one that ends a screened or disqualified run where a route can.
const (
	avoidTries = 30
	seekTries  = 100
)

// walk is a run's answers by outcome, and for a started run the question it stopped at.
func (g *synth) walk(def *campaigns.Definition, outcome string) ([]step, string) {
	firstFew := func() []step {
		full := g.complete(def)
		return full[:min(len(full), 1+g.rng.IntN(2))]
	}
	switch outcome {
	case campaigns.StatusScreened, campaigns.StatusDisqualified:
		if steps, ok := g.seek(def, outcome); ok {
			return steps, ""
		}
		return firstFew(), ""
	case campaigns.StatusQuotaFull:
		return firstFew(), ""
	case campaigns.StatusStarted:
		full := g.complete(def)
		// Most who give up do so early.
		k := min(len(full)-1, int(float64(len(full))*math.Pow(g.rng.Float64(), 1.5)))
		return full[:k], def.Questions[full[k].qi].ID
	}
	return g.complete(def), ""
}

// complete is a complete's path: each question the routing leads to answered, an answer that
// would screen out or disqualify drawn again (kept after avoidTries, the run going on to the
// next question as though no route had matched).
func (g *synth) complete(def *campaigns.Definition) []step {
	answers := map[string]any{}
	var steps []step
	for qi := 0; qi >= 0 && qi < len(def.Questions) && len(steps) < len(def.Questions); {
		q := &def.Questions[qi]
		var v any
		status, next := "", ""
		for try := 0; try < avoidTries; try++ {
			v = g.answer(q)
			answers[q.ID] = v
			if status, next = route(def, qi, answers); !campaigns.IsTerminal(status) || status == campaigns.StatusCompleted {
				break
			}
		}
		if campaigns.IsTerminal(status) && status != campaigns.StatusCompleted {
			status, next = campaigns.StatusCompleted, ""
			if qi+1 < len(def.Questions) {
				status, next = campaigns.StatusStarted, def.Questions[qi+1].ID
			}
		}
		steps = append(steps, step{qi, v})
		if status == campaigns.StatusCompleted {
			break
		}
		qi = def.QuestionIndex(next)
	}
	return steps
}

// seek is a path that the routing ends in outcome (screened or disqualified): at the first
// question with a route to it, an answer that takes it; before, answers that go on. false
// when no question on the way has such a route, or no answer drawn took it.
func (g *synth) seek(def *campaigns.Definition, outcome string) ([]step, bool) {
	then := campaigns.ThenScreenOut
	if outcome == campaigns.StatusDisqualified {
		then = campaigns.ThenDisqualify
	}
	answers := map[string]any{}
	var steps []step
	for qi := 0; qi >= 0 && qi < len(def.Questions) && len(steps) < len(def.Questions); {
		q := &def.Questions[qi]
		if slices.ContainsFunc(q.Routes, func(r campaigns.Route) bool { return r.Then == then }) {
			for try := 0; try < seekTries; try++ {
				v := g.answer(q)
				answers[q.ID] = v
				if status, _ := route(def, qi, answers); status == outcome {
					return append(steps, step{qi, v}), true
				}
			}
		}
		var v any
		status, next := "", ""
		for try := 0; try < avoidTries; try++ {
			v = g.answer(q)
			answers[q.ID] = v
			if status, next = route(def, qi, answers); !campaigns.IsTerminal(status) {
				break
			}
		}
		if campaigns.IsTerminal(status) {
			return nil, false
		}
		steps = append(steps, step{qi, v})
		qi = def.QuestionIndex(next)
	}
	return nil, false
}

// SyntheticAnswer is a made-up answer to a question, as ValidateAnswer returns it (ready to
// store as JSON and to route on): drawn with rng, free text in lang (en, es, ru, zh; else
// en), dates before today. Answers lean the way real ones do, each question its own way (its
// id seeds which options are popular and where a scale's answers gather): choices skewed,
// one to three of a multiple choice, scales around a centre, NPS mostly 7 to 10.
func SyntheticAnswer(q *campaigns.Question, rng *rand.Rand, lang string) any {
	g := &synth{rng: rng, lang: lang, today: time.Now().UTC()}
	return g.answer(q)
}

// synth draws a respondent's answers.
type synth struct {
	rng    *rand.Rand
	lang   string
	today  time.Time // dates are answered before it
	places []Place
}

func (g *synth) answer(q *campaigns.Question) any {
	switch q.ControlType {
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		if len(q.Answers) == 0 {
			return nil
		}
		return q.Answers[g.pick(optionPopularity(q.Answers, q.ID))].ID
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage:
		return g.several(q)
	case campaigns.ControlRanking:
		return g.ranking(q)
	case campaigns.ControlMostLeast:
		return g.mostLeast(q)
	case campaigns.ControlGrid:
		return g.grid(q)
	case campaigns.ControlNumber, campaigns.ControlSlider, campaigns.ControlStepper, campaigns.ControlClickBar:
		return g.number(q)
	case campaigns.ControlNPS:
		return g.nps(q)
	case campaigns.ControlLikert, campaigns.ControlSmiley:
		if len(q.ScaleAnswers) == 0 {
			return nil
		}
		i := g.pick(around(len(q.ScaleAnswers), q.ID, scaleLo, scaleHi))
		return ScaleValue(q.ScaleAnswers[i], i)
	case campaigns.ControlStar:
		most := DefaultStars
		if q.MaxNum != nil {
			most = int(*q.MaxNum)
		}
		if most < 1 {
			return nil
		}
		return float64(1 + g.pick(around(most, q.ID, scaleLo, scaleHi)))
	case campaigns.ControlDate:
		return g.date(q)
	case campaigns.ControlLocation:
		places := g.places
		if len(places) == 0 {
			places = SyntheticPlaces(g.lang)
		}
		p := places[g.pick(popularity(len(places), q.ID+"/places"))]
		return map[string]any{"postcode": p.Postcode, "id": p.ID}
	case campaigns.ControlSpend:
		return g.spend(q)
	case campaigns.ControlFrequency:
		return g.frequency(q)
	case campaigns.ControlVideo:
		return map[string]any{"watched": true}
	case campaigns.ControlText, campaigns.ControlTextArea:
		return g.text(q)
	}
	return nil
}

// questionRand is a generator seeded by a question (and what for): the same for every
// respondent, so that they lean the same way.
func questionRand(key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key))
	return rand.New(rand.NewPCG(h.Sum64(), 0x9e3779b97f4a7c15))
}

// popularity are weights of n options, falling geometrically in an order the key shuffles:
// one option is the favourite, the next less so, and so on.
func popularity(n int, key string) []float64 {
	return ranked(questionRand(key).Perm(n), questionRand(key+"/decay"))
}

// optionPopularity is popularity of a question's options in an order the key shuffles from
// the author's (who tends to list the common answers first), those that catch the rest ("none
// of these", "other", "prefer not to say") least popular, as they are in real answers.
func optionPopularity(opts []campaigns.Option, key string) []float64 {
	qr := questionRand(key)
	score := make([]float64, len(opts))
	order := make([]int, len(opts))
	for i, o := range opts {
		score[i], order[i] = float64(i)/float64(len(opts))+0.8*qr.Float64(), i
		if catchAll(o) {
			score[i] += 2
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[a], score[b]) })
	return ranked(order, questionRand(key+"/decay"))
}

// ranked are weights falling geometrically along order (option indexes, favourite first).
func ranked(order []int, qr *rand.Rand) []float64 {
	decay := 0.6 + 0.25*qr.Float64()
	w := make([]float64, len(order))
	for rank, i := range order {
		w[i] = math.Pow(decay, float64(rank))
	}
	return w
}

// catchAll tells an option that catches every other answer: exclusive, or by its id.
func catchAll(o campaigns.Option) bool {
	id := strings.ToLower(o.ID)
	for _, p := range []string{"none", "other", "neither", "prefer_not", "not_sure", "dont_know", "something_else"} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return o.Exclusive
}

// around are weights of n ordered points gathering around a point the key sets, between the
// fractions lo and hi of the scale.
func around(n int, key string, lo, hi float64) []float64 {
	qr := questionRand(key + "/centre")
	centre := float64(n-1) * (lo + (hi-lo)*qr.Float64())
	spread := max(0.7, float64(n)/4)
	w := make([]float64, n)
	for i := range w {
		d := (float64(i) - centre) / spread
		w[i] = math.Exp(-d*d/2) + 0.02
	}
	return w
}

// Scales (Likert, smiley, stars) gather between these fractions of the scale: in its upper
// half mostly, as people rate kindly what they chose to use.
const scaleLo, scaleHi = 0.45, 0.8

// pick draws an index with the weights.
func (g *synth) pick(w []float64) int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	r := g.rng.Float64() * sum
	for i, x := range w {
		if r < x {
			return i
		}
		r -= x
	}
	return len(w) - 1
}

// draw picks k of the indexes without putting back, the weights leaning the order (the
// first drawn is the likeliest): a biased permutation when k is every index.
func (g *synth) draw(idx []int, w []float64, k int) []int {
	idx, out := slices.Clone(idx), make([]int, 0, k)
	for len(out) < k && len(idx) > 0 {
		ws := make([]float64, len(idx))
		for j, i := range idx {
			ws[j] = w[i]
		}
		j := g.pick(ws)
		out = append(out, idx[j])
		idx = slices.Delete(idx, j, j+1)
	}
	return out
}

// several are one to three options of a multiple choice (within its min and max answers),
// in the options' order; now and then its exclusive option alone ("none of these").
func (g *synth) several(q *campaigns.Question) []string {
	w := optionPopularity(q.Answers, q.ID)
	var free, exclusive []int
	for i, o := range q.Answers {
		if o.Exclusive {
			exclusive = append(exclusive, i)
		} else {
			free = append(free, i)
		}
	}
	minN, maxN := 1, len(q.Answers)
	if q.MinAnswers != nil {
		minN = *q.MinAnswers
	}
	if q.MaxAnswers != nil {
		maxN = *q.MaxAnswers
	}
	if len(exclusive) > 0 && minN <= 1 && (len(free) == 0 || g.rng.Float64() < 0.07) {
		return []string{q.Answers[exclusive[g.rng.IntN(len(exclusive))]].ID}
	}
	k := 1
	if r := g.rng.Float64(); r > 0.8 {
		k = 3
	} else if r > 0.45 {
		k = 2
	}
	k = min(max(k, minN), maxN, len(free))
	chosen := g.draw(free, w, k)
	slices.Sort(chosen)
	out := make([]string, len(chosen))
	for j, i := range chosen {
		out[j] = q.Answers[i].ID
	}
	return out
}

// ranking orders every option (or as many as max_answers asks), favourites first mostly.
func (g *synth) ranking(q *campaigns.Question) []string {
	n := len(q.Answers)
	if q.MaxAnswers != nil && *q.MaxAnswers < n {
		n = *q.MaxAnswers
	}
	all := make([]int, len(q.Answers))
	for i := range all {
		all[i] = i
	}
	// Squared weights: rankings agree more than single choices do.
	w := optionPopularity(q.Answers, q.ID)
	for i := range w {
		w[i] *= w[i]
	}
	out := []string{}
	for _, i := range g.draw(all, w, n) {
		out = append(out, q.Answers[i].ID)
	}
	return out
}

// mostLeast is a favourite as most and an unpopular other as least.
func (g *synth) mostLeast(q *campaigns.Question) any {
	if len(q.Answers) < 2 {
		return nil
	}
	w := optionPopularity(q.Answers, q.ID)
	most := g.pick(w)
	inverse := make([]float64, len(w))
	for i, x := range w {
		if i != most {
			inverse[i] = 1 / x
		}
	}
	least := g.pick(inverse)
	return map[string]any{"most": q.Answers[most].ID, "least": q.Answers[least].ID}
}

// grid answers every row, each row leaning to its own column (one or two columns of a
// multiple grid).
func (g *synth) grid(q *campaigns.Question) any {
	if len(q.Columns) == 0 {
		return nil
	}
	out := map[string]any{}
	all := make([]int, len(q.Columns))
	for i := range all {
		all[i] = i
	}
	for _, row := range q.Rows {
		w := around(len(q.Columns), q.ID+"/"+row.ID, 0.1, 0.9)
		if !q.Multiple {
			out[row.ID] = q.Columns[g.pick(w)].ID
			continue
		}
		k := 1
		if g.rng.Float64() < 0.3 {
			k = min(2, len(q.Columns))
		}
		chosen := g.draw(all, w, k)
		slices.Sort(chosen)
		cols := make([]string, len(chosen))
		for j, i := range chosen {
			cols[j] = q.Columns[i].ID
		}
		out[row.ID] = cols
	}
	return out
}

// number is a number within min_num and max_num on the step (counted from min_num, as the
// validation counts it): a number question's answers lean low (counts and amounts: most have
// few), a slider's, stepper's and click bar's gather around a centre of the range.
func (g *synth) number(q *campaigns.Question) float64 {
	lo, hi := 0.0, math.NaN()
	if q.MinNum != nil {
		lo = *q.MinNum
	}
	if q.MaxNum != nil {
		hi = *q.MaxNum
		if q.MinNum == nil && hi < lo {
			lo = hi - 10
		}
	}
	if math.IsNaN(hi) {
		hi = lo + 10
		if q.ControlType == campaigns.ControlNumber {
			hi = lo + 100
		}
	}
	base := 0.0
	if q.MinNum != nil {
		base = *q.MinNum
	}
	step := 1.0
	if q.Step != nil && *q.Step > 0 {
		step = *q.Step
	} else if hi-lo < 2 {
		step = (hi - lo) / 10
	}
	qr := questionRand(q.ID + "/centre")
	var v float64
	if q.ControlType == campaigns.ControlNumber {
		median := (hi - lo) * (0.02 + 0.06*qr.Float64())
		v = lo + median*math.Exp(0.6*g.rng.NormFloat64())
	} else {
		v = lo + (hi-lo)*(0.3+0.4*qr.Float64()) + (hi-lo)*0.18*g.rng.NormFloat64()
	}
	v = min(max(v, lo), hi)
	if step > 0 {
		k := math.Round((v - base) / step)
		v = base + k*step
		if v > hi {
			v = base + (k-1)*step
		}
		if v < lo {
			v = base + (k+1)*step
		}
	}
	return v
}

// npsShape is how 0-10 answers fall: mostly 7 to 10, some detractors.
var npsShape = []float64{2, 1, 1, 1.5, 2, 4, 6, 13, 22, 24, 22}

func (g *synth) nps(q *campaigns.Question) float64 {
	tilt := 0.8*questionRand(q.ID+"/nps").Float64() - 0.4 // some are loved more than others
	w := make([]float64, len(npsShape))
	for i, x := range npsShape {
		w[i] = x * math.Exp(tilt*float64(i-5)/5)
	}
	return float64(g.pick(w))
}

// date is a day of the last two years (recent ones likelier), or a date of birth of an adult
// when the question asks for one.
func (g *synth) date(q *campaigns.Question) string {
	today := time.Date(g.today.Year(), g.today.Month(), g.today.Day(), 0, 0, 0, 0, time.UTC)
	if asksBirth(q) {
		age := 18 + 50*math.Pow(g.rng.Float64(), 1.3)
		return today.AddDate(-int(age), 0, -g.rng.IntN(365)).Format(time.DateOnly)
	}
	days := int(730 * math.Pow(g.rng.Float64(), 1.5))
	return today.AddDate(0, 0, -days).Format(time.DateOnly)
}

// asksBirth tells a date of birth question by its id or English text.
func asksBirth(q *campaigns.Question) bool {
	return strings.Contains(strings.ToLower(q.ID), "birth") || strings.Contains(strings.ToLower(q.Text.In("en", "")), "birth")
}

// Periods of spend and frequency answers, and how many days each is.
var (
	allPeriods = []string{"day", "week", "month", "year"}
	periodDays = map[string]float64{"day": 1, "week": 7, "month": 365.25 / 12, "year": 365.25}
)

// offeredPeriods are a question's periods, every one when it names none (as the validation has it).
func offeredPeriods(offered []string) []string {
	if len(offered) == 0 {
		return allPeriods
	}
	return offered
}

// spend is an amount in an offered period: a monthly spend around the question's own level
// (a tenth or so of spend_max), told per week or month mostly.
func (g *synth) spend(q *campaigns.Question) any {
	periods := offeredPeriods(q.SpendPeriod)
	lo, hi := 0.0, math.Inf(1)
	if q.SpendMin != nil {
		lo = *q.SpendMin
	}
	if q.SpendMax != nil {
		hi = *q.SpendMax
	}
	qr := questionRand(q.ID + "/spend")
	monthly := 60 * (0.5 + qr.Float64())
	if !math.IsInf(hi, 1) {
		monthly = max(5, hi*(0.06+0.1*qr.Float64()))
	}
	monthly *= math.Exp(0.6 * g.rng.NormFloat64())
	likely := map[string]float64{"day": 0.4, "week": 1.5, "month": 2, "year": 0.3}
	w := make([]float64, len(periods))
	for i, p := range periods {
		w[i] = likely[p] + 0.05
	}
	period := periods[g.pick(w)]
	amount := monthly * periodDays[period] / periodDays["month"]
	if amount >= 20 {
		amount = math.Round(amount)
	} else {
		amount = math.Round(amount*2) / 2
	}
	return map[string]any{"amount": min(max(amount, lo), hi), "period": period}
}

// frequency is a whole count in an offered period: a rate of the question's own (a few times
// a week to a couple a day), told in the shortest period it happens at least once in, mostly.
func (g *synth) frequency(q *campaigns.Question) any {
	periods := offeredPeriods(q.FreqPeriod)
	lo, hi := 0.0, math.Inf(1)
	if q.FreqMin != nil {
		lo = float64(*q.FreqMin)
	}
	if q.FreqMax != nil {
		hi = float64(*q.FreqMax)
	}
	perDay := (0.2 + 1.3*questionRand(q.ID+"/frequency").Float64()) * math.Exp(0.6*g.rng.NormFloat64())
	period := periods[len(periods)-1]
	for _, p := range periods {
		if perDay*periodDays[p] >= 1 {
			period = p
			break
		}
	}
	if g.rng.Float64() < 0.25 {
		period = periods[g.rng.IntN(len(periods))]
	}
	count := min(max(math.Round(perDay*periodDays[period]), math.Ceil(lo)), math.Floor(hi))
	return map[string]any{"count": count, "period": period}
}

// text is a short answer from the pool that suits the question (names, places or opinions) in
// the respondent's language, within the question's min and max characters.
func (g *synth) text(q *campaigns.Question) string {
	minChars, maxChars := 1, DefaultMaxText
	if q.ControlType == campaigns.ControlTextArea {
		maxChars = DefaultMaxTextArea
	}
	if q.MaxChars != nil {
		maxChars = *q.MaxChars
	}
	if q.MinChars != nil && *q.MinChars > 1 {
		minChars = *q.MinChars
	}
	pool := textPool(q, g.lang)
	var fit []string
	for _, s := range pool {
		if n := utf8.RuneCountInString(s); n >= minChars && n <= maxChars {
			fit = append(fit, s)
		}
	}
	if len(fit) > 0 {
		// Flatter than choices, but some answers still come up more often than others.
		w := popularity(len(fit), q.ID+"/text/"+g.lang)
		for i := range w {
			w[i] = math.Sqrt(math.Sqrt(w[i]))
		}
		return fit[g.pick(w)]
	}
	// No answer of the pool fits: one said again until it is long enough, cut to the most.
	s := pool[g.rng.IntN(len(pool))]
	for utf8.RuneCountInString(s) < minChars {
		s += " " + pool[g.rng.IntN(len(pool))]
	}
	if r := []rune(s); len(r) > maxChars {
		s = strings.TrimSpace(string(r[:maxChars]))
	}
	for utf8.RuneCountInString(s) < minChars {
		s += "."
	}
	return s
}

// textPool is the pool of answers for a question in a language: pets' and people's names for
// a question about a name, places for one about a place to go (the UK's when it says UK),
// else opinions.
func textPool(q *campaigns.Question, lang string) []string {
	if _, ok := syntheticOpinions[lang]; !ok {
		lang = "en"
	}
	id := strings.ToLower(q.ID)
	switch {
	case strings.Contains(id, "name"):
		return syntheticNames[lang]
	case strings.Contains(id, "destination") || strings.Contains(id, "visit") || strings.Contains(id, "place") || strings.Contains(id, "city"):
		for _, t := range q.Text {
			if strings.Contains(t, "UK") {
				return syntheticUKPlaces[lang]
			}
		}
		return syntheticPlaces[lang]
	}
	return syntheticOpinions[lang]
}

// SyntheticPlaces are the postcodes location questions are answered from when a run names
// none: a few of the demo's (app/demo/postcodes), British for Russian and Chinese speakers
// (Northwind's languages), American for the rest.
func SyntheticPlaces(lang string) []Place {
	if lang == "ru" || lang == "zh" {
		return syntheticPlacesUK
	}
	return syntheticPlacesUS
}

var (
	syntheticPlacesUS = []Place{{"10001", "10001"}, {"02108", "02108"}, {"60601", "60601"}, {"94103", "94103"},
		{"98101", "98101"}, {"77002", "77002"}, {"20001", "20001"}, {"19103", "19103"}}
	syntheticPlacesUK = []Place{{"SW1A", "SW1A"}, {"EC1A", "EC1A"}, {"M1", "M1"}, {"B1", "B1"}, {"EH1", "EH1"},
		{"LS1", "LS1"}, {"CF10", "CF10"}, {"L1", "L1"}, {"G1", "G1"}, {"BS1", "BS1"}, {"NW1", "NW1"}, {"E1", "E1"}}
)

// syntheticOpinions are short answers to an open question about what to change or improve, by
// language: about thirty each, polite and ordinary.
var syntheticOpinions = map[string][]string{
	"en": {
		"Lower prices would make the biggest difference.",
		"Nothing really, I'm happy with it as it is.",
		"More choice, please.",
		"Make it simpler and quicker to use.",
		"Clearer information up front.",
		"Better customer service when something goes wrong.",
		"It would be great if it worked offline.",
		"More healthy options.",
		"Fewer notifications.",
		"Faster, that's all.",
		"A loyalty scheme would be nice.",
		"Less packaging and more recycling.",
		"Longer opening hours at weekends.",
		"I'd like to be able to customise it.",
		"Bigger text, it's hard to read on my phone.",
		"Better value for money.",
		"More reliable, it sometimes lets me down.",
		"Keep it as it is, it works well.",
		"Options for people with allergies.",
		"Clearer prices with no hidden fees.",
		"A smaller size for when I just want a little.",
		"More local and seasonal products.",
		"Being able to pay with my phone.",
		"Friendlier and more helpful staff.",
		"Not sure, maybe a wider range.",
		"Easier to find what I need.",
		"Better reminders so I don't forget.",
		"Quieter and more comfortable.",
		"Student and family discounts.",
		"Less waiting around.",
	},
	"es": {
		"Precios más bajos, sin duda.",
		"Nada, la verdad, me gusta tal como está.",
		"Más variedad, por favor.",
		"Que sea más sencillo y rápido de usar.",
		"Información más clara desde el principio.",
		"Mejor atención al cliente cuando algo falla.",
		"Estaría genial que funcionara sin conexión.",
		"Más opciones saludables.",
		"Menos notificaciones.",
		"Que sea más rápido, nada más.",
		"Un programa de puntos estaría bien.",
		"Menos envases y más reciclaje.",
		"Horarios más amplios los fines de semana.",
		"Poder personalizarlo a mi gusto.",
		"Letra más grande, en el móvil cuesta leer.",
		"Mejor relación calidad-precio.",
		"Más fiable, a veces falla.",
		"Dejarlo como está, funciona bien.",
		"Opciones para personas con alergias.",
		"Precios claros y sin comisiones ocultas.",
		"Un tamaño más pequeño para cuando quiero poco.",
		"Más productos locales y de temporada.",
		"Poder pagar con el móvil.",
		"Personal más amable y atento.",
		"No sé, quizá más surtido.",
		"Que sea más fácil encontrar lo que busco.",
		"Mejores recordatorios para no olvidarme.",
		"Más tranquilo y cómodo.",
		"Descuentos para estudiantes y familias.",
		"Menos tiempo de espera.",
	},
	"ru": {
		"Цены пониже, это главное.",
		"Ничего, меня всё устраивает.",
		"Побольше выбора, пожалуйста.",
		"Сделать проще и быстрее.",
		"Понятнее информация с самого начала.",
		"Лучше поддержка, когда что-то идёт не так.",
		"Было бы здорово, если бы работало без интернета.",
		"Больше полезных вариантов.",
		"Поменьше уведомлений.",
		"Быстрее, вот и всё.",
		"Хорошо бы программу лояльности.",
		"Меньше упаковки и больше переработки.",
		"Дольше работать по выходным.",
		"Хочу настраивать всё под себя.",
		"Крупнее шрифт, на телефоне трудно читать.",
		"Лучше соотношение цены и качества.",
		"Надёжнее, иногда подводит.",
		"Оставить как есть, всё работает.",
		"Варианты для людей с аллергией.",
		"Понятные цены без скрытых комиссий.",
		"Маленькую порцию, когда хочется немного.",
		"Больше местных и сезонных продуктов.",
		"Возможность платить телефоном.",
		"Более вежливый и внимательный персонал.",
		"Не знаю, может быть, больше ассортимента.",
		"Чтобы было легче найти нужное.",
		"Напоминания, чтобы ничего не забывать.",
		"Потише и поудобнее.",
		"Скидки для студентов и семей.",
		"Меньше ждать.",
	},
	"zh": {
		"希望价格能再便宜一些。",
		"没什么要改的，现在就挺好。",
		"希望能有更多的选择。",
		"希望操作更简单、更快捷。",
		"希望一开始就把信息说清楚。",
		"出问题时希望客服能更及时。",
		"如果没有网络也能用就太好了。",
		"希望多一些健康的选项。",
		"希望通知能少一点。",
		"希望速度再快一点就好。",
		"要是有会员积分就更好了。",
		"希望少一些包装，多一些回收。",
		"希望周末营业时间能长一些。",
		"希望可以按自己的喜好来设置。",
		"字太小了，在手机上看着很吃力。",
		"希望性价比能更高一些。",
		"希望更稳定，有时候会出问题。",
		"保持现在这样就好，用着很顺手。",
		"希望为过敏人群提供更多选择。",
		"希望价格透明，没有隐藏费用。",
		"希望有小份装，只想要一点的时候方便。",
		"希望多一些本地和当季的产品。",
		"希望可以用手机付款。",
		"希望工作人员更热情、更耐心。",
		"说不好，也许品种可以再丰富些。",
		"希望更容易找到我需要的东西。",
		"希望有提醒功能，免得我忘记。",
		"希望环境更安静、更舒适一些。",
		"希望给学生和家庭一些优惠。",
		"希望排队等候的时间能短一些。",
	},
}

// syntheticNames are names people give their pets (and answer a question about a name with).
var syntheticNames = map[string][]string{
	"en": {"Bella", "Max", "Luna", "Charlie", "Daisy", "Milo", "Coco", "Buddy", "Lola", "Oscar", "Poppy", "Teddy", "Rosie", "Biscuit", "Molly", "Jasper", "Ziggy", "Pepper", "Nala", "Rocky"},
	"es": {"Luna", "Coco", "Toby", "Nala", "Rocky", "Lola", "Kira", "Simba", "Canela", "Chispa", "Bruno", "Mía", "Thor", "Nieve", "Manchas", "Pelusa", "Bimba", "Lucas", "Frida", "Tango"},
	"ru": {"Барсик", "Мурка", "Шарик", "Рыжик", "Бим", "Дружок", "Пушок", "Васька", "Лаки", "Ася", "Марс", "Белка", "Тиша", "Соня", "Граф", "Кузя", "Джек", "Лиса", "Буся", "Персик"},
	"zh": {"旺财", "小白", "豆豆", "球球", "咪咪", "花花", "大黄", "团团", "乐乐", "毛毛", "布丁", "可乐", "元宝", "点点", "妞妞", "小虎", "果冻", "年糕", "奶茶", "饺子"},
}

// syntheticPlaces are places people would love to travel to.
var syntheticPlaces = map[string][]string{
	"en": {"Japan", "Italy", "New Zealand", "Iceland", "Greece", "Peru", "Canada", "Portugal", "Thailand", "Norway", "Morocco", "Australia", "Costa Rica", "Scotland", "Vietnam", "Hawaii", "Paris", "Kyoto", "Cape Town", "Patagonia"},
	"es": {"Japón", "Italia", "Nueva Zelanda", "Islandia", "Grecia", "Perú", "Canadá", "Portugal", "Tailandia", "Noruega", "Marruecos", "Australia", "Costa Rica", "Escocia", "Vietnam", "Hawái", "París", "Kioto", "Ciudad del Cabo", "la Patagonia"},
	"ru": {"Япония", "Италия", "Новая Зеландия", "Исландия", "Греция", "Перу", "Канада", "Португалия", "Таиланд", "Норвегия", "Марокко", "Австралия", "Коста-Рика", "Шотландия", "Вьетнам", "Гавайи", "Париж", "Киото", "Кейптаун", "Патагония"},
	"zh": {"日本", "意大利", "新西兰", "冰岛", "希腊", "秘鲁", "加拿大", "葡萄牙", "泰国", "挪威", "摩洛哥", "澳大利亚", "哥斯达黎加", "苏格兰", "越南", "夏威夷", "巴黎", "京都", "开普敦", "巴塔哥尼亚"},
}

// syntheticUKPlaces are places in the UK everyone should visit.
var syntheticUKPlaces = map[string][]string{
	"en": {"Edinburgh", "The Lake District", "Cornwall", "York", "The Isle of Skye", "Snowdonia", "Bath", "The Cotswolds", "London", "The Giant's Causeway", "Brighton", "The Peak District", "Oxford", "Loch Ness", "Stonehenge"},
	"es": {"Edimburgo", "el Distrito de los Lagos", "Cornualles", "York", "la isla de Skye", "Snowdonia", "Bath", "los Cotswolds", "Londres", "la Calzada del Gigante", "Brighton", "el Peak District", "Oxford", "el lago Ness", "Stonehenge"},
	"ru": {"Эдинбург", "Озёрный край", "Корнуолл", "Йорк", "Остров Скай", "Сноудония", "Бат", "Котсуолдс", "Лондон", "Дорога гигантов", "Брайтон", "Пик-Дистрикт", "Оксфорд", "Лох-Несс", "Стоунхендж"},
	"zh": {"爱丁堡", "湖区", "康沃尔", "约克", "斯凯岛", "斯诺登尼亚", "巴斯", "科茨沃尔德", "伦敦", "巨人堤道", "布莱顿", "峰区", "牛津", "尼斯湖", "巨石阵"},
}
