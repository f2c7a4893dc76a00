package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
)

// The demo's results: synthetic respondents (respondent-0001@synthetic.invalid and on, first
// name "Synthetic", metadata synthetic: true) who answered the demo panels' campaigns over the
// last 30 days, so that the console's results have something in every chart. They are made-up
// data, labelled as such, that can never sign in; their runs count towards no quota and were
// paid nothing. `canvass serve` with CANVASS_DEMO=1 (`make run`) and `canvass demo` load them
// after LoadDemo; LoadDemo itself does not (the tests load it for hundreds of environments).

// demoRespondents are how many synthetic members each demo panel has.
var demoRespondents = []struct {
	panel string
	n     int
}{{"demo", 300}, {"northwind", 150}}

// demoTakePart is the share of a panel's campaigns each synthetic member took part in (the
// welcome campaign: all of them).
const demoTakePart = 0.8

// demoOutcomes are the runs' outcomes and their shares; a share a campaign cannot produce (no
// route screens out or disqualifies, no quota) goes to completed.
var demoOutcomes = []struct {
	outcome string
	share   float64
}{
	{campaigns.StatusCompleted, 0.70},
	{campaigns.StatusStarted, 0.14},
	{campaigns.StatusScreened, 0.08},
	{campaigns.StatusQuotaFull, 0.04},
	{campaigns.StatusDisqualified, 0.04},
}

// demoPlacesPerPanel is how many of a panel's postcodes its synthetic members live in.
const demoPlacesPerPanel = 14

// LoadDemoResults gives the demo panels their synthetic respondents and their runs of each
// campaign with questions but onboarding ones (those keep only the completed runs of members
// who joined through a sign-in provider, at the moment they joined: made-up members who joined
// by email have none). Fixed seeds make it the same on every machine but for the clock; a
// second load adds nothing.
func LoadDemoResults(ctx context.Context, app *App) error {
	began := time.Now()
	now := began.UTC()
	members, added := 0, 0
	for _, d := range demoRespondents {
		panel, err := app.Tenancy.PanelByKey(ctx, d.panel)
		if err != nil {
			return fmt.Errorf("demo results of %s: %w", d.panel, err)
		}
		ids, err := app.Accounts.Service().EnsureSyntheticMembers(ctx, panel, d.n)
		if err != nil {
			return fmt.Errorf("demo results of %s: %w", d.panel, err)
		}
		members += len(ids)
		places, err := demoPlaces(d.panel)
		if err != nil {
			return err
		}
		files, err := demoCampaignFiles(d.panel)
		if err != nil {
			return err
		}
		for _, f := range files {
			def, err := campaigns.ParseFile(f.Name, f.Data)
			if err != nil {
				return err
			}
			if def.Onboarding || len(def.Questions) == 0 {
				continue
			}
			c, err := app.Campaigns.Campaign(ctx, panel, def.UUID)
			if err != nil {
				return fmt.Errorf("demo results of %s: campaign %s: %w", d.panel, def.UUID, err)
			}
			n, err := app.Surveys.SeedRuns(ctx, panel.ID, c, demoRuns(panel, c, ids, places, now, demoTakePart))
			added += n
			if err != nil {
				return fmt.Errorf("demo results of %s: campaign %s: %w", d.panel, def.UUID, err)
			}
		}
	}
	app.Kit.Log.Info("demo results: synthetic respondents seeded", "respondents", members, "runs_added", added,
		"took", time.Since(began).Round(time.Millisecond))
	return nil
}

// demoRuns are the synthetic members' runs of one campaign: a share of them take part (those it
// targets; every one for the welcome campaign), most complete; they started over the 30 days before now, more on recent days and
// in the evening, and took about the campaign's estimated minutes.
func demoRuns(panel *web.Panel, c *campaigns.Campaign, ids []string, places []surveys.Place, now time.Time, takePart float64) []surveys.SyntheticRun {
	rng := rand.New(rand.NewPCG(demoSeed(panel.Key+"/"+c.ID), 34))
	outcomes, shares := demoOutcomesOf(c)
	est := float64(max(1, c.EstimatedMinutes))
	var runs []surveys.SyntheticRun
	for i, id := range ids {
		lang := accounts.SyntheticLanguage(panel, i)
		// Every draw is made for every member, so each one's run is the same whoever else takes part.
		takes, outcome, start, pace, seed := rng.Float64(), outcomes[pick(rng, shares)], demoStart(rng, now), math.Exp(0.35*rng.NormFloat64()), rng.Int64()
		if !demoTargets(c, panel, lang) || (!c.IsWelcome && takes >= takePart) {
			continue
		}
		minutes := est * 0.9 * pace
		if outcome != campaigns.StatusCompleted && outcome != campaigns.StatusStarted {
			minutes = est * (0.1 + 0.2*rng.Float64()) // ended after a question or two
		}
		minutes = max(minutes, 0.3)
		if latest := now.Add(-time.Duration(minutes*float64(time.Minute)) - time.Minute); start.After(latest) {
			start = latest // over by now
		}
		if !c.Names.Has(lang) {
			lang = c.DefaultLanguage // answered in the campaign's language
		}
		runs = append(runs, surveys.SyntheticRun{ParticipantID: id, Outcome: outcome, StartedAt: start, Minutes: minutes,
			Language: lang, Seed: seed, Places: places})
	}
	return runs
}

