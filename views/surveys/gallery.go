package surveys

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the survey screen's states for the development gallery: the invitation card
// (open, a competition, each reason it cannot be taken, framed), the survey box with a question
// of every answer control (as the island draws it, and as the plain form without JavaScript),
// refused answers, every thank-you the box shows, the age block, the previews, and the framed
// screens (/embed/survey, the /embed/widget strip).
//
// The fixtures are built as modules/surveys builds them: SurveyProps as renderBox fills them
// (questionView, outcomeView) and the island's props as islandProps and toGoJSON do, so the
// island draws its first screen from its props alone, without asking the API.
func Gallery() []views.GalleryState {
	var out []views.GalleryState
	out = append(out, galleryInvitationStates()...)
	for _, q := range galleryQuestions() {
		out = append(out, galleryBoxState("control-"+q.slug, galleryRunAt(q), galleryScreen{}))
	}
	for _, q := range galleryQuestions() {
		st := galleryBoxState("fallback-"+q.slug, galleryRunAt(q), galleryScreen{noJS: true})
		out = append(out, st)
	}
	out = append(out, galleryQuestionStates()...)
	out = append(out, galleryOutcomeStates()...)
	out = append(out, galleryFramedStates()...)
	return out
}

// GalleryWalkStep is one step of an onboarding walk in the survey box, for the onboarding
// package's gallery: "first-question", "question", "question-error", "done" or "done-final".
// noJS leaves the island out (the plain forms alone).
func GalleryWalkStep(ctx context.Context, f views.Fixture, step string, noJS bool) SurveyProps {
	qs := galleryWalkQuestions()
	r := galleryRun{id: galleryWalkID, name: "About you", questions: 4, status: "started", footer: nil}
	switch step {
	case "first-question":
		r.q = &qs[0]
	case "question", "question-error":
		r.answered, r.q = 2, &qs[1]
		if step == "question-error" {
			r.formErr = func(ctx context.Context) string {
				return views.Tf(ctx, "error.answer_min_answers", map[string]any{"Min": 2})
			}
		}
	case "done", "done-final":
		r.answered, r.status = 4, "completed"
		r.thankYou = galleryThankYou{isFinalOnboarding: step == "done-final"}
	}
	label := views.T(ctx, "common.continue")
	if step == "done-final" {
		label = views.T(ctx, "error.default_button")
	}
	return galleryBox(ctx, f, r, galleryScreen{walk: true, walkLeaveLabel: label, noJS: noJS})
}

// galleryWalkID is the onboarding campaign's id in the walk's fixtures.
const galleryWalkID = "7b2e4f10-5c3a-4d8e-9f21-00000000a0b1"

// GalleryWalkID is the onboarding campaign of GalleryWalkStep (its page is /onboarding/campaigns/ID).
func GalleryWalkID() string { return galleryWalkID }

// galleryWalkQuestions are an onboarding campaign's profile questions.
func galleryWalkQuestions() []galleryQuestion {
	return []galleryQuestion{
		{id: "q-age", control: "radio", text: "How old are you?", answers: galleryOpts("Under 18", "18–24", "25–34", "35–44", "45–54", "55–64", "65 or over")},
		{id: "q-interests", control: "checkbox", text: "Which of these topics would you like surveys about?", descr: "Choose at least two.",
			minAnswers: galleryInt(2), answers: galleryOpts("Food and drink", "Travel and holidays", "Money and banking", "Technology and gadgets", "Health and fitness", "Cars and motoring", "Home and garden", "Entertainment, films, series and music streaming"),
			answer: []any{"o3"}},
	}
}

// galleryBoxState is a survey-box state: a member's page at path unless the screen says other.
func galleryBoxState(name string, r galleryRun, scr galleryScreen) views.GalleryState {
	st := views.GalleryState{
		Name: name, Path: scr.prefixOr() + "/" + r.id, Who: views.GalleryMember, Islands: []string{"survey-box"},
		View: func(ctx context.Context, f views.Fixture) templ.Component { return Survey(galleryBox(ctx, f, r, scr)) },
	}
	if scr.noJS {
		st.Islands = nil
	}
	switch {
	case scr.embed || scr.widget:
		st.Who = views.GalleryVisitor
		st.Page = func(p *views.Page) { p.Embedded = true }
	case scr.preview != "":
		st.Who = views.GalleryVisitor
		st.Path = "/survey/" + r.id + "/preview/en/1798761600/0f3a9c2b7d1e4a5b8c6d9e0f1a2b3c4d"
	}
	return st
}

