package postcodes

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The spec: "Postcode lookup returns at most 99 results when a search term is given,
// otherwise 1000."
const (
	MaxSearchResults = 99
	MaxListResults   = 1000
	// MaxSearchLength bounds the search term; no postcode or place name is longer.
	MaxSearchLength = 100
)

// Lookup returns a panel's places matching search: a prefix of the normalized postcode
// ("sw1a" finds "SW1A 1AA") or the start of a word of the label ("westm" finds
// "SW1A 1AA, Westminster, London"); the exact postcode first, then postcode matches, then
// label matches, each in postcode order. An empty search lists the panel's places in
// postcode order. At most 99 results for a search and 1000 without; a positive pageSize
// may lower that, never raise it (0 keeps it).
func (m *Module) Lookup(ctx context.Context, panelID, search string, pageSize int) ([]Place, error) {
	search = strings.TrimSpace(search)
	limit := MaxListResults
	if search != "" {
		limit = MaxSearchResults
	}
	if pageSize > 0 && pageSize < limit {
		limit = pageSize
	}
	if search == "" {
		return m.store.List(ctx, panelID, limit)
	}
	// Word search only for terms with a letter: digits alone are a postcode's.
	word := ""
	if strings.IndexFunc(search, unicode.IsLetter) >= 0 {
		word = strings.TrimSpace(words(search))
	}
	return m.store.Search(ctx, panelID, Normalize(search), word, limit)
}

// placeJSON is one result: only what the location control shows and answers with.
type placeJSON struct {
	ID       string `json:"id"`
	Postcode string `json:"postcode"`
	Label    string `json:"label"`
}

// GET /ah/api/v1/info/postcode-lookup?instanceKey=&search=&pageSize=
//
// instanceKey is optional; one that is not the panel's own is a 400 (a panel's postcodes
// are only ever served on its own domains). pageSize, when given, is a whole number of at
// least 1; above the cap it is capped, not refused.
func (m *Module) apiLookup(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	if panel == nil {
		return web.NotFound()
	}
	if key := c.Query("instanceKey"); key != "" && key != panel.InstanceKey {
		return web.Invalid("instanceKey", "error.postcode_instance_key", nil)
	}
	size := 0
	if s := c.Query("pageSize"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return web.Invalid("pageSize", "error.postcode_page_size", nil)
		}
		size = n
	}
	search := c.Query("search")
	if utf8.RuneCountInString(search) > MaxSearchLength {
		return web.Invalid("search", "error.too_long", map[string]any{"Max": MaxSearchLength})
	}
	if err := m.limit(c); err != nil {
		return err
	}
	places, err := m.Lookup(c.Context(), panel.ID, search, size)
	if err != nil {
		return err
	}
	out := make([]placeJSON, len(places))
	for i, p := range places {
		out[i] = placeJSON{ID: p.ID, Postcode: p.Postcode, Label: p.Label}
	}
	return c.JSON(fiber.Map{"results": out})
}

// limit counts the lookup against the client's address; over the bound it is a 429.
func (m *Module) limit(c fiber.Ctx) error {
	if m.limiter == nil {
		return nil
	}
	n, err := m.limiter.Hit(c.Context(), "postcodes:ip:"+c.IP(), time.Minute)
	if err != nil {
		return err
	}
	if n > m.rate {
		return web.Fail(fiber.StatusTooManyRequests, "error.rate_limited", nil)
	}
	return nil
}