// demoOutcomesOf are the outcomes a campaign's runs may have, with their shares.
func demoOutcomesOf(c *campaigns.Campaign) ([]string, []float64) {
	can := map[string]bool{campaigns.StatusCompleted: true, campaigns.StatusStarted: true, campaigns.StatusQuotaFull: len(c.Definition.Quotas) > 0}
	for _, q := range c.Definition.Questions {
		for _, r := range q.Routes {
			switch r.Then {
			case campaigns.ThenScreenOut:
				can[campaigns.StatusScreened] = true
			case campaigns.ThenDisqualify:
				can[campaigns.StatusDisqualified] = true
			}
		}
	}
	var outcomes []string
	var shares []float64
	for _, o := range demoOutcomes {
		outcomes = append(outcomes, o.outcome)
		if can[o.outcome] {
			shares = append(shares, o.share)
		} else {
			shares = append(shares, 0)
			shares[0] += o.share
		}
	}
	return outcomes, shares
}

// demoTargets tells whether a campaign's targeting lets a synthetic member speaking lang see it.
func demoTargets(c *campaigns.Campaign, panel *web.Panel, lang string) bool {
	if langs := c.Definition.Targeting.Languages; len(langs) > 0 && !slices.Contains(langs, lang) {
		return false
	}
	fields := map[string]any{"languageCode": lang, "emailValidated": true, "acceptedTermsConditions": true,
		"metadata.synthetic": true, "metadata.siteId": panel.Key}
	return campaigns.MatchAll(c.ProfileTargeting, fields, nil)
}

// demoHours are how busy each hour of the day (UTC) is: lunchtime and evenings most.
var demoHours = []float64{1, 0.5, 0.3, 0.2, 0.2, 0.4, 1, 2, 3, 3.5, 3.5, 3.5, 4, 4, 3.5, 3.5, 3.5, 4, 5, 6, 6.5, 6, 4, 2}

// demoStart is a start within the 30 days before now, recent days busier (the chance of a day
// falls linearly with its age).
func demoStart(rng *rand.Rand, now time.Time) time.Time {
	days := int(30 * (1 - math.Sqrt(1-rng.Float64())))
	day := now.Truncate(24*time.Hour).AddDate(0, 0, -days)
	t := day.Add(time.Duration(pick(rng, demoHours))*time.Hour + time.Duration(rng.IntN(3600))*time.Second)
	if t.After(now) {
		t = t.AddDate(0, 0, -1)
	}
	return t
}

// pick draws an index with the weights.
func pick(rng *rand.Rand, w []float64) int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	r := rng.Float64() * sum
	for i, x := range w {
		if r < x {
			return i
		}
		r -= x
	}
	return len(w) - 1
}

// demoSeed is a fixed seed for a name.
func demoSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// demoPlaces are postcodes spread over a demo panel's own (app/demo/postcodes), that its
// synthetic members live in.
func demoPlaces(panelKey string) ([]surveys.Place, error) {
	name := "demo/postcodes/" + panelKey + ".csv"
	f, err := demoPostcodesFS.Open(name)
	if err != nil {
		return nil, fmt.Errorf("demo postcodes of %s: %w", panelKey, err)
	}
	defer f.Close()
	rows, err := postcodes.ParseCSV(name, f)
	if err != nil {
		return nil, err
	}
	var out []surveys.Place
	for i := 0; i < demoPlacesPerPanel && len(rows) > 0; i++ {
		r := rows[i*len(rows)/demoPlacesPerPanel]
		if len(out) == 0 || out[len(out)-1].ID != r.ID {
			out = append(out, surveys.Place{Postcode: r.Postcode, ID: r.ID})
		}
	}
	return out, nil
}
