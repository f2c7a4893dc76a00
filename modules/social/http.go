package social

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// maxBody caps what is read of any provider answer, so a broken or hostile endpoint cannot
// make the server buffer without limit.
const maxBody = 1 << 20

// refusalStatus is a status by which a provider says no to the request itself, as opposed
// to failing to answer it.
func refusalStatus(status int) bool {
	return status == http.StatusBadRequest || status == http.StatusUnauthorized || status == http.StatusForbidden
}

// errTooLarge is the cause given when an answer exceeds maxBody.
var errTooLarge = errors.New("answer larger than 1 MiB")

// doJSON sends req with hc and decodes a JSON answer into v. what names the endpoint in
// errors; req's URL is never printed, since it may carry a token or an app secret.
func doJSON(hc *http.Client, p Provider, what string, req *http.Request, v any) error {
	resp, err := hc.Do(req)
	if err != nil {
		return unavailable(p, what, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return unavailable(p, what, err)
	}
	if len(body) > maxBody {
		return unavailable(p, what, errTooLarge)
	}
	switch {
	case refusalStatus(resp.StatusCode):
		return refused(p, "%s answered %d%s", what, resp.StatusCode, errorCode(body))
	case resp.StatusCode/100 != 2:
		return unavailable(p, fmt.Sprintf("%s answered %d", what, resp.StatusCode), nil)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return unavailable(p, what+" answered something other than the expected JSON", nil)
	}
	return nil
}

// errorCode picks the provider's error code out of an error answer, in whichever shape the
// provider uses, for the error message: RFC 6749's "error", Graph's {"error":{"type","code"}},
// Twitter v1.1's {"errors":[{"code"}]} or v2's problem details. Only codes are kept: the
// free-text messages are the provider's to word and could echo what was sent.
func errorCode(body []byte) string {
	var e struct {
		Error  json.RawMessage `json:"error"`
		Errors []struct {
			Code int `json:"code"`
		} `json:"errors"`
		Title string `json:"title"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	var code string
	var graph struct {
		Type string `json:"type"`
		Code int    `json:"code"`
	}
	switch {
	case json.Unmarshal(e.Error, &code) == nil && code != "":
	case json.Unmarshal(e.Error, &graph) == nil && graph.Code != 0:
		code = fmt.Sprintf("%s %d", graph.Type, graph.Code)
	case len(e.Errors) > 0:
		code = fmt.Sprintf("code %d", e.Errors[0].Code)
	default:
		code = e.Title
	}
	if code == "" || len(code) > 80 {
		return ""
	}
	return fmt.Sprintf(" %q", code)
}
