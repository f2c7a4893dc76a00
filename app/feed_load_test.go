package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// Size of the panel the feed load run serves.
const (
	loadCampaigns    = 500
	loadParticipants = 10000
	loadImportBatch  = 100
	loadWorkers      = 64
	loadPerWorker    = 60 // 3,840 measured requests per target: enough for a stable p99
	loadWarmPer      = 5  // 320 unmeasured requests per target first
)

// TestFeedLoadRun serves the feed of the demo member of a panel with 500 open campaigns and
// 10,000 participants (with their participations) to 64 concurrent connections, on every
// dialect, and reports throughput and latency percentiles. It measures; it asserts nothing
// about time. `make bench` runs it (CANVASS_LOAD=1).
func TestFeedLoadRun(t *testing.T) {
	if os.Getenv("CANVASS_LOAD") != "1" {
		t.Skip("set CANVASS_LOAD=1 (make bench) to run the feed load run")
	}
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			e := newEnv(t, d)
			seedStart := time.Now()
			participations := seedFeedLoad(t, e)
			t.Logf("%s: seeded %d campaigns, %d participants, %d participations in %v", d,
				loadCampaigns, loadParticipants, participations, time.Since(seedStart).Round(time.Millisecond))
			base := listenLoopback(t, e)
			member := e.client("localhost")
			require.Equal(t, http.StatusSeeOther, member.login(DemoEmail, DemoPassword).StatusCode)
			cookie := http.Header{"Cookie": {"pp-token=" + member.cookie("pp-token")}}
			jsonCookie := http.Header{"Cookie": cookie["Cookie"], "Content-Type": {"application/json"}}

			// The skip list of a second load: the guids the first 30 cards showed.
			first := decodeFeed(t, member.postJSON("/api/v3/campaigns/paged?page=first&pageSize=30", "[]"))
			require.Len(t, first.Campaigns, 30, "the member's feed is long")
			require.False(t, first.EndOfFeed)
			skip := make([]string, 0, 30)
			for _, k := range first.Campaigns {
				skip = append(skip, k.GUID)
			}
			skipBody, _ := json.Marshal(skip)
			next := decodeFeed(t, member.postJSON("/api/v3/campaigns/paged?page=next&pageSize=10", string(skipBody)))
			require.Len(t, next.Campaigns, 10)
			for _, k := range next.Campaigns {
				require.NotContains(t, skip, k.GUID)
			}
			page := member.get("/feed")
			require.Equal(t, http.StatusOK, page.StatusCode)
			require.Len(t, cardsOf(page.Body), 10)

			for _, target := range []loadTarget{
				{name: string(d) + " feed page (signed in)", path: "/feed", header: cookie},
				{name: string(d) + " feed API first page", method: http.MethodPost, path: "/api/v3/campaigns/paged?page=first&pageSize=10", body: "[]", header: jsonCookie},
				{name: string(d) + " feed API next, skip 30", method: http.MethodPost, path: "/api/v3/campaigns/paged?page=next&pageSize=10", body: string(skipBody), header: jsonCookie},
			} {
				hammer(t, base, target, loadWorkers, loadWarmPer)
				drive(t, base, target, loadWorkers, loadPerWorker)
			}
		})
	}
}

