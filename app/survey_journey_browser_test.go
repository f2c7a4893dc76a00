package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Journeys through the survey-box island in Chromium: every control from the keyboard and with
// the mouse, the outcomes that pay nothing, the rating on the thank-you page, and the ways of
// going back and forth that must never pay twice.

const inBox = `[data-island="survey-box"]`

// driver answers the survey box in one page.
type driver struct {
	t *testing.T
	p *rod.Page
}

func (d driver) press(keys ...input.Key) { d.p.Keyboard.MustType(keys...) }

// typeText types s key by key, as a member would (letters, digits, '.', space).
func (d driver) typeText(s string) {
	for _, r := range s {
		d.press(input.Key(r))
	}
}

func (d driver) shiftTab() {
	d.p.KeyActions().Press(input.ShiftLeft).Type(input.Tab).MustDo()
}

// focusIs tells whether the focused element el satisfies the JavaScript expression cond.
func (d driver) focusIs(cond string) bool {
	return d.p.MustEval(`() => { const el = document.activeElement; return !!(el && (` + cond + `)) }`).Bool()
}

// tabTo presses Tab until the focused element el satisfies cond.
func (d driver) tabTo(cond string) {
	d.t.Helper()
	for range 80 {
		if d.focusIs(cond) {
			return
		}
		d.press(input.Tab)
	}
	require.True(d.t, d.focusIs(cond), "Tab never reached %s (on %s)", cond, d.p.MustEval(`() => document.activeElement ? document.activeElement.outerHTML.slice(0, 200) : 'nothing'`).Str())
}

// into tabs to the first control of the question on screen.
func (d driver) into() {
	d.t.Helper()
	d.tabTo(`el.closest('` + inBox + ` .survey-question') && el.id !== 'sb-q' && el.tagName !== 'IFRAME'`)
}

// el is an element of the survey box.
func (d driver) el(selector string) *rod.Element { return d.p.MustElement(inBox + " " + selector) }

// label is the label around the box's input matching selector (the element a member clicks).
func (d driver) label(selector string) *rod.Element { return d.el(selector).MustParent() }

// button is the box's button whose text matches the regular expression.
func (d driver) button(text string) *rod.Element {
	return d.p.MustElementR(inBox+" button", text)
}

// waitQuestion waits until the box shows the question with its control loaded.
func (d driver) waitQuestion(text string) {
	d.p.MustWait(`(text) => {
		const h = document.querySelector('`+inBox+` #sb-q')
		return !!h && h.textContent === text &&
			!document.querySelector('`+inBox+` .survey-question .spinner') &&
			!!document.querySelector('`+inBox+` .survey-question :is(input, select, textarea, button)')
	}`, text)
}

// waitNext waits until Next takes the answer.
func (d driver) waitNext() {
	d.p.MustWait(`() => { const b = document.querySelector('` + inBox + ` button.sb-next'); return !!b && !b.disabled }`)
}

// waitText waits until the survey box says text.
func (d driver) waitText(text string) {
	d.p.MustWait(`(text) => document.querySelector('`+inBox+`').textContent.includes(text)`, text)
}

// nextByKeyboard tabs to Next and presses Enter.
func (d driver) nextByKeyboard() {
	d.t.Helper()
	d.waitNext()
	d.tabTo(`el.matches('button.sb-next')`)
	d.press(input.Enter)
}

// nextByMouse clicks Next.
func (d driver) nextByMouse() {
	d.waitNext()
	click(d.el("button.sb-next"))
}

// location types the postcode 10001 and takes the lookup's first suggestion when it offers a
// list; otherwise the control takes the typed postcode itself once the lookup has failed.
func (d driver) location(byKeyboard bool) {
	if byKeyboard {
		d.typeText("10001")
	} else {
		d.el(`input[role=combobox]`).MustInput("10001")
	}
	d.p.MustWait(`() => {
		const b = document.querySelector('` + inBox + ` button.sb-next')
		return !!document.querySelector('` + inBox + ` [role=listbox]:not([hidden]) [role=option]') || (!!b && !b.disabled)
	}`)
	if d.p.MustHas(inBox + ` [role=listbox]:not([hidden]) [role=option]`) {
		if byKeyboard {
			d.press(input.ArrowDown, input.Enter)
		} else {
			click(d.el(`[role=listbox] [role=option]`))
		}
	}
}