// galleryInvitationStates are the invitation card before the member starts.
func galleryInvitationStates() []views.GalleryState {
	state := func(name string, embed bool, props func(ctx context.Context, f views.Fixture) InvitationProps) views.GalleryState {
		id := "2c9d7e1a-6b3f-4a8c-9d2e-000000000101"
		st := views.GalleryState{
			Name: name, Path: "/survey/" + id, Who: views.GalleryMember,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				p := props(ctx, f)
				p.GUID, p.Lang, p.Base, p.Embed = id, "en", "/survey/"+id, embed
				if embed {
					p.Base = "/embed/survey/" + id
				}
				return Invitation(p)
			},
		}
		if embed {
			st.Path, st.Who = "/embed/survey/"+id, views.GalleryVisitor
			st.Page = func(p *views.Page) { p.Embedded = true }
		}
		return st
	}
	basic := func(f views.Fixture) InvitationProps {
		return InvitationProps{Name: "Your weekly food shop", Description: "Where you shop, how often, and what you spend on groceries each week.",
			Reward: f.Money(150), Minutes: 8, Questions: 14}
	}
	unavailable := func(name, id string) views.GalleryState {
		return state(name, false, func(ctx context.Context, f views.Fixture) InvitationProps {
			p := basic(f)
			p.Unavailable = views.T(ctx, id)
			return p
		})
	}
	return []views.GalleryState{
		state("invitation", false, func(ctx context.Context, f views.Fixture) InvitationProps { return basic(f) }),
		state("invitation-long", false, func(ctx context.Context, f views.Fixture) InvitationProps {
			return InvitationProps{
				Name:        "Streaming, television and the evenings of households with more than one screen: a study in three parts",
				Description: "Which services you pay for, what you watch on which screen, who chooses what the household watches in the evening, and what would make you cancel one of them. Some questions ask you to think back over the last twelve months, so take your time.",
				Reward:      f.Money(123456), Minutes: 45, Questions: 60, FooterLinks: galleryFooterLinks(),
			}
		}),
		state("invitation-competition", false, func(ctx context.Context, f views.Fixture) InvitationProps {
			p := basic(f)
			p.Name, p.Description, p.Reward, p.Minutes, p.Questions = "Summer travel draw", "Answer five questions about your holiday plans and enter the draw for a weekend away for two.", f.Money(0), 3, 5
			// The handler writes the draw date as it is stored (surveyPage: DrawAt.Format("2006-01-02")).
			p.Prize, p.DrawDate = "A weekend for two in Lisbon, flights and hotel included", galleryDrawAt(f).Format("2006-01-02")
			return p
		}),
		state("invitation-one-question", false, func(ctx context.Context, f views.Fixture) InvitationProps {
			return InvitationProps{Name: "Tea or coffee?", Reward: f.Money(5), Minutes: 1, Questions: 1}
		}),
		unavailable("invitation-already-taken", "survey.unavailable_completed"),
		unavailable("invitation-screened-out", "survey.unavailable_screened"),
		unavailable("invitation-closed", "survey.unavailable_expired"),
		unavailable("invitation-quota-full", "survey.unavailable_quota_full"),
		unavailable("invitation-not-available", "survey.unavailable"),
		state("invitation-embed", true, func(ctx context.Context, f views.Fixture) InvitationProps {
			p := basic(f)
			p.FooterLinks = galleryFooterLinks()[:2]
			return p
		}),
	}
}

// galleryQuestionStates are questions beyond one per control: rich content, footer links, the
// second survey theme, and answers the server refused (the plain form shows why; the island
// only learns of a refusal from its own answers, so these are the page without JavaScript).
func galleryQuestionStates() []views.GalleryState {
	qs := map[string]galleryQuestion{}
	for _, q := range galleryQuestions() {
		qs[q.slug] = q
	}
	rich := galleryQuestion{slug: "rich", id: "q-concept", control: "radio",
		text:    "Look at this new snack bar. How likely would you be to buy it?",
		descr:   "Think about your usual weekly shop.",
		html:    "<p>The <strong>Crunch &amp; Go</strong> bar has 30% less sugar and comes in packs of four. It would cost about the same as the bars you buy now.</p>",
		image:   &galleryImage{url: "/static/img/demo/snack-bar-concept.svg", alt: "A snack bar in a green wrapper"},
		answers: galleryOpts("Definitely would buy", "Probably would buy", "Might or might not buy", "Probably would not buy", "Definitely would not buy")}
	withErr := func(name, slug string, answered int, answer any, msg func(ctx context.Context) string) views.GalleryState {
		q := qs[slug]
		q.answer = answer
		r := galleryRun{id: "9e4b1c7d-2a5f-4e8b-8c3d-0000000003" + fmt.Sprintf("%02d", answered), name: "Home broadband and mobile",
			questions: 12, answered: answered, status: "started", q: &q, formErr: msg}
		return galleryBoxState(name, r, galleryScreen{noJS: true})
	}
	first, last := qs["radio"], qs["textarea"]
	return []views.GalleryState{
		galleryBoxState("question-rich", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000201", name: "Snack bar concept test",
			questions: 6, answered: 2, status: "started", q: &rich}, galleryScreen{}),
		galleryBoxState("fallback-question-rich", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000201", name: "Snack bar concept test",
			questions: 6, answered: 2, status: "started", q: &rich}, galleryScreen{noJS: true}),
		galleryBoxState("first-question", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000202", name: "Your weekly food shop",
			questions: 14, answered: 0, status: "started", q: &first}, galleryScreen{}),
		galleryBoxState("last-question", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000203", name: "Your weekly food shop",
			questions: 14, answered: 13, status: "started", q: &last}, galleryScreen{}),
		galleryBoxState("footer-links", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000204", name: "Your weekly food shop",
			questions: 14, answered: 5, status: "started", q: &first, footer: galleryFooterLinks()}, galleryScreen{}),
		galleryBoxState("theme-2", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000205", name: "Snack bar concept test",
			questions: 6, answered: 3, status: "started", q: &rich, theme: 2}, galleryScreen{}),
		galleryBoxState("fallback-theme-2", galleryRun{id: "4d8a2f6e-1b7c-4e9d-a3f5-000000000205", name: "Snack bar concept test",
			questions: 6, answered: 3, status: "started", q: &rich, theme: 2}, galleryScreen{noJS: true}),
		withErr("error-required", "radio", 1, nil, func(ctx context.Context) string { return views.T(ctx, "error.answer_option") }),
		withErr("error-min-chars", "textarea", 4, "Too slow.", func(ctx context.Context) string {
			return views.Tf(ctx, "error.answer_min_chars", map[string]any{"Min": 20})
		}),
		withErr("error-max-num", "number", 5, "45", func(ctx context.Context) string {
			return views.Tf(ctx, "error.answer_max_num", map[string]any{"Max": 20})
		}),
		withErr("error-grid-rows", "grid", 6, map[string]any{"r1": "c4", "r2": "c5", "r4": "c2"}, func(ctx context.Context) string {
			return views.T(ctx, "error.answer_grid_rows")
		}),
		withErr("error-most-least", "most-least", 7, map[string]any{"most": "o2", "least": "o2"}, func(ctx context.Context) string {
			return views.T(ctx, "error.answer_most_least")
		}),
		withErr("error-max-answers", "checkbox", 8, []any{"o1", "o2", "o3", "o4"}, func(ctx context.Context) string {
			return views.Tf(ctx, "error.answer_max_answers", map[string]any{"Max": 3})
		}),
		withErr("error-period", "spend", 9, map[string]any{"amount": float64(35)}, func(ctx context.Context) string {
			return views.T(ctx, "error.answer_period")
		}),
		withErr("error-location", "location", 10, map[string]any{"postcode": "ZZ9 9ZZ"}, func(ctx context.Context) string {
			return views.T(ctx, "error.answer_location")
		}),
	}
}

