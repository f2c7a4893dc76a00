package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile is one value of the sweep's table: as text (query parameters, path parameters,
// form fields) and as a raw JSON value (a member of a JSON body).
type hostile struct {
	name string
	text string // "" when the value has no text form
	json string // "" when the value has no JSON form
}

// hostileValues are the table: control and malformed text, huge text, text that
// displays as something else, markup, SQL and LIKE metacharacters, numbers in disguise, and
// the wrong JSON shapes.
var hostileValues = []hostile{
	{"a NUL", "a\x00b", `"a\u0000b"`},
	{"invalid UTF-8", "a\xff\xfeb", "\"a\xff\xfeb\""},
	{"a lone surrogate", "", `"a\ud800b"`},
	{"a control character", "a\x1bb", `"a\u001bb"`},
	{"a right-to-left override", "\u202egnp.exe", `"\u202egnp.exe"`},
	{"a zero-width joiner", "👩\u200d💻", "\"👩\u200d💻\""},
	{"emoji", "😀🎉", `"😀🎉"`},
	{"a script tag", "<script>alert(1)</script>", `"<script>alert(1)</script>"`},
	{"SQL", "' OR '1'='1' --", `"' OR '1'='1' --"`},
	{"LIKE metacharacters", `%_\`, `"%_\\"`},
	{"a number as a string", "123", `"123"`},
	{"1e400", "1e400", `1e400`},
	{"-0", "-0", `-0`},
	{"NaN", "NaN", `NaN`},
	{"an array", "", `["a","b"]`},
	{"an object", "", `{"a":"b"}`},
	{"null", "", `null`},
	{"a long text", strings.Repeat("x", 3000), `"` + strings.Repeat("x", 12000) + `"`},
}

// hostileBodies are whole JSON bodies of the wrong shape, sent to every API post.
var hostileBodies = []hostile{
	{"duplicate keys", "", `{"email":"a@example.com","email":"b@example.com","answer":"a","answer":"b","reasonCode":"other","reasonCode":"x"}`},
	{"an array for an object", "", `["a",{"b":1}]`},
	{"a string for an object", "", `"text"`},
	{"a number for an object", "", `1e400`},
	{"NaN for an object", "", `NaN`},
	{"a megabyte of JSON", "", `{"text":"` + strings.Repeat("x", 1<<20) + `"}`},
	{"deep nesting", "", strings.Repeat("[", 5000) + strings.Repeat("]", 5000)},
}

// sweepFields are the text fields the sweep knows each route to read: query parameters of
// a GET, form fields of a page's post, members of an API's JSON body. Until the OpenAPI
// document lists them, this table is the sweep's knowledge; a route missing from it is
// still swept through its path parameters and genericFields.
var sweepFields = map[string][]string{
	"GET /ah/api/v1/domain-info":                                              {"domain"},
	"GET /ah/api/v1/instance-info":                                            {"domain", "panelKey"},
	"GET /ah/api/v1/info/postcode-lookup":                                     {"search", "instanceKey", "pageSize"},
	"GET /ah/api/v1/mobile/validate":                                          {"phone", "code"},
	"GET /ah/api/v1/verification/sms":                                         {"code", "phone", "site"},
	"POST /ah/api/v1/verification/sms":                                        {"challenge", "phone"},
	"POST /ah/api/v1/paypal-data":                                             {"paypalEmail"},
	"POST /ah/api/v1/bank-data":                                               {"accountType", "accountHolder", "iban", "bic", "accountNumber", "routingNumber", "sortCode"},
	"POST /ah/api/v1/change-password":                                         {"oldPassword", "newPassword"},
	"POST /ah/api/v1/user/profile":                                            {"firstName", "lastName", "username", "languageCode"},
	"POST /ah/api/v1/user/reset-password":                                     {"token", "password"},
	"POST /ah/api/v2/user/forgot-password":                                    {"email"},
	"POST /ah/api/v2/user/login":                                              {"email", "password", "parentFrameUrl"},
	"POST /ah/api/v2/user/register":                                           {"email", "password", "firstName", "parentFrameUrl"},
	"POST /api/v1/public/client/:level":                                       {"message", "stack", "url"},
	"POST /api/v1/translations/add/:ns/:lng":                                  {"key", "value"},
	"GET /api/v1/:instanceCode/events/record":                                 {"eventName", "eventData", "pp-panel"},
	"POST /api/v3/campaigns/paged":                                            {"skip"},
	"GET /api/v3/participations/paged":                                        {"page", "pageSize"},
	"POST /api/v3/redemptions/redeem":                                         {"redemptionId", "amount"},
	"POST /api/v3/transactions/:id/report-broken":                             {"reasonCode", "reasonText"},
	"GET /api/v3/transactions/paged":                                          {"filter", "after", "before", "page", "pageSize"},
	"GET /error":                                                              {"title", "desc", "description", "btn", "btnText"},
	"GET /feed":                                                               {"filter", "page", "skip"},
	"POST /feed/:id/hide":                                                     {"return"},
	"POST /feed/:id/report":                                                   {"reasonCode", "reasonText", "return"},
	"POST /forgot-password":                                                   {"email"},
	"POST /join":                                                              {"email", "password", "firstName", "redirect", "affiliate"},
	"POST /join/invite/:inviteId":                                             {"email", "password", "firstName"},
	"GET /login":                                                              {"redirect"},
	"POST /login":                                                             {"email", "password", "redirect"},
	"POST /password-recovery":                                                 {"email"},
	"POST /redemptions/bank-data":                                             {"accountType", "accountHolder", "iban", "bic", "accountNumber", "routingNumber", "sortCode"},
	"POST /redemptions/paypal-data":                                           {"paypalEmail"},
	"POST /redemptions":                                                       {"redemptionId", "amount", "idempotencyKey"},
	"POST /redemptions/redeem":                                                {"redemptionId", "amount", "idempotencyKey"},
	"GET /reset-password":                                                     {"token"},
	"POST /reset-password":                                                    {"token", "password"},
	"POST /settings":                                                          {"firstName", "lastName", "username"},
	"POST /settings/mobile/code":                                              {"code"},
	"POST /settings/mobile/number":                                            {"phone", "country"},
	"POST /settings/password":                                                 {"oldPassword", "newPassword"},
	"POST /settings/username":                                                 {"username"},
	"POST /settings/address":                                                  {"addressLine1", "addressLine2", "city", "region", "postcode", "postcodeId", "country"},
	"POST /settings/address/lookup":                                           {"postcode", "addressLine1"},
	"POST /settings/pictures":                                                 {"file"},
	"POST /settings/subscriptions":                                            {"surveyInvitations", "newsletters", "reminders"},
	"POST /settings/about":                                                    {"dateOfBirth", "gender", "householdSize", "smartFuelCard"},
	"POST /settings/location":                                                 {"locationPostcode"},
	"POST /settings/change-instance":                                          {"panelKey", "instancePassword"},
	"POST /settings/close-account":                                            {"password", "reasonForClosing", "confirm"},
	"GET /unsubscribe/:panelUuid/:accountHolderUuid/:hash":                    {"kind"},
	"POST /unsubscribe/:panelUuid/:accountHolderUuid/:hash":                   {"kind"},
	"GET /close-account":                                                      {"token"},
	"POST /close-account":                                                     {"token", "reasonForClosing", "confirm"},
	"POST /ah/api/v1/change-username":                                         {"username"},
	"POST /ah/api/v1/profile/postal-address":                                  {"addressLine1", "addressLine2", "city", "region", "postcode", "postcodeId", "country"},
	"POST /ah/api/v1/user/profile/location":                                   {"postcode", "id"},
	"POST /ah/api/v1/user/profile/metadata":                                   {"dateOfBirth", "gender", "householdSize", "smartFuelCard", "welcomeCampaignCompleted", "metadata"},
	"POST /ah/api/v1/user/profile/pic":                                        {"file"},
	"POST /ah/api/v1/subscriptions":                                           {"surveyInvitations", "newsletters", "reminders"},
	"POST /api/:version/:instanceCode/subscriptions":                          {"surveyInvitations", "newsletters", "reminders"},
	"POST /ah/api/v1/change-instance":                                         {"panelKey", "panelUuid", "password"},
	"POST /ah/api/v1/close-account":                                           {"reasonForClosing", "password", "token"},
	"GET /ah/api/v1/public/unsubscribe/panel/:panel/ah/:id":                   {"hash", "kind"},
	"POST /ah/api/v1/public/unsubscribe/panel/:panel/ah/:id":                  {"hash", "kind"},
	"GET /transactions":                                                       {"filter", "after", "before", "page"},
	"GET /transactions/months/:year/:month":                                   {"filter", "after", "before"},
	"POST /transactions/payment-notification/dismiss":                         {"upTo", "redirect"},
	"GET /survey/:campaignUuid/*":                                             {"redirect", "redirectLabel", "lang"},
	"POST /survey/:campaignUuid/answer":                                       {"qid", "answer"},
	"POST /survey/:campaignUuid/rating":                                       {"rating", "comment"},
	"POST /survey/:campaignUuid/competition":                                  {"decision", "competition"},
	"GET /survey/:campaignUuid/preview/:lang/:exp/:sig/":                      {"question"},
	"POST /survey/:campaignUuid/preview/:lang/:exp/:sig/question/:qid":        {"answer", "answers"},
	"GET /api/:version/:instanceCode/campaigns/:id/follow":                    {"token", "lang"},
	"POST /api/:version/:instanceCode/campaigns/:id/question/:qid":            {"answer"},
	"POST /api/:version/:instanceCode/campaigns/:id/rating":                   {"rating", "comment"},
	"POST /api/:version/:instanceCode/campaigns/:id/report-broken":            {"reasonCode", "reasonText"},
	"GET /api/:version/:instanceCode/campaigns/welcome":                       {"mode"},
	"GET /onboarding":                                                         {"provider", "userId", "redirect"},
	"POST /onboarding/complete":                                               {"email"},
	"POST /onboarding/campaigns/:campaignUuid/answer":                         {"qid", "answer"},
	"POST /panel/:panelUuid/onboarding/campaigns/:campaignUuid/:questionUuid": {"data"},
	"GET /api/v1/onboarding":                                                  {"provider", "userId", "redirect"},
	"POST /api/v1/onboarding/completed":                                       {"panelUuid", "provider", "userId", "email"},
	"POST /api/v1/onboarding/resend":                                          {"provider", "userId", "email"},
	"GET /widgets/login":                                                      {"parentFrameUrl"},
	"POST /widgets/login":                                                     {"email", "password", "parentFrameUrl"},
	"GET /widgets/join":                                                       {"parentFrameUrl"},
	"POST /widgets/join":                                                      {"email", "password", "firstName", "parentFrameUrl"},
	"POST /widgets/logout":                                                    {"kind", "parentFrameUrl"},
	"GET /widgets/continue":                                                   {"code"},
	"GET /join":                                                               {"redirect", "affiliate"},
	"POST /referrals":                                                         {"email", "message"},
	"POST /referrals/:id/resend":                                              {"return"},
	"POST /blades/:id/dismiss":                                                {"return"},
	"POST /blades/:id/thank":                                                  {"return"},
	"POST /ah/api/v1/referrals/send":                                          {"email", "message"},
	"GET /ah/api/v1/referrals/archived-invites":                               {"orderBy"},
}

// genericFields are swept on every route besides its own.
var genericFields = []string{"q", "name"}

// routeParam drops a route parameter's constraint: ":version<regex(v[12])>" is ":version".
var routeParam = regexp.MustCompile(`<[^>]*>`)

// sweepCounts tally what the sweep sent, for the log.
type sweepCounts struct {
	routes, fields, requests int
	status                   map[int]int
	answers                  map[string]int // each request's status, to hold the databases to one answer
}

func TestHostileValuesOnEveryRouteNeverMakeA500NorWriteARefusedRow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the sweep sends thousands of requests")
	}
	// The dialects and the parts of each sweep side by side; their answers are compared once
	// all are done.
	var mu sync.Mutex
	answers := map[migrations.Dialect]map[string]int{}
	t.Cleanup(func() {
		if sqlite, postgres := answers[migrations.SQLite], answers[migrations.Postgres]; sqlite != nil && postgres != nil {
			for what, status := range sqlite {
				assert.Equal(t, status, postgres[what], "%s: SQLite and PostgreSQL answer alike", what)
			}
			assert.Len(t, postgres, len(sqlite))
		}
	})
	eachSweepPart(t, withoutJobWorkers(), func(t *testing.T, e *env, part int) {
		s := newSweep(t, e)
		counts := sweepCounts{status: map[int]int{}, answers: map[string]int{}}
		routes := s.routes()
		for i, r := range routes {
			if i%sweepParts != part {
				continue
			}
			counts.routes++
			fields := append(append([]string{}, sweepFields[r.key]...), genericFields...)
			counts.fields += len(fields)
			for _, v := range hostileValues {
				for _, f := range fields {
					s.send(&counts, r, f, v)
				}
				for _, p := range r.params {
					s.sendPath(&counts, r, p, v)
				}
			}
			if r.method == http.MethodPost && r.api {
				for _, b := range hostileBodies {
					s.sendBody(&counts, r, b)
				}
			}
		}
		if part == 0 {
			for _, v := range hostileValues {
				for _, h := range []string{"Idempotency-Key", "Accept-Language", "X-App-Lang", "User-Agent", "Referer"} {
					s.sendHeader(&counts, h, v)
				}
			}
		}
		t.Logf("%s: %d of %d routes, %d route fields, %d values: %d requests; statuses %v",
			migrations.DialectOf(e.db), counts.routes, len(routes), counts.fields, len(hostileValues), counts.requests, counts.status)
		mu.Lock()
		defer mu.Unlock()
		d := migrations.DialectOf(e.db)
		if answers[d] == nil {
			answers[d] = map[string]int{}
		}
		maps.Copy(answers[d], counts.answers)
	})
}

// sweepParts is how many parts each sweep's routes are dealt into (route i to part i mod
// sweepParts), per dialect: each part an app and a database copy of its own, side by side with
// the others. One sweep's thousands of requests, one after another, were the longest test of
// the run; in parts they share the cores with the rest. A refusal's check, that it wrote no
// row, holds within each part's database as it did within one.
const sweepParts = 4

// eachSweepPart runs fn for each part of a sweep on each dialect, side by side, each with an
// app and database of its own.
func eachSweepPart(t *testing.T, cfg Config, fn func(t *testing.T, e *env, part int)) {
	for _, d := range dbtest.Dialects(t) {
		for part := range sweepParts {
			t.Run(fmt.Sprintf("%s/part_%d_of_%d", d, part+1, sweepParts), func(t *testing.T) {
				t.Parallel()
				fn(t, newEnvWith(t, d, cfg), part)
			})
		}
	}
}

// sweep is the signed-in member, the demo's ids the routes' path parameters need, and the
// table counts a refused request must leave as they were.
type sweep struct {
	t      *testing.T
	e      *env
	member *client
	token  string
	good   map[string]string // a valid value of each path parameter
	rows   map[string]int64
}

type sweepRoute struct {
	method, path, key string
	params            []string
	api               bool // answers JSON (the spec's API families)
	page              bool // a page: its posts are forms
}

func newSweep(t *testing.T, e *env) *sweep {
	s := &sweep{t: t, e: e}
	s.member = e.member()
	s.token = s.member.cookie("pp-token")
	require.NotEmpty(t, s.token)
	poll := e.campaignID("demo", "Quick poll")
	panel, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
	require.NoError(t, err)
	preview := e.app.Surveys.PreviewLink(panel, poll, "en", time.Now().Add(time.Hour), "")
	parts := strings.Split(strings.TrimPrefix(preview, "/"), "/") // survey, id, preview, lang, exp, sig
	var tx struct {
		Transactions []struct {
			TransactionUUID string `json:"transactionUuid"`
		} `json:"transactions"`
	}
	require.NoError(t, json.Unmarshal([]byte(s.api(http.MethodGet, "/api/v3/transactions/paged", "", "").Body), &tx))
	require.NotEmpty(t, tx.Transactions)
	var options []struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(s.api(http.MethodGet, "/api/v2/demo/redemptions/settings", "", "").Body), &options))
	require.NotEmpty(t, options)
	s.good = map[string]string{
		":version": "v1", ":instanceCode": "demo", ":campaignUuid": poll, ":qid": "morning_drink", ":x": poll,
		":level": "error", ":ns": "common", ":lng": "en", ":year": "2026", ":month": "11", ":inviteId": poll,
		":lang": parts[3], ":exp": parts[4], ":sig": parts[5], "*": "", ":code": "ACME-CASHBACK",
	}
	s.good[":id:transactions"] = tx.Transactions[0].TransactionUUID
	s.good[":id:redemptions"] = options[0].ID
	s.good[":id"] = poll
	// An unsubscribe link of the member, so its fields are swept past the link's check; a
	// picture key of the right shape that names no picture.
	holder := e.holderID(t, s.member.participantID(t))
	s.good[":panel"], s.good[":panelUuid:unsubscribe"], s.good[":accountHolderUuid"] = panel.ID, panel.ID, holder
	s.good[":hash"], s.good[":key"] = e.app.Profile.Service().UnsubscribeHash(panel.ID, holder), strings.Repeat("0", 64)
	s.rows = tableRows(t, e.db)
	return s
}

// routes are every route the app registered but the probes and assets.
func (s *sweep) routes() []sweepRoute {
	seen := map[string]bool{}
	var out []sweepRoute
	for _, r := range s.e.app.Fiber.GetRoutes(true) {
		if r.Method != http.MethodGet && r.Method != http.MethodPost {
			continue
		}
		path := routeParam.ReplaceAllString(r.Path, "")
		key := r.Method + " " + path
		if seen[key] || path == "/healthz" || path == "/readyz" || strings.HasPrefix(path, "/static") {
			continue
		}
		seen[key] = true
		sr := sweepRoute{method: r.Method, path: path, key: key}
		for _, seg := range strings.Split(path, "/") {
			if strings.HasPrefix(seg, ":") || seg == "*" {
				sr.params = append(sr.params, seg)
			}
		}
		sr.api = strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/ah/api/")
		sr.page = !sr.api
		out = append(out, sr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// target fills a route's path parameters with valid values, but one with override.
func (s *sweep) target(r sweepRoute, param, override string) string {
	segs := strings.Split(r.path, "/")
	for i, seg := range segs {
		if !strings.HasPrefix(seg, ":") && seg != "*" {
			continue
		}
		v := s.good[seg]
		if seg == ":id" && strings.Contains(r.path, "/transactions/") {
			v = s.good[":id:transactions"]
		} else if seg == ":id" && strings.Contains(r.path, "/redemptions/") {
			v = s.good[":id:redemptions"]
		} else if seg == ":panelUuid" && strings.HasPrefix(r.path, "/unsubscribe/") {
			v = s.good[":panelUuid:unsubscribe"]
		} else if seg == ":id" && strings.Contains(r.path, "/public/unsubscribe/") {
			v = s.good[":accountHolderUuid"]
		}
		if seg == param {
			v = override
		}
		segs[i] = url.PathEscape(v)
	}
	return strings.Join(segs, "/")
}

// client is who sends a request to the route: the member, or for a sign-out route a member
// signed in for this request only.
func (s *sweep) client(r sweepRoute) *client {
	if strings.Contains(r.path, "logout") {
		return s.e.member()
	}
	return s.member
}

func (s *sweep) api(method, target, contentType, body string) *response {
	h := http.Header{"pp-token": {s.token}}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	var rd *strings.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	if rd == nil {
		return s.member.do(method, target, nil, h)
	}
	return s.member.do(method, target, rd, h)
}

// send puts value v in field f of a request to route r.
func (s *sweep) send(counts *sweepCounts, r sweepRoute, f string, v hostile) {
	target := s.target(r, "", "")
	c := s.client(r)
	var res *response
	switch {
	case r.method == http.MethodGet:
		if v.text == "" {
			return
		}
		res = c.do(http.MethodGet, target+"?"+url.Values{f: {v.text}}.Encode(), nil, s.authFor(r, c))
	case r.api:
		if v.json == "" {
			return
		}
		h := s.authFor(r, c)
		h.Set("Content-Type", "application/json")
		res = c.do(http.MethodPost, target, strings.NewReader(`{"`+f+`":`+v.json+`}`), h)
	default:
		if v.text == "" {
			return
		}
		form := url.Values{f: {v.text}, "_csrf": {c.cookie("XSRF-TOKEN")}}
		h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Referer": {"http://" + c.host + target}}
		res = c.do(http.MethodPost, target, strings.NewReader(form.Encode()), h)
	}
	s.check(counts, r, fmt.Sprintf("%s %s=%s", r.key, f, v.name), res)
}

// sendPath puts value v in a path parameter of route r.
func (s *sweep) sendPath(counts *sweepCounts, r sweepRoute, param string, v hostile) {
	if v.text == "" || len(v.text) > maxSweepPath {
		return
	}
	target := s.target(r, param, v.text)
	c := s.client(r)
	var res *response
	switch {
	case r.method == http.MethodGet:
		res = c.do(http.MethodGet, target, nil, s.authFor(r, c))
	case r.api:
		h := s.authFor(r, c)
		h.Set("Content-Type", "application/json")
		res = c.do(http.MethodPost, target, strings.NewReader(`{}`), h)
	default:
		form := url.Values{"_csrf": {c.cookie("XSRF-TOKEN")}}
		res = c.do(http.MethodPost, target, strings.NewReader(form.Encode()), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
	}
	s.check(counts, r, fmt.Sprintf("%s %s=%s", r.key, param, v.name), res)
}

// maxSweepPath keeps path values within what a request line may hold.
const maxSweepPath = 1024

// sendBody sends a whole body of the wrong shape to an API post.
func (s *sweep) sendBody(counts *sweepCounts, r sweepRoute, b hostile) {
	c := s.client(r)
	h := s.authFor(r, c)
	h.Set("Content-Type", "application/json")
	res := c.do(http.MethodPost, s.target(r, "", ""), strings.NewReader(b.json), h)
	s.check(counts, r, fmt.Sprintf("%s body=%s", r.key, b.name), res)
}

// sendHeader sends value v in a header the app reads, to a page and to an API. A value the
// HTTP parser itself refuses (a NUL in a header) never reaches the app: the server answers
// 400 before routing, which the sweep counts as such.
func (s *sweep) sendHeader(counts *sweepCounts, name string, v hostile) {
	if v.text == "" || len(v.text) > maxSweepPath {
		return
	}
	for _, r := range []sweepRoute{{method: http.MethodGet, path: "/feed", key: "GET /feed", page: true}, {method: http.MethodGet, path: "/api/v3/user/balance", key: "GET /api/v3/user/balance", api: true}} {
		req, err := http.NewRequest(http.MethodGet, "http://localhost"+r.path, nil)
		require.NoError(s.t, err)
		for k, vals := range s.authFor(r, s.member) {
			req.Header[k] = vals
		}
		for _, ck := range s.member.jar.Cookies(&url.URL{Scheme: "http", Host: "localhost", Path: "/"}) {
			req.AddCookie(ck)
		}
		req.Header.Set(name, v.text)
		raw, err := s.e.app.Fiber.Test(req, fiber.TestConfig{Timeout: 20 * time.Second})
		if err != nil {
			require.Contains(s.t, err.Error(), "invalid header value", "%s header %s=%s", r.key, name, v.name)
			counts.requests++
			counts.status[http.StatusBadRequest]++
			continue
		}
		body, err := io.ReadAll(raw.Body)
		require.NoError(s.t, err)
		raw.Body.Close()
		s.check(counts, r, fmt.Sprintf("%s header %s=%s", r.key, name, v.name), &response{Response: raw, Body: string(body)})
	}
}

// authFor is the API's pp-token header of the client; pages use its cookies.
func (s *sweep) authFor(r sweepRoute, c *client) http.Header {
	if r.api {
		return http.Header{"pp-token": {c.cookie("pp-token")}}
	}
	return http.Header{}
}

// check holds every answer to the rules: never a 5xx; a refusal in the spec's error shape
// (an API), an error page or a redirect (a page); and a refused request writes no row.
func (s *sweep) check(counts *sweepCounts, r sweepRoute, what string, res *response) {
	t := s.t
	counts.requests++
	counts.status[res.StatusCode]++
	counts.answers[what] = res.StatusCode
	if r.path == "/maintenance" && res.StatusCode == http.StatusServiceUnavailable {
		return // the maintenance page says 503 by design
	}
	if !assert.Less(t, res.StatusCode, 500, "%s answered %d: %.300s", what, res.StatusCode, res.Body) {
		return
	}
	rows := tableRows(t, s.e.db)
	defer func() { s.rows = rows }()
	if refusedForm(res) {
		assert.Equal(t, s.rows, rows, "%s was sent back to its form and must write nothing", what)
		return
	}
	if res.StatusCode < 400 {
		return
	}
	assert.Equal(t, s.rows, rows, "%s was refused (%d) and must write nothing", what, res.StatusCode)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		var body struct {
			Name       string `json:"name"`
			Message    string `json:"message"`
			StatusCode int    `json:"statusCode"`
		}
		if assert.NoError(t, json.Unmarshal([]byte(res.Body), &body), "%s: %.300s", what, res.Body) {
			assert.Equal(t, "ClientError", body.Name, what)
			assert.Equal(t, res.StatusCode, body.StatusCode, what)
			assert.NotEmpty(t, strings.TrimSpace(body.Message), what)
			assert.NotContains(t, body.Message, "<no value>", what)
		}
		return
	}
	if r.api && res.StatusCode != http.StatusRequestEntityTooLarge {
		assert.Fail(t, "an API refusal is JSON", "%s answered %d %s: %.200s", what, res.StatusCode, res.Header.Get("Content-Type"), res.Body)
		return
	}
	if strings.Contains(res.Header.Get("Content-Type"), "text/html") {
		assert.NotContains(t, res.Body, "Unexpected Application Error", what)
		assert.NotContains(t, res.Body, "<no value>", what)
	}
}

// refusedForm: a form post sent back to its page with an error toast (a 303 setting the
// flash cookie to an error).
func refusedForm(res *response) bool {
	if res.StatusCode != http.StatusSeeOther {
		return false
	}
	for _, c := range res.Cookies() {
		if c.Name == "flash" && strings.HasPrefix(c.Value, "error") {
			return true
		}
	}
	return false
}