// clickAt clicks the element at x pixels from its left edge, in its middle.
func (d driver) clickAt(el *rod.Element, x func(width float64) float64) {
	el.MustEval(`() => this.scrollIntoView({block: 'center'})`)
	box := el.MustShape().Box()
	d.p.Mouse.MustMoveTo(box.X+x(box.Width), box.Y+box.Height/2)
	d.p.Mouse.MustClick(proto.InputMouseButtonLeft)
}

// controlJourney answers one control type from the keyboard and with the mouse, and says what
// each way stores (the answer VALUE as JSON, ARCHITECTURE.md "Answers").
type controlJourney struct {
	keyboard     func(d driver)
	wantKeyboard string
	mouse        func(d driver)
	wantMouse    string
}

// arrows presses an arrow key n times.
func arrows(key input.Key, n int) []input.Key {
	out := make([]input.Key, n)
	for i := range out {
		out[i] = key
	}
	return out
}

// everyControlJourney answers each question of "Every control" (see everyControl) through its
// control's own UI. The keyboard functions start with the focus on the question (or above the
// box for the first one) and only press keys.
var everyControlJourney = map[string]controlJourney{
	campaigns.ControlRadio: {
		keyboard:     func(d driver) { d.into(); d.press(input.ArrowDown) },
		wantKeyboard: `"tea"`,
		mouse:        func(d driver) { click(d.label(`input[value=juice]`)) },
		wantMouse:    `"juice"`,
	},
	campaigns.ControlDate: {
		// 01/01/2000 reads the same day first or month first.
		keyboard:     func(d driver) { d.into(); d.typeText("01012000") },
		wantKeyboard: `"2000-01-01"`,
		mouse: func(d driver) {
			d.clickAt(d.el(`input[type=date]`), func(float64) float64 { return 16 }) // the first field
			d.typeText("01012000")
		},
		wantMouse: `"2000-01-01"`,
	},
	campaigns.ControlImageSelect: {
		keyboard:     func(d driver) { d.into(); d.press(input.ArrowRight) },
		wantKeyboard: `"mountains"`,
		mouse:        func(d driver) { click(d.label(`input[value=city]`)) },
		wantMouse:    `"city"`,
	},
	campaigns.ControlSlider: {
		// It starts in the middle (2500) and steps by 100.
		keyboard:     func(d driver) { d.into(); d.press(input.ArrowRight, input.ArrowRight) },
		wantKeyboard: `2700`,
		mouse: func(d driver) {
			d.clickAt(d.el(`input[type=range]`), func(w float64) float64 { return w - 1 }) // the right end
		},
		wantMouse: `5000`,
	},
	campaigns.ControlText: {
		keyboard:     func(d driver) { d.into(); d.typeText("lisbon") },
		wantKeyboard: `"lisbon"`,
		mouse: func(d driver) {
			click(d.el(`input[type=text]`))
			d.el(`input[type=text]`).MustInput("Paris")
		},
		wantMouse: `"Paris"`,
	},
	campaigns.ControlClickBar: {
		keyboard:     func(d driver) { d.into(); d.press(arrows(input.ArrowRight, 6)...) },
		wantKeyboard: `7`,
		mouse:        func(d driver) { click(d.label(`input[value="3"]`)) },
		wantMouse:    `3`,
	},
	campaigns.ControlLikert: {
		keyboard:     func(d driver) { d.into(); d.press(arrows(input.ArrowRight, 3)...) },
		wantKeyboard: `4`,
		mouse:        func(d driver) { click(d.label(`input[value="5"]`)) },
		wantMouse:    `5`,
	},
	campaigns.ControlLikeDislike: {
		keyboard:     func(d driver) { d.into(); d.press(input.Tab, input.Space) },
		wantKeyboard: `"dislike"`,
		mouse:        func(d driver) { click(d.button("Like")) },
		wantMouse:    `"like"`,
	},
	campaigns.ControlVideo: {
		keyboard:     func(d driver) { d.into(); d.press(input.Space) },
		wantKeyboard: `{"watched": true}`,
		mouse:        func(d driver) { click(d.label(`input[type=checkbox]`)) },
		wantMouse:    `{"watched": true}`,
	},
	campaigns.ControlTextArea: {
		keyboard:     func(d driver) { d.into(); d.typeText("less sugar please") },
		wantKeyboard: `"less sugar please"`,
		mouse: func(d driver) {
			click(d.el("textarea"))
			d.el("textarea").MustInput("  Fine as it is  ")
		},
		wantMouse: `"Fine as it is"`,
	},
	campaigns.ControlFrequency: {
		keyboard:     func(d driver) { d.into(); d.typeText("3"); d.press(input.Tab, input.ArrowDown) },
		wantKeyboard: `{"count": 3, "period": "week"}`,
		mouse: func(d driver) {
			click(d.el(`input[type=number]`))
			d.el(`input[type=number]`).MustInput("4")
		},
		wantMouse: `{"count": 4, "period": "day"}`,
	},
	campaigns.ControlSpend: {
		keyboard:     func(d driver) { d.into(); d.typeText("12.5") },
		wantKeyboard: `{"amount": 12.5, "period": "week"}`,
		mouse: func(d driver) {
			click(d.el(`input[type=number]`))
			d.el(`input[type=number]`).MustInput("40")
			d.el("select").MustSelect("month") // a native select's list is outside the page
		},
		wantMouse: `{"amount": 40, "period": "month"}`,
	},
	campaigns.ControlRanking: {
		// Taste goes down twice (the focus stays on its "Move down"), then up once from its
		// "Move up", one Shift+Tab back.
		keyboard: func(d driver) {
			d.into()
			require.True(d.t, d.focusIs(`el.matches('[data-id=taste] button[aria-label="Move down"]')`), "the first enabled button is Taste's Move down")
			d.press(input.Enter, input.Enter)
			require.True(d.t, d.focusIs(`el.matches('[data-id=taste] button[aria-label="Move down"]')`), "the focus follows the moved option")
			d.shiftTab()
			d.press(input.Enter)
		},
		wantKeyboard: `["price", "taste", "convenience", "sustainability", "brand"]`,
		mouse:        func(d driver) { click(d.el(`[data-id=brand] button[aria-label="Move up"]`)) },
		wantMouse:    `["taste", "price", "convenience", "brand", "sustainability"]`,
	},
	campaigns.ControlStar: {
		keyboard:     func(d driver) { d.into(); d.press(arrows(input.ArrowRight, 3)...) },
		wantKeyboard: `4`,
		mouse:        func(d driver) { click(d.label(`input[value="2"]`)) },
		wantMouse:    `2`,
	},
	campaigns.ControlSmiley: {
		keyboard:     func(d driver) { d.into(); d.press(arrows(input.ArrowRight, 4)...) },
		wantKeyboard: `5`,
		mouse:        func(d driver) { click(d.label(`input[value="4"]`)) },
		wantMouse:    `4`,
	},
	campaigns.ControlCheckbox: {
		keyboard: func(d driver) {
			d.into()
			d.press(input.Space, input.Tab, input.Tab, input.Space) // tea, herbal
			d.shiftTab()
			d.press(input.Space) // hot chocolate
		},
		wantKeyboard: `["tea", "hot_chocolate", "herbal"]`,
		// "None of these" is exclusive: it clears the others.
		mouse: func(d driver) {
			click(d.label(`input[value=tea]`))
			click(d.label(`input[value=chai]`))
			click(d.label(`input[value=none]`))
		},
		wantMouse: `["none"]`,
	},
	campaigns.ControlMultiImage: {
		keyboard:     func(d driver) { d.into(); d.press(input.Space, input.Tab, input.Tab, input.Space) },
		wantKeyboard: `["dog", "bird"]`,
		mouse: func(d driver) {
			click(d.label(`input[value=cat]`))
			click(d.label(`input[value=rabbit]`))
		},
		wantMouse: `["cat", "rabbit"]`,
	},
	campaigns.ControlNumber: {
		keyboard:     func(d driver) { d.into(); d.typeText("2") },
		wantKeyboard: `2`,
		mouse: func(d driver) {
			click(d.el(`input[type=number]`))
			d.el(`input[type=number]`).MustInput("3")
		},
		wantMouse: `3`,
	},
	campaigns.ControlGrid: {
		// A row's radios are one group: Tab enters the next row, the arrows move along it.
		keyboard: func(d driver) {
			d.into()
			d.press(input.Space)                                   // drama: never
			d.press(input.Tab, input.ArrowRight)                   // comedy: sometimes
			d.press(input.Tab, input.ArrowRight, input.ArrowRight) // documentary: often
			d.press(input.Tab, input.Space)                        // reality: never
			d.press(input.Tab, input.ArrowRight)                   // sport: sometimes
		},
		wantKeyboard: `{"drama": "never", "comedy": "sometimes", "documentary": "often", "reality": "never", "sport": "sometimes"}`,
		mouse: func(d driver) {
			for _, cell := range []string{"Drama series: Often", "Comedy: Often", "Documentaries: Never", "Reality shows: Sometimes", "Live sport: Never"} {
				click(d.label(`input[aria-label="` + cell + `"]`))
			}
		},
		wantMouse: `{"drama": "often", "comedy": "often", "documentary": "never", "reality": "sometimes", "sport": "never"}`,
	},
	campaigns.ControlMostLeast: {
		// Most on the first row, then Tab to its Least and down to the second row's.
		keyboard: func(d driver) {
			d.into()
			d.press(input.Space, input.Tab, input.ArrowDown)
		},
		wantKeyboard: `{"most": "price", "least": "catalogue"}`,
		mouse: func(d driver) {
			click(d.label(`input[aria-label="Most: No ads"]`))
			click(d.label(`input[aria-label="Least: Monthly price"]`))
		},
		wantMouse: `{"most": "no_ads", "least": "price"}`,
	},
	campaigns.ControlNPS: {
		keyboard:     func(d driver) { d.into(); d.press(arrows(input.ArrowRight, 9)...) },
		wantKeyboard: `9`,
		mouse:        func(d driver) { click(d.label(`input[value="10"]`)) },
		wantMouse:    `10`,
	},
	campaigns.ControlDropdown: {
		keyboard:     func(d driver) { d.into(); d.press(input.ArrowDown, input.ArrowDown) },
		wantKeyboard: `"discount"`,
		mouse:        func(d driver) { d.el("select").MustSelect("Online, delivered to my home") },
		wantMouse:    `"online"`,
	},
	campaigns.ControlStepper: {
		// Decrease, the number, Increase: + from empty starts at the minimum (1).
		keyboard: func(d driver) {
			d.into()
			d.press(input.Tab, input.Tab, input.Enter, input.Enter, input.Enter)
		},
		wantKeyboard: `3`,
		mouse: func(d driver) {
			click(d.button("\\+"))
			click(d.button("\\+"))
		},
		wantMouse: `2`,
	},
	campaigns.ControlLocation: {
		keyboard: func(d driver) { d.into(); d.location(true) },
		mouse: func(d driver) {
			click(d.el(`input[role=combobox]`))
			d.location(false)
		},
	},
}

