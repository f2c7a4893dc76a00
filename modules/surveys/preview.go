package surveys

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
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
func (m *Module) preview(c fiber.Ctx) (*campaigns.Campaign, string, error) {
	panel := web.PanelOf(c)
	id, lang, exp, sig := c.Params("campaignUuid"), c.Params("lang"), c.Params("exp"), c.Params("sig")
	at, err := strconv.ParseInt(exp, 10, 64)
	want := m.previewSig(panel.ID, id, lang, exp)
	if err != nil || !hmac.Equal([]byte(sig), []byte(want)) || m.now().Unix() > at || !panel.Offers(lang) {
		return nil, "", web.NotFound()
	}
	camp, err := m.catalogue.Campaign(c.Context(), panel, id)
	if err != nil {
		return nil, "", err
	}
	return camp, lang, nil
}

// GET /survey/:campaignUuid/preview/:lang/:exp/:sig[?question=QID]: the survey box in
// campaign-preview mode (or preview-question mode for one question).
func (m *Module) previewPage(c fiber.Ctx) error {
	res, err := m.previewStart(c)
	if err != nil {
		return err
	}
	camp, lang := res.Campaign, res.Lang
	mode := PreviewCampaign
	if q := c.Query("question"); q != "" {
		qi := camp.Definition.QuestionIndex(q)
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
	res, err := m.previewStart(c)
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(res))
}

// previewStart is where a preview link's walk starts: its first question.
func (m *Module) previewStart(c fiber.Ctx) (*GoResult, error) {
	camp, lang, err := m.preview(c)
	if err != nil {
		return nil, err
	}
	return walk(camp, lang, "", nil, nil)
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
	res, err := walk(camp, lang, c.Params("qid"), raw, in.Answers)
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(res))
}
