package web

import (
	"strconv"

	"github.com/gofiber/fiber/v3"
)

// QueryInt reads an optional integer query parameter; anything but digits is a 400 naming it.
func QueryInt(c fiber.Ctx, name string, def int) (int, error) {
	s := c.Query(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, Invalid(name, "error.not_a_number", nil)
	}
	return n, nil
}