// blockVideos keeps the video question's YouTube embed off the network.
func blockVideos(p *rod.Page) {
	_ = proto.NetworkEnable{}.Call(p) // best effort: the page works either way
	_ = proto.NetworkSetBlockedURLs{Urls: []string{"*youtube*", "*ytimg*", "*googlevideo*"}}.Call(p)
}

// startByKeyboard opens a campaign's invitation, tabs to Start and presses Enter.
func (b *browserEnv) startByKeyboard(t *testing.T, p *rod.Page, campaignID string) {
	t.Helper()
	p.MustNavigate(b.url("localhost", "/survey/"+campaignID)).MustWaitLoad()
	d := driver{t, p}
	d.tabTo(`el.matches('form[action$="/start"] button')`)
	wait := p.MustWaitNavigation()
	d.press(input.Enter)
	wait()
	p.MustWaitLoad()
	p.MustElement(surveyIsland)
}

// storedAnswers is what the engine recorded for the demo member in a campaign, by question id.
func (b *browserEnv) storedAnswers(t *testing.T, campaignID string) map[string]string {
	t.Helper()
	_, pid := b.demoParticipant()
	var rows []struct{ QuestionID, Value string }
	require.NoError(t, b.db.Raw(`SELECT a.question_id, a.value FROM answers a JOIN participations p ON p.id = a.participation_id
		WHERE p.campaign_id = ? AND p.participant_id = ?`, campaignID, pid).Scan(&rows).Error)
	out := map[string]string{}
	for _, r := range rows {
		out[r.QuestionID] = r.Value
	}
	return out
}

