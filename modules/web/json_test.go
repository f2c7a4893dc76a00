package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type redeemBody struct {
	RedemptionID string          `json:"redemptionId"`
	Amount       string          `json:"amount"`
	Skip         bool            `json:"-"`
	Address      *addressBody    `json:"address"`
	Answers      []addressBody   `json:"answers"`
	Raw          json.RawMessage `json:"raw"`
	embeddedBody
}

type addressBody struct {
	PostalCode string `json:"postalCode"`
}

type embeddedBody struct {
	Note string `json:"note"`
}

func TestDecodingABodyMatchesItsKeysByExactNameAndRefusesAnythingAfterIt(t *testing.T) {
	t.Parallel()
	app := fiber.New(fiber.Config{ErrorHandler: func(c fiber.Ctx, err error) error {
		e, ok := err.(*Error)
		require.True(t, ok, "%v", err)
		field := ""
		if len(e.Details) > 0 {
			field = e.Details[0].Field
		}
		return c.Status(e.Status).JSON(fiber.Map{"id": e.ID, "field": field})
	}})
	app.Post("/", func(c fiber.Ctx) error {
		var in redeemBody
		if err := DecodeJSON(c, &in); err != nil {
			return err
		}
		return c.JSON(in)
	})
	cases := []struct {
		name   string
		body   string
		status int
		want   string // the decoded amount, or the error's id and field
	}{
		{"exact names", `{"redemptionId":"amazon-voucher","amount":"10.00"}`, http.StatusOK, "10.00"},
		{"a key that names no field is left alone", `{"amount":"10.00","somethingElse":1}`, http.StatusOK, "10.00"},
		{"a field in capitals", `{"redemptionId":"amazon-voucher","AMOUNT":"11.00"}`, http.StatusBadRequest, "error.unknown_field AMOUNT"},
		{"a field in other letters deeper", `{"address":{"postalcode":"SW1"}}`, http.StatusBadRequest, "error.unknown_field address.postalcode"},
		{"in a list", `{"answers":[{"postalCode":"a"},{"PostalCode":"b"}]}`, http.StatusBadRequest, "error.unknown_field answers.1.PostalCode"},
		{"an embedded struct's field", `{"amount":"1.00","NOTE":"x"}`, http.StatusBadRequest, "error.unknown_field NOTE"},
		{"inside a value the type decodes itself", `{"amount":"1.00","raw":{"AMOUNT":"x"}}`, http.StatusOK, "1.00"},
		{"a field json leaves out, in other letters", `{"amount":"1.00","skip":true}`, http.StatusOK, "1.00"},
		{"something after the document", `{"amount":"10.00"} xx`, http.StatusBadRequest, "error.malformed_json "},
		{"a second document", `{"amount":"10.00"}{"amount":"11.00"}`, http.StatusBadRequest, "error.malformed_json "},
		{"a stray brace after the document", `{"amount":"10.00"} }`, http.StatusBadRequest, "error.malformed_json "},
		{"white space after the document", "{\"amount\":\"10.00\"}\n  ", http.StatusOK, "10.00"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			res, err := app.Test(req)
			require.NoError(t, err)
			data, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, tc.status, res.StatusCode, string(data))
			var got map[string]any
			require.NoError(t, json.Unmarshal(data, &got))
			if tc.status == http.StatusOK {
				assert.Equal(t, tc.want, got["amount"])
				return
			}
			assert.Equal(t, tc.want, got["id"].(string)+" "+got["field"].(string))
		})
	}
}
