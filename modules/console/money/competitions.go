package consolemoney

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	moneyviews "github.com/canvass/canvass/views/console/money"
	"github.com/gofiber/fiber/v3"
)

// state is where a competition is: open (its draw date to come), due (the date passed, not
// drawn) or drawn.
func (p *Part) state(s competitions.Summary, now time.Time) string {
	switch {
	case s.Drawn != nil:
		return "drawn"
	case s.Info.DrawAt == nil || !now.Before(*s.Info.DrawAt):
		return "due"
	}
	return "open"
}

func (p *Part) prize(s competitions.Summary) string {
	if s.Info.PrizeMinor > 0 {
		return s.Info.Prize + " (" + money(s.Info.PrizeMinor, s.Info.Currency) + ")"
	}
	return s.Info.Prize
}

func drawAt(s competitions.Summary) string {
	if s.Info.DrawAt == nil {
		return "—"
	}
	return stamp(*s.Info.DrawAt)
}

func (p *Part) competitionsPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	list, err := p.d.Competitions.List(c.Context(), panel)
	if err != nil {
		return err
	}
	props := moneyviews.CompetitionsProps{Shell: p.shell(c), Nav: p.nav(a, "competitions")}
	now := p.d.Now()
	for _, s := range list {
		props.Rows = append(props.Rows, moneyviews.CompetitionRow{
			ID: s.Info.ID, Href: "/console/panels/" + a.Panel.Key + "/competitions/" + s.Info.ID, Name: s.Info.Name, Prize: p.prize(s),
			Winners: strconv.Itoa(s.Info.Winners), DrawAt: drawAt(s), Entered: strconv.Itoa(s.Entered), Declined: strconv.Itoa(s.Rejected),
			State: p.t(c, "console.money.state."+p.state(s, now), nil),
		})
	}
	return p.m.Render(c, fiber.StatusOK, moneyviews.Competitions(props))
}

// competitionView is one competition's page, with the draw form's state.
type competitionView struct {
	status      int
	reason      string
	early       bool
	reasonError string
	earlyError  string
	errMsg      string
	notice      string
}

func (p *Part) competitionPage(c fiber.Ctx, a console.PanelAccess) error {
	v := competitionView{status: fiber.StatusOK}
	if c.Query("drawn") == "1" {
		v.notice = p.t(c, "console.money.draw.done", nil)
	}
	return p.renderCompetition(c, a, v)
}

func (p *Part) renderCompetition(c fiber.Ctx, a console.PanelAccess, v competitionView) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	d, err := p.d.Competitions.Show(c.Context(), panel, c.Params("id"))
	if errors.Is(err, competitions.ErrNotFound) {
		return notFound(c)
	}
	if err != nil {
		return err
	}
	now := p.d.Now()
	fact := func(id, value string) moneyviews.Pair { return moneyviews.Pair{Label: p.t(c, id, nil), Value: value} }
	props := moneyviews.CompetitionProps{
		Shell: p.shell(c), Nav: p.nav(a, "competitions"), ID: d.Info.ID, Name: d.Info.Name,
		CanDraw: d.Drawn == nil, BeforeDate: d.Info.DrawAt != nil && now.Before(*d.Info.DrawAt),
		Early: v.early, Reason: v.reason, ReasonError: v.reasonError, EarlyError: v.earlyError, Error: v.errMsg, Notice: v.notice,
		Facts: []moneyviews.Pair{
			fact("console.money.col.competition", d.Info.ID),
			fact("console.money.col.prize", p.prize(d.Summary)),
			fact("console.money.col.winners", strconv.Itoa(d.Info.Winners)),
			fact("console.money.col.draw_at", drawAt(d.Summary)),
			fact("console.money.col.entered", strconv.Itoa(d.Entered)),
			fact("console.money.col.declined", strconv.Itoa(d.Rejected)),
			fact("console.money.col.state", p.t(c, "console.money.state."+p.state(d.Summary, now), nil)),
		},
	}
	if d.Drawn != nil {
		props.Drawn = true
		r := d.Drawn
		early := p.t(c, "console.money.no", nil)
		if r.Early {
			early = p.t(c, "console.money.yes", nil)
		}
		props.Proof = []moneyviews.Pair{
			fact("console.money.proof.drawn_at", stamp(r.DrawnAt)),
			fact("console.col.who", r.Operator),
			fact("console.money.field.reason", r.Reason),
			fact("console.money.proof.early", early),
			fact("console.money.proof.seed", r.Seed),
			fact("console.money.proof.entrants", strconv.Itoa(r.Entrants)),
			fact("console.money.proof.digest", r.EntrantsDigest),
		}
		ver, err := p.d.Competitions.VerifyOn(c.Context(), panel, d.Info.ID)
		if err != nil {
			return err
		}
		props.Verified, props.Problems = ver.OK(), ver.Problems
		props.Proof = append(props.Proof,
			fact("console.money.proof.entrants_now", strconv.Itoa(len(ver.Entrants))),
			fact("console.money.proof.digest_now", ver.Digest))
		entries := map[string]string{}
		for _, w := range d.Winners {
			if w.TransactionID != nil {
				entries[w.ParticipantID] = *w.TransactionID
			}
		}
		for i := range max(len(ver.Expected), len(ver.Draw.Winners)) {
			row := moneyviews.WinnerRow{Rank: strconv.Itoa(i + 1), Recorded: "—", Expected: "—", Entry: "—"}
			if i < len(ver.Draw.Winners) {
				row.Recorded = ver.Draw.Winners[i].ParticipantID
				row.Entry = orDash(entries[row.Recorded])
			}
			if i < len(ver.Expected) {
				row.Expected = ver.Expected[i]
			}
			row.Match = p.t(c, "console.money.verify.match", nil)
			if row.Recorded != row.Expected {
				row.Match = p.t(c, "console.money.verify.mismatch", nil)
			}
			props.Winners = append(props.Winners, row)
		}
	}
	return p.m.Render(c, v.status, moneyviews.Competition(props))
}

