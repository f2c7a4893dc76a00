package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTheRarelyCalledOperationsAnswerAsTheContractSays sends the documented operations no other
// API test needs (the run prints how many operations its exchanges were checked against), so
// every operation's answer is held to the OpenAPI document by the test client.
func TestTheRarelyCalledOperationsAnswerAsTheContractSays(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		visitor := e.client("localhost")
		for _, path := range []string{"/ah/api/v1/ah-api-info", "/api/v3/ping", "/api/openapi.json", "/api/docs"} {
			assert.Equal(t, http.StatusOK, visitor.get(path).StatusCode, path)
		}
		c := e.member().api()
		assert.Equal(t, http.StatusOK, c.get("/ah/api/v1/user/profile/jwt").StatusCode)
		assert.Equal(t, http.StatusOK, c.postJSON("/api/v2/demo/subscriptions", `{"newsletters":false}`).StatusCode)
		// The demo member's email is validated: asking for the link again is refused, in the error shape.
		res := c.get("/ah/api/v1/request-validation-email")
		assert.Contains(t, []int{http.StatusOK, http.StatusConflict, http.StatusBadRequest}, res.StatusCode, res.Body)
		assert.Equal(t, http.StatusOK, c.get("/ah/api/v1/user/logout").StatusCode)
		assert.Equal(t, http.StatusUnauthorized, c.get("/ah/api/v1/user/profile/jwt").StatusCode, "the session ended")
	})
}