// galleryOutcomeStates are the thank-you pages: every status the box names, the campaign's own
// texts and continue address, the rating, the competition invitation in each of its states,
// and the age block.
func galleryOutcomeStates() []views.GalleryState {
	n := 0
	run := func(status string, reward int64, ty galleryThankYou) galleryRun {
		n++
		return galleryRun{id: fmt.Sprintf("6a1f3d9b-4c2e-4b7a-8e5d-0000000004%02d", n), name: "Your weekly food shop", questions: 14,
			answered: 14, status: status, rewardMinor: reward, thankYou: ty}
	}
	custom := galleryThankYou{title: "Thanks, that's everything!",
		message:       "Your answers help the shops in your area plan their deliveries. We'll let you know when the results are published.",
		completionURL: "https://www.example-research.com/complete?rid=8f2a91c4&status=1"}
	rated := run("completed", 150, galleryThankYou{})
	rated.rating, rated.comment = 4, "Clear questions, but the one about weekly spend was hard to answer."
	competition := func(decision string, closed bool) galleryRun {
		r := run("completed", 0, galleryThankYou{kind: "competition_invitation"})
		r.name = "Summer travel draw"
		r.competition = &galleryCompetition{decision: decision, closed: closed}
		return r
	}
	blocked := galleryRun{id: "6a1f3d9b-4c2e-4b7a-8e5d-000000000499", name: "Wine and spirits: your buying habits", questions: 10, status: "new", action: "dobblk"}
	invitationScreened := run("screened", 0, galleryThankYou{kind: "competition_invitation"})
	invitationScreened.name = "Summer travel draw"
	return []views.GalleryState{
		galleryBoxState("outcome-completed", run("completed", 150, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("fallback-outcome-completed", run("completed", 150, galleryThankYou{}), galleryScreen{noJS: true}),
		galleryBoxState("outcome-completed-large-reward", run("completed", 9876543, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("outcome-completed-no-reward", run("completed", 0, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("outcome-completed-rated", rated, galleryScreen{}),
		galleryBoxState("fallback-outcome-completed-rated", rated, galleryScreen{noJS: true}),
		galleryBoxState("outcome-completed-custom", run("completed", 150, custom), galleryScreen{}),
		galleryBoxState("outcome-completed-new-tab", run("completed", 150, galleryThankYou{redirectURL: "https://www.example-research.com/thank-you?panel=canvass&id=8f2a91c4", newTab: true}), galleryScreen{}),
		galleryBoxState("outcome-screened", run("screened", 0, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("fallback-outcome-screened", run("screened", 0, galleryThankYou{}), galleryScreen{noJS: true}),
		galleryBoxState("outcome-quota-full", run("quota_full", 0, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("outcome-disqualified", run("disqualified", 0, custom), galleryScreen{}),
		galleryBoxState("outcome-closed", run("expired", 0, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("outcome-other", run("suppressed", 0, galleryThankYou{}), galleryScreen{}),
		galleryBoxState("competition-invitation", competition("", false), galleryScreen{}),
		galleryBoxState("fallback-competition-invitation", competition("", false), galleryScreen{noJS: true}),
		galleryBoxState("competition-entered", competition("entered", false), galleryScreen{}),
		galleryBoxState("competition-rejected", competition("rejected", false), galleryScreen{}),
		galleryBoxState("fallback-competition-rejected", competition("rejected", false), galleryScreen{noJS: true}),
		galleryBoxState("competition-closed", competition("", true), galleryScreen{}),
		galleryBoxState("competition-invitation-screened", invitationScreened, galleryScreen{}),
		galleryBoxState("blocked-age", blocked, galleryScreen{}),
		galleryBoxState("fallback-blocked-age", blocked, galleryScreen{noJS: true}),
	}
}

// galleryFramedStates are the previews and the screens other sites frame.
func galleryFramedStates() []views.GalleryState {
	qs := map[string]galleryQuestion{}
	for _, q := range galleryQuestions() {
		qs[q.slug] = q
	}
	radio, grid, nps := qs["radio"], qs["grid"], qs["nps"]
	started := func(id string, q *galleryQuestion, questions, answered int) galleryRun {
		return galleryRun{id: id, name: "Your weekly food shop", questions: questions, answered: answered, status: "started", q: q}
	}
	done := galleryRun{id: "8c5e2b7f-3d1a-4f6c-b9e4-000000000503", name: "Your weekly food shop", questions: 14, answered: 14, status: "completed", rewardMinor: 150,
		thankYou: galleryThankYou{completionURL: "https://www.example-research.com/complete?rid=8f2a91c4"}}
	one := started("8c5e2b7f-3d1a-4f6c-b9e4-000000000505", &nps, 1, 0)
	one.name = "Tea or coffee?"
	widgetDone := done
	widgetDone.id, widgetDone.name, widgetDone.questions, widgetDone.answered, widgetDone.rewardMinor = one.id, one.name, 1, 1, 5
	return []views.GalleryState{
		galleryBoxState("preview-campaign", started("8c5e2b7f-3d1a-4f6c-b9e4-000000000501", &radio, 14, 0), galleryScreen{preview: "campaign-preview"}),
		galleryBoxState("fallback-preview-campaign", started("8c5e2b7f-3d1a-4f6c-b9e4-000000000501", &radio, 14, 0), galleryScreen{preview: "campaign-preview", noJS: true}),
		galleryBoxState("preview-question", started("8c5e2b7f-3d1a-4f6c-b9e4-000000000501", &grid, 14, 0), galleryScreen{preview: "preview-question"}),
		galleryBoxState("embed-question", started("8c5e2b7f-3d1a-4f6c-b9e4-000000000502", &radio, 14, 3), galleryScreen{prefix: "/embed/survey", embed: true}),
		galleryBoxState("embed-grid", started("8c5e2b7f-3d1a-4f6c-b9e4-000000000502", &grid, 14, 6), galleryScreen{prefix: "/embed/survey", embed: true}),
		galleryBoxState("fallback-embed-question", started("8c5e2b7f-3d1a-4f6c-b9e4-000000000502", &radio, 14, 3), galleryScreen{prefix: "/embed/survey", embed: true, noJS: true}),
		galleryBoxState("embed-outcome-completed", done, galleryScreen{prefix: "/embed/survey", embed: true}),
		galleryBoxState("widget-question", one, galleryScreen{prefix: "/embed/widget", embed: true, widget: true}),
		galleryBoxState("fallback-widget-question", one, galleryScreen{prefix: "/embed/widget", embed: true, widget: true, noJS: true}),
		galleryBoxState("widget-outcome-completed", widgetDone, galleryScreen{prefix: "/embed/widget", embed: true, widget: true}),
	}
}

// galleryQuestions are one question of every answer control the box has (islands/survey-box/
// controls.ts), as campaigns ask them, some with an answer already given.
func galleryQuestions() []galleryQuestion {
	likert := galleryOpts("Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree", "Strongly agree")
	smiley := galleryOpts("Very unhappy", "Unhappy", "Neither happy nor unhappy", "Happy", "Very happy")
	for i := range likert {
		likert[i].value, smiley[i].value = galleryNum(float64(i+1)), galleryNum(float64(i+1))
	}
	checkbox := galleryOpts("Films and series streaming", "Music streaming", "Sports channels", "Video games subscription",
		"Audiobooks and podcasts", "News or magazine subscription", "None of these")
	checkbox[len(checkbox)-1].exclusive = true
	images := func(alts ...string) []galleryOpt {
		out := make([]galleryOpt, 0, len(alts))
		for i, a := range alts {
			name, text, _ := strings.Cut(a, "|")
			out = append(out, galleryOpt{id: "o" + strconv.Itoa(i+1), text: text, image: &galleryImage{url: "/static/img/demo/" + name + ".svg"}})
		}
		return out
	}
	return []galleryQuestion{
		{slug: "text", id: "q-shop", control: "text", text: "What is the name of the shop where you buy most of your groceries?", maxChars: galleryInt(80)},
		{slug: "textarea", id: "q-delivery", control: "textarea", text: "Tell us about the last time a delivery went wrong. What happened, and how was it put right?",
			descr: "A few sentences are enough.", minChars: galleryInt(20), maxChars: galleryInt(1000),
			answer: "The parcel was left with a neighbour I have never met, and the tracking said it had been handed to me in person."},
		{slug: "date", id: "q-travel", control: "date", text: "When did you last travel abroad?"},
		{slug: "number", id: "q-household", control: "number", text: "How many people live in your household, including you?",
			minNum: galleryNum(1), maxNum: galleryNum(20), step: galleryNum(1)},
		{slug: "slider", id: "q-online", control: "slider", text: "How much of your weekly food shopping do you do online?",
			minNum: galleryNum(0), maxNum: galleryNum(100), step: galleryNum(5), scaleLabels: map[string]string{"min": "None of it", "max": "All of it"}, answer: float64(35)},
		{slug: "stepper", id: "q-coffee", control: "stepper", text: "How many cups of coffee do you drink on a typical working day?",
			minNum: galleryNum(0), maxNum: galleryNum(15), step: galleryNum(1), answer: float64(2)},
		{slug: "nps", id: "q-nps", control: "nps", text: "How likely are you to recommend Northwind Energy to a friend or colleague?",
			scaleLabels: map[string]string{"min": "Not at all likely", "max": "Extremely likely"}},
		{slug: "likert", id: "q-checkout", control: "likert", text: "“The checkout was quick and easy.” How much do you agree?", scaleAnswers: likert, answer: float64(4)},
		{slug: "star", id: "q-service", control: "star", text: "How would you rate the customer service you received?", maxNum: galleryNum(5)},
		{slug: "smiley", id: "q-visit", control: "smiley", text: "How did you feel about your last visit to our store?", scaleAnswers: smiley},
		{slug: "click-bar", id: "q-tired", control: "click_bar", text: "On a scale of 1 to 10, how tired do you feel at the end of a working day?",
			minNum: galleryNum(1), maxNum: galleryNum(10), step: galleryNum(1), scaleLabels: map[string]string{"min": "Not tired at all", "max": "Exhausted"}, answer: float64(7)},
		{slug: "radio", id: "q-work", control: "radio", text: "Which of these best describes your current employment?",
			answers: galleryOpts("Employed full-time (30 hours a week or more)", "Employed part-time",
				"Self-employed or freelance, including gig work through apps such as food delivery, ride-hailing or online marketplaces where you are paid per task",
				"Student", "Retired", "Not currently working")},
		{slug: "dropdown", id: "q-region", control: "dropdown", text: "Which region do you live in?",
			answers: galleryOpts("North East", "North West", "Yorkshire and the Humber", "East Midlands", "West Midlands", "East of England",
				"London", "South East", "South West", "Wales", "Scotland", "Northern Ireland"), answer: "o7"},
		{slug: "like-dislike", id: "q-pack", control: "like_dislike", text: "Do you like this new packaging design?",
			image:   &galleryImage{url: "/static/img/demo/pack-bold.svg", alt: "A cereal box with a bold red and yellow design"},
			answers: galleryOpts("I like it", "I don't like it")},
		{slug: "image-select", id: "q-trip", control: "image_select", text: "Which of these short breaks would you choose?",
			answers: images("trip-beach|A beach by the sea", "trip-city|A city with museums and restaurants", "trip-mountains|Walking in the mountains")},
		{slug: "checkbox", id: "q-subs", control: "checkbox", text: "Which of these subscriptions does your household pay for?",
			descr: "Choose up to three.", maxAnswers: galleryInt(3), answers: checkbox, answer: []any{"o1", "o3"}},
		{slug: "multi-image", id: "q-pets", control: "multi_image", text: "Which of these pets have you ever owned?",
			answers: images("pet-cat|Cat", "pet-dog|Dog", "pet-bird|Bird", "pet-fish|Fish", "pet-rabbit|Rabbit"), answer: []any{"o1", "o4"}},
		{slug: "ranking", id: "q-phone", control: "ranking", text: "Rank these by how much they matter when you choose a phone contract, most important first.",
			answers: galleryOpts("Monthly price", "Data allowance", "Network coverage where I live", "Length of contract", "Customer service")},
		{slug: "most-least", id: "q-supermarket", control: "most_least", text: "Which of these matters most, and which least, when you choose a supermarket?",
			answers: galleryOpts("Low prices", "Distance from home", "Range of fresh food", "Opening hours", "Loyalty scheme and personalised offers")},
		{slug: "grid", id: "q-broadband", control: "grid", text: "How satisfied are you with each part of your broadband service?",
			rows:    galleryRows("Download speed", "Reliability in the evenings", "Monthly price", "Customer support", "Installation"),
			columns: galleryCols("Very dissatisfied", "Dissatisfied", "Neither", "Satisfied", "Very satisfied"),
			answer:  map[string]any{"r1": "c4", "r2": "c2"}},
		{slug: "grid-multi", id: "q-devices", control: "grid", text: "Which devices do you use for each of these?", descr: "Choose all that apply in each row.",
			multiple: true,
			rows:     galleryRows("Watching films and series", "Video calls", "Online banking", "Shopping", "Reading the news"),
			columns:  galleryCols("Phone", "Tablet", "Laptop", "Desktop computer", "Smart TV"),
			answer:   map[string]any{"r1": []any{"c2", "c5"}, "r3": []any{"c1"}}},
		{slug: "spend", id: "q-takeaway", control: "spend", text: "How much do you spend on takeaway food?",
			spendMin: galleryNum(0), spendMax: galleryNum(1000), spendPeriod: []string{"week", "month"}},
		{slug: "frequency", id: "q-gym", control: "frequency", text: "How often do you go to a gym or a fitness class?",
			freqMin: galleryInt(0), freqMax: galleryInt(31), freqPeriod: []string{"week", "month", "year"}, answer: map[string]any{"count": float64(3), "period": "week"}},
		{slug: "location", id: "q-postcode", control: "location", text: "What is the postcode of your home?", descr: "We use it to send you surveys about your area."},
		{slug: "video", id: "q-advert", control: "video", text: "Please watch this 30-second advert, then tell us what you remember about it.", videoID: "aqz-KE-bpKQ"},
	}
}

// galleryRunAt is a run at a question of the controls' campaign: a different point of the
// progress bar for each.
func galleryRunAt(q galleryQuestion) galleryRun {
	var sum int
	for _, c := range q.slug {
		sum += int(c)
	}
	return galleryRun{id: "1f7a3c5e-9b2d-4e6f-8a1c-0000000" + fmt.Sprintf("%05d", sum), name: "Home, shopping and leisure: a survey about your week",
		questions: 25, answered: sum % 25, status: "started", q: &q}
}

// galleryFooterLinks are a campaign's footer links, as many as the box shows.
func galleryFooterLinks() []FooterLink {
	return []FooterLink{
		{Label: "Questions?", Text: "Contact the research team", URL: "https://www.example-research.com/contact"},
		{Text: "Privacy notice", URL: "https://www.example-research.com/privacy"},
		{Label: "Run by", Text: "Example Research & Consumer Insights International Ltd", URL: "https://www.example-research.com/"},
		{Text: "Terms", URL: "https://www.example-research.com/terms"},
	}
}

// galleryDrawAt is the fixtures' competition draw: a month after the fixtures' clock.
func galleryDrawAt(f views.Fixture) time.Time {
	return time.Date(f.Now.Year(), f.Now.Month()+1, 15, 18, 0, 0, 0, time.UTC)
}

// The fixtures' campaign content: a question (campaigns.Question in the member's language),
// a run at it (surveys.GoResult) and the screen it is shown on.

type galleryImage struct{ url, alt string }

type galleryOpt struct {
	id, text  string
	image     *galleryImage
	value     *float64
	exclusive bool
}

type galleryQuestion struct {
	slug                                       string // the state's name
	id, control, text, descr, html, videoID    string
	image                                      *galleryImage
	answers, rows, columns, scaleAnswers       []galleryOpt
	multiple                                   bool
	minChars, maxChars, minAnswers, maxAnswers *int
	minNum, maxNum, step, spendMin, spendMax   *float64
	freqMin, freqMax                           *int
	spendPeriod, freqPeriod                    []string
	scaleLabels                                map[string]string
	answer                                     any // the answer so far, as decoded from JSON
}

type galleryThankYou struct {
	kind, title, message, completionURL, redirectURL string
	newTab, isFinalOnboarding                        bool
}

type galleryCompetition struct {
	decision string
	closed   bool
}

type galleryRun struct {
	id, name            string
	questions, answered int
	status, action      string
	q                   *galleryQuestion
	rewardMinor         int64
	thankYou            galleryThankYou
	competition         *galleryCompetition
	footer              []FooterLink
	rating              int
	comment             string
	theme               int
	formErr             func(ctx context.Context) string // a refused plain-form answer
}

type galleryScreen struct {
	prefix         string // "/survey" unless framed
	embed, widget  bool
	preview        string // "campaign-preview" or "preview-question"
	walk           bool   // an onboarding walk (modules/onboarding renderBox)
	walkLeaveLabel string
	noJS           bool // the plain box, without the island
}

func (s galleryScreen) prefixOr() string {
	switch {
	case s.walk:
		return "/onboarding/campaigns"
	case s.prefix != "":
		return s.prefix
	}
	return "/survey"
}

var galleryTerminal = map[string]bool{"completed": true, "screened": true, "quota_full": true, "qualified": true, "disqualified": true,
	"skipped": true, "unavailable": true, "expired": true, "suppressed": true}

// galleryBox is renderBox of modules/surveys for a fixture run.
func galleryBox(ctx context.Context, f views.Fixture, r galleryRun, scr galleryScreen) SurveyProps {
	terminal := galleryTerminal[r.status]
	percent := 100
	if !terminal && r.questions > 0 {
		percent = r.answered * 100 / r.questions
	}
	base := scr.prefixOr() + "/" + r.id
	p := SurveyProps{
		GUID: r.id, Name: r.name, Lang: "en", Percent: percent, ThemeCSS: galleryThemeCSS(r.theme), Base: base, Embed: scr.embed, Widget: scr.widget,
		Submit: scr.widget && r.questions == 1, BackHref: base + "/leave", BackLabel: views.T(ctx, "error.default_button"), FooterLinks: r.footer,
	}
	if r.action == "dobblk" {
		p.Blocked = views.Tf(ctx, "survey.blocked", map[string]any{"Age": 18})
	}
	if r.formErr != nil {
		p.Error = r.formErr(ctx)
	}
	p.Island = map[string]any{
		"apiBase": "/api/v1/" + f.Panel + "/campaigns/" + r.id, "go": galleryGo(f, r, percent),
		"lang": f.Lang, "labels": galleryLabels(ctx), "instanceKey": "gallery-" + f.Panel,
	}
	if scr.embed || scr.widget {
		p.Island["embed"], p.Island["widget"] = scr.embed, scr.widget
	}
	p.Island["leave"] = map[string]string{"href": p.BackHref, "label": p.BackLabel}
	if p.Blocked != "" {
		p.Island["blocked"] = p.Blocked
	}
	if scr.walk {
		// WalkBox.adjust: the keeper's addresses, no rating, no balance.
		p.BackHref, p.BackLabel = "/", scr.walkLeaveLabel
		p.Island["apiBase"] = "/panel/" + f.Panel + "/onboarding/campaigns/" + r.id
		p.Island["leave"] = map[string]string{"href": p.BackHref, "label": p.BackLabel}
		p.Island["walk"] = true
	}
	if scr.preview != "" {
		p.Island["previewMode"], p.Island["apiBase"], p.Island["lang"] = scr.preview, "/survey/"+r.id+"/preview/en/1798761600/0f3a9c2b7d1e4a5b8c6d9e0f1a2b3c4d", f.Lang
		p.Preview = true
	}
	switch {
	case r.q != nil:
		p.Question = r.q.view(ctx)
	case terminal:
		p.Outcome = galleryOutcome(ctx, f, r, !scr.walk)
		if p.Outcome.Rating > 0 && scr.preview == "" {
			p.Island["rating"] = map[string]any{"rating": p.Outcome.Rating, "comment": p.Outcome.Comment}
		}
	}
	if scr.noJS {
		p.Island = nil
	}
	return p
}

// galleryOutcome is outcomeView of modules/surveys.
func galleryOutcome(ctx context.Context, f views.Fixture, r galleryRun, rate bool) *OutcomeView {
	ty := r.thankYou
	o := &OutcomeView{Status: r.status, Title: ty.title, Message: ty.message, OpenInNewTab: ty.newTab, CanRate: rate}
	if o.Title == "" {
		key := "other"
		switch r.status {
		case "completed", "screened", "quota_full", "disqualified", "expired":
			key = r.status
		}
		o.Title = views.T(ctx, "survey.outcome_"+key)
	}
	if r.status == "completed" && r.rewardMinor > 0 {
		o.Payout = f.Money(r.rewardMinor)
	}
	if r.status != "disqualified" {
		o.ContinueURL = ty.completionURL
		if o.ContinueURL == "" {
			o.ContinueURL = ty.redirectURL
		}
	}
	o.Invitation = ty.kind == "competition_invitation"
	if c := r.competition; c != nil && r.status == "completed" {
		o.Competition = &CompetitionView{ID: galleryCompetitionID, Prize: galleryPrize, Terms: galleryTerms, Closed: c.closed,
			DrawDate: f.Date(galleryDrawAt(f), false), Decision: c.decision}
	}
	if rate {
		o.Rating, o.Comment = r.rating, r.comment
	}
	return o
}

const (
	galleryCompetitionID = "c0a8e4f2-7d3b-4e1a-9c5f-000000000601"
	galleryPrize         = "A weekend for two in Lisbon, flights and hotel included"
	galleryTerms         = "Open to members aged 18 or over who complete the survey before the draw. One entry per member. The winner is drawn at random and contacted by email within 7 days; if they do not reply within 14 days another winner is drawn. No cash alternative."
)

// galleryGo is toGoJSON of modules/surveys: the go result the island starts from.
func galleryGo(f views.Fixture, r galleryRun, percent int) map[string]any {
	links := make([]map[string]string, 0, len(r.footer))
	for _, l := range r.footer {
		links = append(links, map[string]string{"label": l.Label, "text": l.Text, "url": l.URL})
	}
	out := map[string]any{
		"campaign_status": r.status, "thank_you": nil, "action": nil, "question": nil,
		"progress": map[string]any{"answered": r.answered, "questions": r.questions, "total": percent},
		"campaign": map[string]any{
			"guid": r.id, "name": r.name, "is_welcome": false, "is_competition": r.competition != nil,
			"invitation": map[string]any{"name": r.name, "questionsLength": r.questions},
			"reward":     galleryMoneyString(r.rewardMinor, f.Currency), "currency_code": f.Currency, "footer_links": links,
		},
	}
	if r.q != nil {
		out["question"] = r.q.json()
	}
	if r.action != "" {
		out["action"] = map[string]any{"type": r.action}
	}
	if galleryTerminal[r.status] {
		ty := r.thankYou
		t := map[string]any{"open_in_new_tab": ty.newTab, "is_final_onboarding_campaign": ty.isFinalOnboarding, "is_welcome": false}
		galleryPut(t, "kind", ty.kind)
		galleryPut(t, "title", ty.title)
		galleryPut(t, "message", ty.message)
		if r.status != "disqualified" {
			galleryPut(t, "completion_url", ty.completionURL)
			galleryPut(t, "redirect_url", ty.redirectURL)
		}
		if r.status == "completed" && r.rewardMinor > 0 {
			t["payout"], t["currency_code"] = galleryMoneyString(r.rewardMinor, f.Currency), f.Currency
		}
		if c := r.competition; c != nil && r.status == "completed" {
			var decision any
			if c.decision != "" {
				decision = c.decision
			}
			t["competition"] = map[string]any{"uuid": galleryCompetitionID, "prize": galleryPrize, "winners": 1,
				"draw_at": galleryDrawAt(f).Format(time.RFC3339), "terms": galleryTerms, "decision": decision, "closed": c.closed}
		}
		out["thank_you"] = t
	}
	return out
}

func galleryPut(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

// galleryMoneyString is web.MoneyString: minor units as a plain decimal ("1.50").
func galleryMoneyString(minor int64, currency string) string {
	dec := 2
	switch strings.ToUpper(currency) {
	case "JPY", "KRW", "CLP", "ISK", "VND":
		dec = 0
	case "BHD", "KWD", "OMR", "TND":
		dec = 3
	}
	s := strconv.FormatInt(minor, 10)
	if dec == 0 {
		return s
	}
	for len(s) <= dec {
		s = "0" + s
	}
	return s[:len(s)-dec] + "." + s[len(s)-dec:]
}

// galleryLabelKeys are surveyLabelKeys of modules/surveys: the texts the island and its controls show.
var galleryLabelKeys = []string{
	"survey.next", "survey.progress", "survey.submit", "survey.percent_complete", "survey.preview_only", "survey.back", "survey.restart",
	"survey.close_preview", "survey.go_to_homepage", "survey.continue_website", "survey.open_new_tab", "error.default_button", "embed.close",
	"survey.payout", "survey.rate", "survey.comment", "survey.send_rating", "survey.rating_saved", "survey.control_failed",
	"survey.retry", "survey.balance", "survey.outcome_completed", "survey.outcome_screened", "survey.outcome_quota_full",
	"survey.outcome_disqualified", "survey.outcome_expired", "survey.outcome_other", "survey.choose", "survey.most",
	"survey.least", "survey.postcode", "survey.watched", "survey.move_up", "survey.move_down", "survey.keep_order",
	"survey.per_day", "survey.per_week", "survey.per_month", "survey.per_year", "survey.amount", "survey.how_often",
	"survey.characters_left", "survey.decrease", "survey.increase", "survey.like", "survey.dislike", "common.loading",
	"survey.rank", "survey.period", "survey.competition_title", "survey.competition_prize", "survey.competition_draw",
	"survey.competition_terms", "survey.competition_enter", "survey.competition_reject", "survey.competition_entered",
	"survey.competition_rejected", "survey.competition_change", "survey.competition_closed",
}

// galleryLabels are the island's labels as islandProps gives them: placeholders left as {Name}
// for the script to fill (Locales.ClientTemplate), and the star counts.
func galleryLabels(ctx context.Context) map[string]string {
	out := make(map[string]string, len(galleryLabelKeys)+5)
	for _, k := range galleryLabelKeys {
		data := map[string]any{}
		for _, name := range []string{"Percent", "Amount", "Count", "Date", "Prize", "Age"} {
			data[name] = "{" + name + "}"
		}
		out[k] = views.Tf(ctx, k, data)
	}
	for n := 1; n <= 5; n++ {
		out["survey.stars."+strconv.Itoa(n)] = views.Tn(ctx, "survey.stars", n, nil)
	}
	return out
}

// galleryThemeCSS is SurveyTheme.CSS of modules/surveys for theme1 (the default) or theme2.
func galleryThemeCSS(theme int) string {
	styles := map[string]string{
		"header_background": "var(--color-background, #fff)", "header_text_color": "var(--color-primary-ink, #475369)",
		"progress_bar_color": "var(--color-cta-ui, #009D93)", "progress_track_color": "#e3e6ea",
		"footer_background": "var(--color-background, #fff)", "button_color": "var(--color-cta, #1AC0B4)",
		"button_text_color": "var(--color-cta-contrast, #fff)", "answer_border_color": "#868e99",
		"answer_selected_color": "var(--color-cta-ui, #009D93)", "answer_text_color": "var(--color-text-ink, #444)",
		"question_font_weight": "700", "answer_font_weight": "400", "title_font_weight": "600",
	}
	if theme == 2 {
		styles = map[string]string{
			"header_background": "var(--color-primary, #475369)", "header_text_color": "var(--color-header-contrast, #fff)",
			"progress_bar_color": "var(--color-highlight, #4169e1)", "progress_track_color": "rgba(0,0,0,.12)",
			"footer_background": "#f4f5f7", "button_color": "var(--color-primary, #475369)",
			"button_text_color": "var(--color-header-contrast, #fff)", "answer_border_color": "var(--color-primary-ink, #475369)",
			"answer_selected_color": "var(--color-highlight, #4169e1)", "answer_text_color": "var(--color-text-ink, #444)",
			"question_font_weight": "800", "answer_font_weight": "600", "title_font_weight": "700",
		}
	}
	keys := make([]string, 0, len(styles))
	for k := range styles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(".survey-box{")
	for _, k := range keys {
		fmt.Fprintf(&b, "--survey-%s:%s;", strings.ReplaceAll(k, "_", "-"), styles[k])
	}
	b.WriteString("}")
	return b.String()
}

// view is questionView of modules/surveys: the question as the plain form shows it.
func (q *galleryQuestion) view(ctx context.Context) *QuestionView {
	v := &QuestionView{
		ID: q.id, Control: q.control, Text: q.text, Descr: q.descr, HTML: q.html,
		Min: galleryFmt(q.minNum), Max: galleryFmt(q.maxNum), Step: galleryFmt(q.step), Multiple: q.multiple,
		Chosen: map[string]bool{}, Grid: map[string]map[string]bool{}, Rank: map[string]string{},
		LowLabel: q.scaleLabels["min"], HighLabel: q.scaleLabels["max"],
	}
	if q.maxChars != nil {
		v.MaxChars = *q.maxChars
	}
	if q.image != nil {
		v.ImageURL, v.ImageAlt = q.image.url, q.image.alt
	}
	if q.videoID != "" {
		v.VideoURL = "https://www.youtube-nocookie.com/embed/" + q.videoID
	}
	opt := func(list []galleryOpt) []OptionView {
		out := make([]OptionView, 0, len(list))
		for _, o := range list {
			ov := OptionView{ID: o.id, Text: o.text}
			if o.image != nil {
				ov.ImageURL = o.image.url
			}
			out = append(out, ov)
		}
		return out
	}
	v.Options, v.Rows, v.Columns = opt(q.answers), opt(q.rows), opt(q.columns)
	points := func(lo, hi, step float64) {
		v.Options = nil
		for x := lo; x <= hi+1e-9 && len(v.Options) < 101; x += step {
			s := strconv.FormatFloat(x, 'f', -1, 64)
			v.Options = append(v.Options, OptionView{ID: s, Text: s})
		}
	}
	or := func(p *float64, def float64) float64 {
		if p == nil {
			return def
		}
		return *p
	}
	switch q.control {
	case "nps":
		points(0, 10, 1)
	case "star":
		points(1, or(q.maxNum, 5), 1)
		for i := range v.Options {
			v.Options[i].Text = views.Tn(ctx, "survey.stars", i+1, nil)
		}
	case "click_bar":
		step := or(q.step, 1)
		if step <= 0 {
			step = 1
		}
		points(or(q.minNum, 1), or(q.maxNum, 10), step)
	case "likert", "smiley":
		v.Options = nil
		for i, o := range q.scaleAnswers {
			s := strconv.FormatFloat(or(o.value, float64(i+1)), 'f', -1, 64)
			v.Options = append(v.Options, OptionView{ID: s, Text: o.text})
		}
	case "spend", "frequency":
		periods := q.spendPeriod
		if q.control == "frequency" {
			periods = q.freqPeriod
			v.Min, v.Max = galleryIntStr(q.freqMin), galleryIntStr(q.freqMax)
		} else {
			v.Min, v.Max = galleryFmt(q.spendMin), galleryFmt(q.spendMax)
		}
		if len(periods) == 0 {
			periods = []string{"day", "week", "month", "year"}
		}
		for _, p := range periods {
			v.Periods = append(v.Periods, OptionView{ID: p, Text: views.T(ctx, "survey.per_"+p)})
		}
	}
	v.Fill(q.answer)
	return v
}

// json is toQuestionJSON of modules/surveys: the question as the island gets it.
func (q *galleryQuestion) json() map[string]any {
	opts := func(list []galleryOpt) []map[string]any {
		var out []map[string]any
		for _, o := range list {
			j := map[string]any{"id": o.id}
			galleryPut(j, "text", o.text)
			if o.image != nil {
				img := map[string]any{"url": o.image.url}
				galleryPut(img, "alt", o.image.alt)
				j["image"] = img
			}
			if o.value != nil {
				j["value"] = *o.value
			}
			if o.exclusive {
				j["exclusive"] = true
			}
			out = append(out, j)
		}
		return out
	}
	j := map[string]any{"id": q.id, "type": q.control, "control_type": q.control, "text": q.text, "answer": q.answer}
	galleryPut(j, "descr", q.descr)
	galleryPut(j, "html", q.html)
	galleryPut(j, "videoid", q.videoID)
	if q.image != nil {
		img := map[string]any{"url": q.image.url}
		galleryPut(img, "alt", q.image.alt)
		j["image"] = img
	}
	for k, list := range map[string][]galleryOpt{"answers": q.answers, "rows": q.rows, "columns": q.columns, "scale_answers": q.scaleAnswers} {
		if len(list) > 0 {
			j[k] = opts(list)
		}
	}
	if q.multiple {
		j["multiple"] = true
	}
	for k, n := range map[string]*int{"min_chars": q.minChars, "max_chars": q.maxChars, "min_answers": q.minAnswers, "max_answers": q.maxAnswers,
		"freq_min": q.freqMin, "freq_max": q.freqMax} {
		if n != nil {
			j[k] = *n
		}
	}
	for k, n := range map[string]*float64{"min_num": q.minNum, "max_num": q.maxNum, "step": q.step, "spend_min": q.spendMin, "spend_max": q.spendMax} {
		if n != nil {
			j[k] = *n
		}
	}
	if len(q.spendPeriod) > 0 {
		j["spend_period"] = q.spendPeriod
	}
	if len(q.freqPeriod) > 0 {
		j["freq_period"] = q.freqPeriod
	}
	if len(q.scaleLabels) > 0 {
		j["scale_labels"] = q.scaleLabels
	}
	return j
}

// galleryOpts are options o1, o2, ... with these texts.
func galleryOpts(texts ...string) []galleryOpt { return galleryIDs("o", texts) }

func galleryRows(texts ...string) []galleryOpt { return galleryIDs("r", texts) }

func galleryCols(texts ...string) []galleryOpt { return galleryIDs("c", texts) }

func galleryIDs(prefix string, texts []string) []galleryOpt {
	out := make([]galleryOpt, 0, len(texts))
	for i, t := range texts {
		out = append(out, galleryOpt{id: prefix + strconv.Itoa(i+1), text: t})
	}
	return out
}

func galleryNum(f float64) *float64 { return &f }

func galleryInt(n int) *int { return &n }

func galleryFmt(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

func galleryIntStr(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}
