package offers

import (
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// member is the signed-in member with where they are: country, language and device.
func (m *Module) member(c fiber.Ctx) Member {
	ua := c.Get(fiber.HeaderUserAgent)
	return Member{
		Panel: web.PanelOf(c), ParticipantID: web.MemberOf(c).ParticipantID,
		Query: Query{Country: strings.ToUpper(m.country(c)), Lang: web.LocaleOf(c), Device: deviceOf(ua)},
		IP:    c.IP(), UserAgent: limited(ua, 500),
	}
}

// deviceOf is the protocol's device of a user agent: android, ios or desktop.
func deviceOf(ua string) string {
	switch {
	case strings.Contains(ua, "Android"):
		return "android"
	case strings.Contains(ua, "iPhone"), strings.Contains(ua, "iPad"), strings.Contains(ua, "iPod"):
		return "ios"
	}
	return "desktop"
}

// offerJSON is an offer or game as the API gives it.
type offerJSON struct {
	ID           string   `json:"id"`
	Kind         string   `json:"kind"`
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Requirements string   `json:"requirements"`
	Reward       string   `json:"reward"`
	CurrencyCode string   `json:"currency_code"`
	Minutes      int      `json:"minutes"`
	ImageURL     string   `json:"imageUrl,omitempty"`
	Platforms    []string `json:"platforms,omitempty"`
}

func toOfferJSON(o Offer, currency string) offerJSON {
	return offerJSON{ID: o.ID, Kind: kindOf(o.Kind), Name: o.Name, Description: o.Description, Requirements: o.Requirements,
		Reward: o.Reward, CurrencyCode: strings.ToUpper(currency), Minutes: o.Minutes, ImageURL: o.ImageURL, Platforms: o.Platforms}
}

// rowJSON is one of the member's offer rows (v3 offers_and_games/paged).
type rowJSON struct {
	ID              string     `json:"id"`
	OfferID         string     `json:"offerId"`
	Kind            string     `json:"kind"`
	Name            string     `json:"name"`
	Reward          string     `json:"reward"`
	CurrencyCode    string     `json:"currency_code"`
	Status          string     `json:"status"`
	StartedAt       *time.Time `json:"startedAt"`
	CreditedAt      *time.Time `json:"creditedAt"`
	ReversedAt      *time.Time `json:"reversedAt"`
	TransactionUUID *string    `json:"transactionUuid"` // the ledger credit, once credited
	ReversalUUID    *string    `json:"reversalUuid"`
}

func toRowJSON(r Row) rowJSON {
	return rowJSON{ID: r.ID, OfferID: r.OfferID, Kind: r.Kind, Name: r.Name, Reward: web.MoneyString(r.RewardMinor, r.CurrencyCode),
		CurrencyCode: r.CurrencyCode, Status: r.Status, StartedAt: utc(r.StartedAt), CreditedAt: utc(r.CreditedAt), ReversedAt: utc(r.ReversedAt),
		TransactionUUID: r.EntryID, ReversalUUID: r.ReversalID}
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// Page sizes of offers_and_games/paged, as transactions/paged.
const (
	DefaultPageSize = 20
	MaxPageSize     = 1000
)

// GET /api/v3/offers_and_games/paged?page=&pageSize=: the member's offer rows, latest first.
func (m *Module) apiPaged(c fiber.Ctx) error {
	page, err := web.QueryInt(c, "page", 1)
	var bad *web.Error
	if err != nil || page < 1 {
		bad = web.Invalid("page", "error.page", nil)
	}
	size, err := web.QueryInt(c, "pageSize", DefaultPageSize)
	if err != nil || size < 1 || size > MaxPageSize {
		if bad == nil {
			bad = web.Invalid("pageSize", "error.transactions_page_size", map[string]any{"Max": MaxPageSize})
		} else {
			bad.Also("pageSize", "error.transactions_page_size", map[string]any{"Max": MaxPageSize})
		}
	}
	if bad != nil {
		return bad
	}
	rows, more, err := m.svc.Rows(c.Context(), web.MemberOf(c).ParticipantID, page, size)
	if err != nil {
		return err
	}
	out := make([]rowJSON, 0, len(rows))
	for _, r := range rows {
		out = append(out, toRowJSON(r))
	}
	return c.JSON(fiber.Map{"rows": out, "page": page, "pageSize": size, "hasMore": more})
}

// GET /api/v3/offers_and_games/offers and .../games: the provider's lists for the member.
func (m *Module) apiList(kind string) fiber.Handler {
	field := kind + "s"
	return func(c fiber.Ctx) error {
		mem := m.member(c)
		list, err := m.svc.List(c.Context(), mem, kind)
		if err != nil {
			return webError(err)
		}
		out := make([]offerJSON, 0, len(list))
		for _, o := range list {
			out = append(out, toOfferJSON(o, mem.Panel.CurrencyCode))
		}
		return c.JSON(fiber.Map{field: out})
	}
}

type offerBody struct {
	OfferID string `json:"offerId"`
}

func offerIDOf(c fiber.Ctx) (string, error) {
	var body offerBody
	if err := web.DecodeJSON(c, &body); err != nil {
		return "", err
	}
	if strings.TrimSpace(body.OfferID) == "" {
		return "", web.Invalid("offerId", "error.required", nil)
	}
	return body.OfferID, nil
}

// POST /api/v3/offers_and_games/view-offer {"offerId"}: the member opened an offer.
func (m *Module) apiView(c fiber.Ctx) error {
	id, err := offerIDOf(c)
	if err != nil {
		return err
	}
	o, err := m.svc.View(c.Context(), m.member(c), id)
	if err != nil {
		return webError(err)
	}
	return c.JSON(toOfferJSON(o, web.PanelOf(c).CurrencyCode))
}

// POST /api/v3/offers_and_games/start-offer {"offerId"}: the member starts an offer; the
// answer says where to send them and holds their pending row.
func (m *Module) apiStart(c fiber.Ctx) error {
	id, err := offerIDOf(c)
	if err != nil {
		return err
	}
	row, started, err := m.svc.Start(c.Context(), m.member(c), id)
	if err != nil {
		return webError(err)
	}
	return c.JSON(fiber.Map{"clickId": started.ClickID, "redirectUrl": started.RedirectURL, "row": toRowJSON(*row)})
}

type issueBody struct {
	RowID   string `json:"rowId"`
	Message string `json:"message"`
}

// POST /api/v3/offers_and_games/report-issue {"rowId","message"}: "I completed it but
// wasn't credited", stored and forwarded to the provider.
func (m *Module) apiReport(c fiber.Ctx) error {
	var body issueBody
	if err := web.DecodeJSON(c, &body); err != nil {
		return err
	}
	if strings.TrimSpace(body.RowID) == "" {
		return web.Invalid("rowId", "error.required", nil)
	}
	issue, err := m.svc.ReportIssue(c.Context(), m.member(c), body.RowID, body.Message)
	if err != nil {
		return webError(err)
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": issue.ID, "ticketId": issue.TicketID, "forwarded": issue.ForwardError == ""})
}

// GET /api/v1/{instanceCode}/offers/postback?...&signature=: the provider's postback.
func (m *Module) postback(c fiber.Ctx) error {
	body, err := m.svc.Receive(c.Context(), PostbackRequest{Panel: web.PanelOf(c), PathAndQuery: c.OriginalURL(), SourceIP: c.IP()})
	if err != nil {
		return webError(err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(body)
}
