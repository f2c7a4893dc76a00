// Package events records the tracking events clients send (app load, END_OF_FEED_REACHED)
// through the spec's tracking image, GET {instance}/api/v1/{code}/events/record.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/canvass/canvass/modules/clientreports/appclient"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Event is one recorded client event.
type Event struct {
	ID            string `gorm:"primaryKey"`
	PanelID       string
	ParticipantID *string
	Name          string
	Data          string // the eventData JSON object as sent
	// The spec's request conventions (section 7), when the client sent them: a tracking image
	// sends no custom headers, a native app's call may.
	AppName        string
	AppLang        string
	ViewportWidth  int
	ViewportHeight int
	DPR            float64 `gorm:"column:dpr"`
	NativeApp      string
	CreatedAt      time.Time
}

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Event{}} }

// Event names the app sends: the app's load (the tracking image of every page a visit enters
// the app by) and the end of the feed.
const (
	AppLoad          = "APP_LOAD"
	EndOfFeedReached = "END_OF_FEED_REACHED"
)

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

const maxData = 2 << 10

type Module struct {
	db  *gorm.DB
	now func() time.Time
}

func New(db *gorm.DB) *Module { return &Module{db: db, now: time.Now} }

// Routes lists the tracking endpoint.
func (m *Module) Routes(r fiber.Router) {
	r.Get("/api/v1/:instanceCode/events/record", web.InstanceGuard, m.record)
}

// pixel is a 1x1 transparent GIF: the response of a tracking image.
var pixel = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// GET /api/v1/{code}/events/record?eventName=&eventData={json}&pp-token=&pp-panel=
// The member comes from the pp-token (query, header or cookie); pp-panel, when sent, must be
// the panel of the host, so one tenant's page never records into another's.
func (m *Module) record(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	if key := c.Query("pp-panel"); key != "" && key != panel.Key {
		return web.NotFound()
	}
	name := c.Query("eventName")
	if !nameRE.MatchString(name) {
		return web.Invalid("eventName", "error.event_name", nil)
	}
	data := c.Query("eventData")
	if data == "" {
		data = "{}"
	}
	if len(data) > maxData {
		return web.Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(data), &obj); err != nil || obj == nil {
		return web.Invalid("eventData", "error.malformed_json", nil)
	}
	var who *string
	if mem := web.MemberOf(c); mem != nil {
		who = &mem.ParticipantID
	}
	cl := appclient.Read(c)
	e := Event{PanelID: panel.ID, ParticipantID: who, Name: name, Data: data, AppName: cl.Name, AppLang: cl.Lang,
		ViewportWidth: cl.ViewportWidth, ViewportHeight: cl.ViewportHeight, DPR: cl.DPR, NativeApp: cl.Native}
	if err := m.store(c.Context(), e); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, "image/gif")
	return c.Send(pixel)
}

// Record stores one event.
func (m *Module) Record(ctx context.Context, panelID string, participantID *string, name, data string) error {
	return m.store(ctx, Event{PanelID: panelID, ParticipantID: participantID, Name: name, Data: data})
}

func (m *Module) store(ctx context.Context, e Event) error {
	e.ID, e.CreatedAt = uuid.NewString(), m.now().UTC()
	if err := m.db.WithContext(ctx).Create(&e).Error; err != nil {
		return fmt.Errorf("record event %s: %w", e.Name, err)
	}
	return nil
}

// Recent lists a panel's latest events of one name, newest first (operators, tests).
func (m *Module) Recent(ctx context.Context, panelID, name string, limit int) ([]Event, error) {
	var out []Event
	err := m.db.WithContext(ctx).Where("panel_id = ? AND name = ?", panelID, name).Order("created_at DESC, id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list events %s: %w", name, err)
	}
	return out, nil
}