// ledgerEntries counts the demo member's ledger entries for a campaign.
func (b *browserEnv) ledgerEntries(t *testing.T, campaignID string) int64 {
	t.Helper()
	_, pid := b.demoParticipant()
	var n int64
	require.NoError(t, b.db.Table("ledger_entries").Where("campaign_id = ? AND participant_id = ?", campaignID, pid).Count(&n).Error)
	return n
}

// participationStatus is the demo member's participation status in a campaign.
func (b *browserEnv) participationStatus(t *testing.T, campaignID string) string {
	t.Helper()
	_, pid := b.demoParticipant()
	var s string
	require.NoError(t, b.db.Table("participations").Select("status").Where("campaign_id = ? AND participant_id = ?", campaignID, pid).Scan(&s).Error)
	return s
}

func TestInChromiumAMemberAnswersEveryControlAndIsPaidOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		byKeyboard bool
	}{
		{name: "from the keyboard alone", byKeyboard: true},
		{name: "with the mouse", byKeyboard: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowserEnv(t)
			everyControl(t, b.env)
			var c campaigns.Campaign
			require.NoError(t, b.db.Where("id = ?", everyControlID).Take(&c).Error)
			questions := c.Definition.Questions
			require.Len(t, questions, len(everyControlJourney), "one question per control, each with its journey")
			api := b.member()
			require.Equal(t, "25.00", b.balanceOf(api))

			p := b.signedInFeed(t, false)
			blockVideos(p)
			d := driver{t, p}
			if tc.byKeyboard {
				b.startByKeyboard(t, p, everyControlID)
				// From here on, any pointer would be counted.
				p.MustEval(`() => { window.pointers = 0; for (const e of ['pointerdown', 'mousedown']) document.addEventListener(e, () => window.pointers++, true) }`)
			} else {
				b.startSurvey(t, p, everyControlID)
			}

			for i, q := range questions {
				journey, ok := everyControlJourney[q.ControlType]
				require.True(t, ok, "a journey for %s", q.ControlType)
				d.waitQuestion(q.Text["en"])
				if tc.byKeyboard {
					if i > 0 {
						p.MustWait(`() => document.activeElement && document.activeElement.id === 'sb-q'`) // each new question takes the focus
					}
					journey.keyboard(d)
					d.nextByKeyboard()
				} else {
					journey.mouse(d)
					d.nextByMouse()
				}
			}
			d.waitText("You earned $0.10.")
			assert.Equal(t, "Thank you!", d.el("#sb-q").MustText())
			if tc.byKeyboard {
				assert.Zero(t, p.MustEval(`() => window.pointers`).Int(), "no mouse was used")
			}

			stored := b.storedAnswers(t, everyControlID)
			assert.Len(t, stored, len(questions), "every answer reached the server")
			for _, q := range questions {
				journey := everyControlJourney[q.ControlType]
				want := journey.wantMouse
				if tc.byKeyboard {
					want = journey.wantKeyboard
				}
				got, ok := stored[q.ID]
				if !assert.True(t, ok, "%s was answered", q.ID) {
					continue
				}
				if q.ControlType == campaigns.ControlLocation {
					// The typed postcode, whether the lookup's suggestion or the control took it.
					assert.Contains(t, got, `"postcode":"10001"`, q.ID)
					assert.NotContains(t, got, `"id":""`, q.ID)
					continue
				}
				assert.JSONEq(t, want, got, "%s (%s)", q.ID, q.ControlType)
			}

			p.MustWait(`() => document.querySelector('[data-balance]').textContent === '$25.10'`) // the top bar follows
			assert.Equal(t, "25.10", b.balanceOf(api), "paid the reward")
			assert.Equal(t, int64(1), b.ledgerEntries(t, everyControlID), "once")
			assert.Equal(t, campaigns.StatusCompleted, b.participationStatus(t, everyControlID))
		})
	}
}

