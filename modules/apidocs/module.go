package apidocs

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Module serves the contract. The document and the page are made once at start: both are
// the same for every panel and request.
type Module struct {
	doc  *Document
	page []byte // the docs page without its CSP nonce (filled in per request)
	log  *slog.Logger
}

// New loads and checks the document; a document that does not load stops the server.
func New(log *slog.Logger) (*Module, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, pageModel(doc.T)); err != nil {
		return nil, fmt.Errorf("apidocs: render the docs page: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	return &Module{doc: doc, page: b.Bytes(), log: log}, nil
}

// Document is the merged contract this server publishes.
func (m *Module) Document() *Document { return m.doc }

// Routes lists the module's calls.
func (m *Module) Routes(r fiber.Router) {
	r.Get("/api/openapi.json", m.openAPI)
	r.Get("/api/docs", m.docsPage)
}

// GET /api/openapi.json: the merged document, revalidated by its ETag.
func (m *Module) openAPI(c fiber.Ctx) error {
	c.Set(fiber.HeaderETag, m.doc.ETag)
	c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	if etagMatches(c.Get(fiber.HeaderIfNoneMatch), m.doc.ETag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(m.doc.JSON)
}

// GET /api/docs: the document for people, rendered on the server; one nonce'd stylesheet,
// no script, nothing fetched from elsewhere.
func (m *Module) docsPage(c fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(bytes.Replace(m.page, []byte(nonceMark), []byte(web.Nonce(c)), 1))
}

// etagMatches reads If-None-Match: "*", or a list of tags, weak or strong (RFC 9110 13.1.2
// compares them weakly for GET).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
