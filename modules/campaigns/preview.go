package campaigns

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Preview modes of the survey box (spec section 2).
const (
	PreviewCampaign = "campaign-preview"
	PreviewQuestion = "preview-question"
)

// PreviewLink is a signed path to preview a campaign in a language until expires: anyone
// with it may walk the campaign; nothing is recorded or paid. question, when set, shows
// that one question in 'preview-question' mode.
func (m *Module) PreviewLink(panel *web.Panel, campaignID, lang string, expires time.Time, question string) string {
	exp := strconv.FormatInt(expires.Unix(), 10)
	path := fmt.Sprintf("/survey/%s/preview/%s/%s/%s", campaignID, lang, exp, m.previewSig(panel.ID, campaignID, lang, exp))
	if question != "" {
		path += "?question=" + question
	}
	return path
}

func (m *Module) previewSig(panelID, campaignID, lang, exp string) string {
	mac := hmac.New(sha256.New, m.kit.Secret("campaign-preview"))
	fmt.Fprintf(mac, "%s|%s|%s|%s", panelID, campaignID, lang, exp)
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// preview checks a preview link's signature and expiry and loads its campaign.
func (m *Module) preview(c fiber.Ctx) (*Campaign, string, error) {
	panel := web.PanelOf(c)
	id, lang, exp, sig := c.Params("campaignUuid"), c.Params("lang"), c.Params("exp"), c.Params("sig")
	at, err := strconv.ParseInt(exp, 10, 64)
	want := m.previewSig(panel.ID, id, lang, exp)
	if err != nil || !hmac.Equal([]byte(sig), []byte(want)) || m.now().Unix() > at || !panel.Offers(lang) {
		return nil, "", web.NotFound()
	}
	camp, err := m.store.Campaign(c.Context(), panel.ID, id)
	if err != nil {
		return nil, "", err
	}
	return camp, lang, nil
}

// CampaignOf loads one campaign of a panel (operator tooling).
func (m *Module) CampaignOf(ctx context.Context, panel *web.Panel, id string) (*Campaign, error) {
	return m.store.Campaign(ctx, panel.ID, id)
}

// HasQuestion tells whether the campaign has a question with this id.
func (c *Campaign) HasQuestion(id string) bool { return questionIndex(&c.Definition, id) >= 0 }

// previewStep is the go result of a preview: the member's answers so far come from the
// client (the island keeps them), nothing is stored, no quota counts and nothing is paid.
// With no question answered it is the first question (or the one named).
func previewStep(camp *Campaign, lang, questionID string, raw json.RawMessage, earlier map[string]json.RawMessage) (*GoResult, error) {
	def := &camp.Definition
	res := &GoResult{Campaign: camp, Lang: lang, Status: StatusStarted}
	if questionID == "" {
		if len(def.Questions) > 0 {
			res.Question = &def.Questions[0]
		}
		return res, nil
	}
	qi := questionIndex(def, questionID)
	if qi < 0 {
		return nil, web.NotFound()
	}
	value, err := ValidateAnswer(&def.Questions[qi], raw)
	if err != nil {
		return nil, err
	}
	answers := map[string]any{}
	for id, v := range earlier {
		if i := questionIndex(def, id); i >= 0 && id != questionID {
			if ok, err := ValidateAnswer(&def.Questions[i], v); err == nil {
				answers[id] = ok
			}
		}
	}
	answers[questionID] = value
	res.Answered = len(answers)
	status, next := route(def, qi, answers)
	if IsTerminal(status) {
		res.Status = status
		return res, nil
	}
	res.Question = &def.Questions[questionIndex(def, next)]
	return res, nil
}

// GET /survey/:campaignUuid/preview/:lang/:exp/:sig[?question=QID]: the survey box in
// campaign-preview mode (or preview-question mode for one question).
func (m *Module) previewPage(c fiber.Ctx) error {
	camp, lang, err := m.preview(c)
	if err != nil {
		return err
	}
	res, err := previewStep(camp, lang, "", nil, nil)
	if err != nil {
		return err
	}
	mode := PreviewCampaign
	if q := c.Query("question"); q != "" {
		qi := questionIndex(&camp.Definition, q)
		if qi < 0 {
			return web.NotFound()
		}
		res.Question, mode = &camp.Definition.Questions[qi], PreviewQuestion
	}
	c.Set("X-Robots-Tag", "noindex")
	return m.surveyBoxIn(c, res, mode, "/survey/"+camp.ID+"/preview/"+lang+"/"+c.Params("exp")+"/"+c.Params("sig"))
}

// GET {preview}/go: the first question of the preview.
func (m *Module) previewGo(c fiber.Ctx) error {
	camp, lang, err := m.preview(c)
	if err != nil {
		return err
	}
	res, err := previewStep(camp, lang, "", nil, nil)
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(res))
}

// POST {preview}/question/:qid {"answer": VALUE, "answers": {qid: VALUE, ...}}: the next step.
func (m *Module) previewAnswer(c fiber.Ctx) error {
	camp, lang, err := m.preview(c)
	if err != nil {
		return err
	}
	raw, err := DecodeAnswerBody(c.Body())
	if err != nil {
		return err
	}
	var in struct {
		Answers map[string]json.RawMessage `json:"answers"`
	}
	_ = json.Unmarshal(c.Body(), &in)
	res, err := previewStep(camp, lang, c.Params("qid"), raw, in.Answers)
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(res))
}