// importSurvey imports a campaign into the demo panel and returns its id.
func (e *env) importSurvey(t *testing.T, name, reward string, qs []campaigns.Question, edit ...func(*campaigns.Definition)) string {
	t.Helper()
	def := &campaigns.Definition{UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": name},
		Reward: reward, EstimatedMinutes: 2, Priority: 900, Questions: qs}
	for _, f := range edit {
		f(def)
	}
	panel, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
	require.NoError(t, err)
	_, err = e.app.Campaigns.Import(t.Context(), panel, []*campaigns.Definition{def})
	require.NoError(t, err)
	return def.UUID
}

func choiceQuestion(id, text string, options ...string) campaigns.Question {
	q := campaigns.Question{ID: id, ControlType: campaigns.ControlRadio, Text: campaigns.Text{"en": text}}
	for _, o := range options {
		q.Answers = append(q.Answers, campaigns.Option{ID: o, Text: campaigns.Text{"en": o}})
	}
	return q
}

// anotherMember signs in a second member of Canvass Demo (past the welcome campaign).
func (b *browserEnv) anotherMember(t *testing.T, email string) *client {
	t.Helper()
	panel, err := b.app.Tenancy.PanelByKey(context.Background(), "demo")
	require.NoError(t, err)
	require.NoError(t, b.app.Accounts.Service().EnsureMember(context.Background(), panel,
		accounts.RegisterInput{Email: email, Password: "another-password-1", AcceptTerms: true, LanguageCode: "en"},
		accounts.Metadata{"welcomeCampaignCompleted": true}))
	c := b.client("localhost")
	require.Equal(t, http.StatusSeeOther, c.login(email, "another-password-1").StatusCode)
	return c
}