// draw draws a competition of the panel once, with a reason; before its draw date only when
// early confirms it. It answers the message id of a refusal, or the draw.
func (p *Part) draw(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, id, reason string, early bool) (*competitions.Draw, string, int, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, "console.money.error.reason_draw", fiber.StatusUnprocessableEntity, nil
	}
	d, err := p.d.Competitions.Draw(c.Context(), panel, id, operator(c), reason, early)
	switch {
	case errors.Is(err, competitions.ErrNotFound):
		return nil, "", fiber.StatusNotFound, nil
	case errors.Is(err, competitions.ErrTooEarly):
		return nil, "console.money.error.too_early", fiber.StatusUnprocessableEntity, nil
	case errors.Is(err, competitions.ErrAlreadyDrawn):
		return nil, "console.money.error.drawn", fiber.StatusConflict, nil
	case err != nil:
		return nil, "", 0, err
	}
	winners := make([]string, 0, len(d.Winners))
	for _, w := range d.Winners {
		winners = append(winners, w.ParticipantID)
	}
	err = p.m.Audit(c, a.Panel.ID, "competition.draw", d.Record.CompetitionID, map[string]any{"drawn": false},
		map[string]any{"drawn": true, "reason": reason, "early": d.Record.Early, "entrants": d.Record.Entrants, "digest": d.Record.EntrantsDigest, "seed": d.Record.Seed, "winners": winners})
	if err != nil {
		return nil, "", 0, err
	}
	return d, "", fiber.StatusOK, nil
}

func (p *Part) drawPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	reason, early := c.FormValue("reason"), c.FormValue("early") == "yes"
	_, msgID, status, err := p.draw(c, a, panel, c.Params("id"), reason, early)
	if err != nil {
		return err
	}
	if status == fiber.StatusNotFound {
		return notFound(c)
	}
	if msgID != "" {
		v := competitionView{status: status, reason: reason, early: early, errMsg: p.t(c, msgID, nil)}
		switch msgID {
		case "console.money.error.reason_draw":
			v.reasonError = v.errMsg
		case "console.money.error.too_early":
			v.earlyError = v.errMsg
		}
		return p.renderCompetition(c, a, v)
	}
	return p.m.Redirect(c, "/console/panels/"+a.Panel.Key+"/competitions/"+url.PathEscape(c.Params("id"))+"?drawn=1")
}

// The JSON API.

type competitionJSON struct {
	ID         string     `json:"id"`
	CampaignID string     `json:"campaignId"`
	Name       string     `json:"name"`
	Prize      string     `json:"prize"`
	PrizeMoney *string    `json:"prizeAmount"`
	Currency   string     `json:"currency_code"`
	Winners    int        `json:"winners"`
	DrawAt     *time.Time `json:"drawAt"`
	Entered    int        `json:"entered"`
	Declined   int        `json:"declined"`
	State      string     `json:"state"`
	DrawnAt    *time.Time `json:"drawnAt"`
}