// seedFeedLoad fills the demo panel: 500 open campaigns through the importer, 10,000
// participants and their participations written directly (a test may), and about 50
// participations of the demo member, so their feed has exclusions to skip over. It returns
// the number of participations.
func seedFeedLoad(t *testing.T, e *env) int {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(2024, 1))
	panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)

	ids := make([]string, 0, loadCampaigns)
	for start := 0; start < loadCampaigns; start += loadImportBatch {
		defs := make([]*campaigns.Definition, 0, loadImportBatch)
		for i := start; i < min(start+loadImportBatch, loadCampaigns); i++ {
			def := loadDefinition(rng, i)
			defs = append(defs, def)
			ids = append(ids, def.UUID)
		}
		_, err := e.app.Campaigns.Import(ctx, panel, defs)
		require.NoError(t, err)
	}

	now := time.Now().UTC()
	holders := make([]accounts.AccountHolder, 0, loadParticipants)
	participants := make([]accounts.Participant, 0, loadParticipants)
	for i := range loadParticipants {
		email := fmt.Sprintf("load%05d@demo.test", i)
		lang := "en"
		if i%4 == 0 {
			lang = "es"
		}
		created := now.Add(-time.Duration(rng.IntN(365*24)) * time.Hour)
		h := accounts.AccountHolder{
			ID: uuid.NewString(), PanelID: panel.ID, Email: email, EmailNormalized: email,
			PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$bG9hZC10ZXN0$bG9hZC10ZXN0LWR1bW15LWhhc2g", // never verified
			FirstName:    fmt.Sprintf("Load %d", i), LanguageCode: lang, Status: accounts.StatusActive,
			AcceptedTermsAt: &created, EmailValidatedAt: &created, CreatedAt: created, UpdatedAt: created,
		}
		holders = append(holders, h)
		participants = append(participants, accounts.Participant{
			ID: uuid.NewString(), AccountHolderID: h.ID, PanelID: panel.ID, CreatedAt: created,
			Metadata: accounts.Metadata{"welcomeCampaignCompleted": i%10 != 0, "country": []string{"US", "MX", "ES", "GB"}[i%4]},
		})
	}
	require.NoError(t, e.db.CreateInBatches(holders, 500).Error)
	require.NoError(t, e.db.CreateInBatches(participants, 500).Error)

	var parts []surveys.Participation
	for _, p := range participants {
		parts = append(parts, loadParticipations(rng, panel, p.ID, ids, 5+rng.IntN(16), now)...)
	}
	var memberIDs []string
	require.NoError(t, e.db.Table("participants AS p").Joins("JOIN account_holders AS ah ON ah.id = p.account_holder_id").
		Where("ah.panel_id = ? AND ah.email_normalized = ?", panel.ID, DemoEmail).Pluck("p.id", &memberIDs).Error)
	require.Len(t, memberIDs, 1, "the demo member")
	parts = append(parts, loadParticipations(rng, panel, memberIDs[0], ids, 50, now)...)
	require.NoError(t, e.db.CreateInBatches(parts, 200).Error)

	// A database in service has statistics; give the planner the ones it would have.
	for _, table := range []string{"campaigns", "campaign_quotas", "participations", "account_holders", "participants", "sessions"} {
		require.NoError(t, e.db.Exec("ANALYZE "+table).Error)
	}
	return len(parts)
}

// loadParticipations are n participations of one participant in distinct campaigns, with
// assorted statuses: completed, screened, started, seen but not started, hidden.
func loadParticipations(rng *rand.Rand, panel *web.Panel, participantID string, ids []string, n int, now time.Time) []surveys.Participation {
	out := make([]surveys.Participation, 0, n)
	for _, k := range rng.Perm(len(ids))[:n] {
		at := now.Add(-time.Duration(rng.IntN(90*24*60)) * time.Minute)
		later := at.Add(time.Duration(1+rng.IntN(30)) * time.Minute)
		p := surveys.Participation{
			ID: uuid.NewString(), PanelID: panel.ID, CampaignID: ids[k], ParticipantID: participantID,
			SeenAt: &at, CreatedAt: at, UpdatedAt: later,
		}
		switch r := rng.IntN(100); {
		case r < 30:
			p.Status, p.StartedAt, p.FinishedAt = campaigns.StatusCompleted, &at, &later
		case r < 45:
			p.Status, p.StartedAt, p.FinishedAt = campaigns.StatusScreened, &at, &later
		case r < 60:
			p.Status, p.StartedAt = campaigns.StatusStarted, &at
		case r < 88:
			p.Status, p.UpdatedAt = campaigns.StatusNew, at
		default:
			p.Status, p.HiddenAt = campaigns.StatusNew, &later
		}
		out = append(out, p)
	}
	return out
}

var loadControls = []string{
	campaigns.ControlText, campaigns.ControlTextArea, campaigns.ControlNumber, campaigns.ControlRadio,
	campaigns.ControlDropdown, campaigns.ControlCheckbox, campaigns.ControlNPS, campaigns.ControlStar,
	campaigns.ControlSlider, campaigns.ControlDate, campaigns.ControlLikert, campaigns.ControlGrid,
	campaigns.ControlLikeDislike, campaigns.ControlRanking,
}

var loadTopics = []struct{ en, es string }{
	{"Grocery habits", "Hábitos de compra"}, {"Streaming services", "Servicios de streaming"},
	{"Morning coffee", "El café de la mañana"}, {"Travel plans", "Planes de viaje"},
	{"Mobile banking", "Banca móvil"}, {"Home fitness", "Ejercicio en casa"},
	{"Pet food", "Comida para mascotas"}, {"Electric cars", "Coches eléctricos"},
}