// chooseAndNext clicks an option of the question on screen, then Next.
func (d driver) chooseAndNext(question, option string) {
	d.waitQuestion(question)
	click(d.label(`input[value="` + option + `"]`))
	d.nextByMouse()
}

func TestInChromiumASurveyThatEndsEarlyShowsItsOutcomeAndPaysNothing(t *testing.T) {
	t.Parallel()
	// Car owners answer on; the others are screened out. One car owner completes, then the
	// quota of car owners is full.
	carSurvey := func(b *browserEnv) string {
		car := choiceQuestion("car", "Do you own a car?", "yes", "no")
		car.Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "car", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}
		return b.importSurvey(t, "Car owners", "2.00", []campaigns.Question{car, choiceQuestion("brand", "Which brand?", "ford", "toyota")},
			func(d *campaigns.Definition) {
				d.Quotas = []campaigns.Quota{{ID: "owners", Limit: 1, When: []campaigns.Condition{{Question: "car", Op: campaigns.OpEq, Value: "yes"}}}}
			})
	}
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, b *browserEnv, id string)
		answer func(d driver)
		title  string
		status string
	}{
		{
			name:   "a member screened out by their answer is thanked for their time",
			answer: func(d driver) { d.chooseAndNext("Do you own a car?", "no") },
			title:  "Thanks for your time",
			status: campaigns.StatusScreened,
		},
		{
			name: "a member who would complete a full quota is told the survey has all the answers it needs",
			before: func(t *testing.T, b *browserEnv, id string) {
				other := b.anotherMember(t, "first-owner@demo.test")
				base := "/api/v1/demo/campaigns/" + id
				decodeJSON[goResultJSON](t, other.get(base+"/go"), http.StatusOK)
				decodeJSON[goResultJSON](t, other.postJSON(base+"/question/car", `{"answer":"yes"}`), http.StatusOK)
				done := decodeJSON[goResultJSON](t, other.postJSON(base+"/question/brand", `{"answer":"ford"}`), http.StatusOK)
				require.Equal(t, campaigns.StatusCompleted, done.CampaignStatus, "the first owner fills the quota")
			},
			answer: func(d driver) {
				d.chooseAndNext("Do you own a car?", "yes")
				d.chooseAndNext("Which brand?", "toyota")
			},
			title:  "This survey has all the answers it needs",
			status: campaigns.StatusQuotaFull,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowserEnv(t)
			id := carSurvey(b)
			if tc.before != nil {
				tc.before(t, b, id)
			}
			api := b.member()
			p := b.signedInFeed(t, false)
			d := driver{t, p}
			b.startSurvey(t, p, id)
			tc.answer(d)

			p.MustWait(`(title) => { const h = document.querySelector('`+inBox+` #sb-q'); return !!h && h.textContent === title }`, tc.title)
			box := d.el(".thank-you")
			assert.False(t, p.MustHas(inBox+" .payout"), "no payout on the page")
			assert.NotContains(t, box.MustText(), "You earned")
			assert.Equal(t, tc.status, b.participationStatus(t, id))

			p.MustReload().MustWaitLoad()
			p.MustElement(surveyIsland)
			d.waitText(tc.title)
			assert.Equal(t, "$25.00", p.MustElement("[data-balance]").MustText())
			assert.Equal(t, "25.00", b.balanceOf(api), "no money moved")
			assert.Zero(t, b.ledgerEntries(t, id))

			wait := p.MustWaitNavigation()
			click(p.MustElementR(inBox+" .sb-footer a.button", "Take me back to my feed"))
			wait()
			assert.Equal(t, "/feed", path(p), "the way back to the feed")
		})
	}
}