func (p *Part) apiCompetitions(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	list, err := p.d.Competitions.List(c.Context(), panel)
	if err != nil {
		return err
	}
	now := p.d.Now()
	out := make([]competitionJSON, 0, len(list))
	for _, s := range list {
		j := competitionJSON{
			ID: s.Info.ID, CampaignID: s.Info.CampaignID, Name: s.Info.Name, Prize: s.Info.Prize, Currency: s.Info.Currency,
			Winners: s.Info.Winners, DrawAt: s.Info.DrawAt, Entered: s.Entered, Declined: s.Rejected, State: p.state(s, now),
		}
		if s.Info.PrizeMinor > 0 {
			amount := web.MoneyString(s.Info.PrizeMinor, s.Info.Currency)
			j.PrizeMoney = &amount
		}
		if s.Drawn != nil {
			at := s.Drawn.DrawnAt.UTC()
			j.DrawnAt = &at
		}
		out = append(out, j)
	}
	return c.JSON(fiber.Map{"competitions": out})
}

type drawBody struct {
	Reason string `json:"reason"`
	Early  bool   `json:"early"`
}

type winnerJSON struct {
	Rank            int     `json:"rank"`
	Member          string  `json:"member"`
	TransactionUUID *string `json:"transactionUuid"`
}

type proofJSON struct {
	CompetitionID  string       `json:"competitionId"`
	Seed           string       `json:"seed"`
	Entrants       int          `json:"entrants"`
	EntrantsDigest string       `json:"entrantsDigest"`
	Winners        []winnerJSON `json:"winners"`
	Operator       string       `json:"operator"`
	Reason         string       `json:"reason"`
	Early          bool         `json:"early"`
	DrawnAt        time.Time    `json:"drawnAt"`
}

func proofOf(d competitions.Draw) proofJSON {
	r := d.Record
	out := proofJSON{CompetitionID: r.CompetitionID, Seed: r.Seed, Entrants: r.Entrants, EntrantsDigest: r.EntrantsDigest,
		Winners: []winnerJSON{}, Operator: r.Operator, Reason: r.Reason, Early: r.Early, DrawnAt: r.DrawnAt.UTC()}
	for _, w := range d.Winners {
		out.Winners = append(out.Winners, winnerJSON{Rank: w.Rank, Member: w.ParticipantID, TransactionUUID: w.TransactionID})
	}
	return out
}

// apiDraw draws a competition once: 201 with the recorded proof; 409 when drawn already.
func (p *Part) apiDraw(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	var body drawBody
	if err := web.DecodeJSON(c, &body); err != nil {
		return err
	}
	d, msgID, status, err := p.draw(c, a, panel, c.Params("id"), body.Reason, body.Early)
	if err != nil {
		return err
	}
	switch {
	case status == fiber.StatusNotFound:
		return web.NotFound()
	case msgID == "console.money.error.reason_draw":
		return web.Invalid("reason", msgID, nil)
	case msgID == "console.money.error.too_early":
		return web.Invalid("early", msgID, nil).WithCode("too_early")
	case msgID != "":
		return web.Fail(status, msgID, nil).WithCode("already_drawn")
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"draw": proofOf(*d)})
}

// apiVerification recomputes a drawn competition's winners from its recorded proof.
func (p *Part) apiVerification(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	v, err := p.d.Competitions.VerifyOn(c.Context(), panel, c.Params("id"))
	switch {
	case errors.Is(err, competitions.ErrNotFound):
		return web.NotFound()
	case errors.Is(err, competitions.ErrNotDrawn):
		return web.Fail(fiber.StatusConflict, "console.money.error.not_drawn", nil).WithCode("not_drawn")
	case err != nil:
		return err
	}
	expected := v.Expected
	if expected == nil {
		expected = []string{}
	}
	problems := v.Problems
	if problems == nil {
		problems = []string{}
	}
	return c.JSON(fiber.Map{"ok": v.OK(), "draw": proofOf(v.Draw), "entrantsNow": len(v.Entrants), "digestNow": v.Digest, "expectedWinners": expected, "problems": problems})
}
