package web

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v3"
)

// MaxJSONBody bounds every JSON payload a module decodes; a larger one is refused before parsing.
const MaxJSONBody = 16 << 10

// DecodeJSON reads a JSON body into v: a wrong content type is 415, a body over MaxJSONBody
// 413, malformed JSON 400.
func DecodeJSON(c fiber.Ctx, v any) error {
	if !IsJSONRequest(c) {
		return Fail(fiber.StatusUnsupportedMediaType, "error.unsupported_media_type", nil)
	}
	body := c.Body()
	if len(body) > MaxJSONBody {
		return Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(v); err != nil {
		return Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	return nil
}