func TestInChromiumAMemberRatesACompletedSurveyWithACommentOnTheThankYouPage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		rate    func(d driver)
		stars   float64
		comment string
	}{
		{
			name: "with the mouse",
			rate: func(d driver) {
				click(d.label(`.rating input[name=rating][value="5"]`))
				click(d.el(`.rating textarea`))
				d.el(`.rating textarea`).MustInput("  Short   and sweet ")
				click(d.button("Send rating"))
			},
			stars:   5,
			comment: "Short and sweet",
		},
		{
			name: "from the keyboard",
			rate: func(d driver) {
				d.tabTo(`el.matches('.rating input[name=rating]')`)
				d.press(input.ArrowRight, input.ArrowRight) // 1, then 3 stars
				d.press(input.Tab)
				d.typeText("short and sweet")
				d.press(input.Tab, input.Enter)
			},
			stars:   3,
			comment: "short and sweet",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowserEnv(t)
			poll := b.campaignID("demo", "Quick poll")
			api := b.member()
			p := b.signedInFeed(t, false)
			d := driver{t, p}
			b.startSurvey(t, p, poll)
			d.chooseAndNext("What do you usually drink first thing in the morning?", "water")
			d.waitText("You earned $0.50.")

			tc.rate(d)
			d.waitText("Thanks for your rating!")
			rating := decodeJSON[map[string]any](t, api.get("/api/v1/demo/campaigns/"+poll+"/rating"), http.StatusOK)
			assert.Equal(t, map[string]any{"rating": tc.stars, "comment": tc.comment}, rating, "stored, the comment trimmed")

			t.Run("and finds it on the thank-you page after a reload", func(t *testing.T) {
				p.MustReload().MustWaitLoad()
				p.MustElement(surveyIsland)
				d := driver{t, p}
				d.waitText("You earned $0.50.")
				// As the page without JavaScript shows it: the stars checked, the comment kept.
				stars := d.el(fmt.Sprintf(`.rating input[name=rating][value="%d"]`, int(tc.stars)))
				assert.True(t, stars.MustProperty("checked").Bool(), "%v stars", tc.stars)
				assert.Equal(t, tc.comment, d.el(".rating textarea").MustProperty("value").String())
			})
		})
	}
}