// loadDefinition is the i-th campaign of the load panel: a realistic mix of types, sizes,
// priorities, targeting and quotas, all open now.
func loadDefinition(rng *rand.Rand, i int) *campaigns.Definition {
	topic := loadTopics[i%len(loadTopics)]
	opens := time.Now().UTC().Add(-time.Duration(1+rng.IntN(60*24)) * time.Hour)
	def := &campaigns.Definition{
		UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en",
		Name:        campaigns.Text{"en": fmt.Sprintf("%s #%d", topic.en, i+1), "es": fmt.Sprintf("%s n.º %d", topic.es, i+1)},
		Description: campaigns.Text{"en": "Tell us what you think about " + topic.en + ".", "es": "Cuéntanos qué opinas: " + topic.es + "."},
		Reward:      fmt.Sprintf("%d.%02d", rng.IntN(5), 25*rng.IntN(4)), EstimatedMinutes: 2 + rng.IntN(18),
		Priority: []int{0, 0, 0, 10, 10, 50, 100}[rng.IntN(7)], OpensAt: &opens,
	}
	if rng.IntN(3) == 0 {
		closes := time.Now().UTC().Add(time.Duration(24+rng.IntN(60*24)) * time.Hour)
		def.ClosesAt = &closes
	}
	if rng.IntN(8) == 0 {
		def.Type = campaigns.TypePoll
	}
	for q := range 3 + rng.IntN(6) {
		def.Questions = append(def.Questions, loadQuestion(q, loadControls[rng.IntN(len(loadControls))]))
	}
	switch r := rng.IntN(100); {
	case r < 10:
		def.Type = campaigns.TypeCompetition
		draw := time.Now().UTC().Add(30 * 24 * time.Hour)
		def.Competition = &campaigns.Competition{Prize: campaigns.Text{"en": "A $100 gift card", "es": "Una tarjeta regalo de 100 $"}, PrizeAmount: "100.00", Winners: 3, DrawAt: &draw}
	case r < 15:
		def.Targeting.Languages = []string{"es"}
	case r < 20:
		def.Targeting.Profile = []campaigns.Condition{[]campaigns.Condition{
			{Field: "emailValidated", Op: campaigns.OpEq, Value: true},
			{Field: "metadata.country", Op: campaigns.OpIn, Values: []any{"MX", "ES"}},
			{Field: "acceptedTermsConditions", Op: campaigns.OpEq, Value: true},
			{Field: "languageCode", Op: campaigns.OpIn, Values: []any{"en", "es"}},
		}[rng.IntN(4)]}
	}
	if rng.IntN(5) == 0 {
		def.Quotas = []campaigns.Quota{{ID: "total", Limit: 500 + rng.IntN(1500)}}
		if rng.IntN(2) == 0 {
			def.Quotas = append(def.Quotas, campaigns.Quota{ID: "es", Limit: 200, When: []campaigns.Condition{{Field: "languageCode", Op: campaigns.OpEq, Value: "es"}}})
		}
	}
	return def
}

func loadQuestion(n int, control string) campaigns.Question {
	q := campaigns.Question{
		ID: fmt.Sprintf("q%d", n+1), ControlType: control,
		Text: campaigns.Text{"en": fmt.Sprintf("Question %d?", n+1), "es": fmt.Sprintf("¿Pregunta %d?", n+1)},
	}
	options := func(k int) []campaigns.Option {
		out := make([]campaigns.Option, k)
		for i := range out {
			out[i] = campaigns.Option{ID: fmt.Sprintf("o%d", i+1), Text: campaigns.Text{"en": fmt.Sprintf("Option %d", i+1), "es": fmt.Sprintf("Opción %d", i+1)}}
		}
		return out
	}
	switch control {
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlCheckbox, campaigns.ControlRanking:
		q.Answers = options(4)
	case campaigns.ControlLikeDislike:
		q.Answers = options(2)
	case campaigns.ControlNumber, campaigns.ControlSlider:
		lo, hi := 0.0, 100.0
		q.MinNum, q.MaxNum = &lo, &hi
	case campaigns.ControlLikert:
		q.ScaleAnswers = options(5)
		for i := range q.ScaleAnswers {
			v := float64(i + 1)
			q.ScaleAnswers[i].Value = &v
		}
	case campaigns.ControlGrid:
		q.Rows, q.Columns = options(3), options(4)
	}
	return q
}