// A reload mid-way and a double click on the last Next are in survey_island_browser_test.go;
// these are the other ways of coming back to a question.
func TestInChromiumASurveyIsPaidExactlyOnceHoweverTheMemberComesAndGoes(t *testing.T) {
	t.Parallel()
	threeSteps := func(b *browserEnv) string {
		return b.importSurvey(t, "Three steps", "1.25", []campaigns.Question{
			choiceQuestion("colour", "Pick a colour", "red", "green"),
			choiceQuestion("fruit", "Pick a fruit", "apple", "pear"),
			choiceQuestion("pet", "Pick a pet", "dog", "cat"),
		})
	}
	for _, tc := range []struct {
		name    string
		journey func(t *testing.T, b *browserEnv, d driver, id string)
		want    map[string]string
	}{
		{
			name: "reloaded between questions, the member finishes where they left off",
			journey: func(t *testing.T, b *browserEnv, d driver, id string) {
				d.chooseAndNext("Pick a colour", "red")
				d.waitQuestion("Pick a fruit")
				d.p.MustReload().MustWaitLoad()
				d.p.MustElement(surveyIsland)
				d.chooseAndNext("Pick a fruit", "pear")
				d.chooseAndNext("Pick a pet", "cat")
				d.waitText("You earned $1.25.")
			},
			want: map[string]string{"colour": `"red"`, "fruit": `"pear"`, "pet": `"cat"`},
		},
		{
			name: "a double click on Next between questions skips none",
			journey: func(t *testing.T, b *browserEnv, d driver, id string) {
				d.waitQuestion("Pick a colour")
				click(d.label(`input[value=green]`))
				d.waitNext()
				d.el("button.sb-next").MustEval(`() => { this.click(); this.click() }`)
				d.waitQuestion("Pick a fruit")
				assert.True(t, d.el("button.sb-next").MustProperty("disabled").Bool(), "the new question waits for its own answer")
				assert.Equal(t, "33", *d.el("[role=progressbar]").MustAttribute("aria-valuenow"), "1 of 3 answered")
				d.chooseAndNext("Pick a fruit", "apple")
				d.chooseAndNext("Pick a pet", "dog")
				d.waitText("You earned $1.25.")
			},
			want: map[string]string{"colour": `"green"`, "fruit": `"apple"`, "pet": `"dog"`},
		},
		{
			name: "a second tab left on the last question shows the thank-you page when it answers late",
			journey: func(t *testing.T, b *browserEnv, d driver, id string) {
				d.chooseAndNext("Pick a colour", "red")
				d.chooseAndNext("Pick a fruit", "apple")
				d.waitQuestion("Pick a pet")

				// The same member, the same campaign, another tab.
				other := d.p.Browser().MustPage(b.url("localhost", "/survey/"+id)).Timeout(browserStep)
				t.Cleanup(func() { _ = other.Close() })
				other.MustWaitLoad().MustElement(surveyIsland)
				late := driver{t, other}
				late.waitQuestion("Pick a pet")

				d.p.MustActivate() // a background tab paints no frames: the mouse waits for them
				d.chooseAndNext("Pick a pet", "dog")
				d.waitText("You earned $1.25.")

				other.MustActivate()
				click(late.label(`input[value=cat]`))
				late.nextByMouse()
				late.p.MustWait(`() => { const h = document.querySelector('` + inBox + ` #sb-q'); return !!h && h.textContent === 'Thank you!' }`)
			},
			want: map[string]string{"colour": `"red"`, "fruit": `"apple"`, "pet": `"dog"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowserEnv(t)
			id := threeSteps(b)
			api := b.member()
			p := b.signedInFeed(t, false)
			b.startSurvey(t, p, id)
			tc.journey(t, b, driver{t, p}, id)

			stored := b.storedAnswers(t, id)
			require.Len(t, stored, len(tc.want))
			for q, want := range tc.want {
				assert.JSONEq(t, want, stored[q], q)
			}
			assert.Equal(t, "26.25", b.balanceOf(api))
			assert.Equal(t, int64(1), b.ledgerEntries(t, id), "paid once")
			p.MustReload().MustWaitLoad()
			assert.Equal(t, "$26.25", p.MustElement("[data-balance]").MustText())
		})
	}
}
