package webhooks

import (
	"slices"
	"strings"
	"time"
)

// Webhook is one of a panel's receivers: an https URL sent the events it wants, signed with
// its secret (sealed at rest, bound to the webhook's id).
type Webhook struct {
	ID           string `gorm:"primaryKey"`
	PanelID      string
	URL          string
	SecretSealed string
	Events       string // space-separated, in Events' order
	Active       bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

func (Webhook) TableName() string { return "webhooks" }

// EventList is the webhook's events, in Events' order.
func (w *Webhook) EventList() []string { return strings.Fields(w.Events) }

// Wants tells whether the webhook is sent event.
func (w *Webhook) Wants(event string) bool { return slices.Contains(w.EventList(), event) }

// Delivery is one event sent (or to send) to one webhook. Its id is the event's id, the same
// on every attempt and every "Send again" (Canvass-Event-Id): receivers drop one they have seen.
type Delivery struct {
	ID              string `gorm:"primaryKey"`
	WebhookID       string
	PanelID         string
	Event           string
	ParticipationID string
	CampaignID      string
	Status          string
	// Seq is the delivery's current job: "Send again" bumps it, and a job queued for another
	// seq does nothing.
	Seq           int
	Attempts      int
	LastStatus    *int // the receiver's HTTP status; nil before an answer
	LastLatencyMS *int
	LastError     string // short: the status, a timeout, a refused connection
	LastAttemptAt *time.Time
	// RetryUntil is when the delivery stops being retried and is marked failed: a day after
	// the event, or after the operator's "Send again".
	RetryUntil  time.Time
	CreatedAt   time.Time
	DeliveredAt *time.Time
}

func (Delivery) TableName() string { return "webhook_deliveries" }

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Webhook{}, &Delivery{}} }

// The events a webhook may want: a participation that ended so.
const (
	EventCompleted = "participation.completed"
	EventScreened  = "participation.screened"
	EventQuotaFull = "participation.quota_full"
)

// Events lists every event, in the order pages and the API show them.
var Events = []string{EventCompleted, EventScreened, EventQuotaFull}

// A delivery's status.
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusFailed    = "failed"
)

// Statuses lists every delivery status.
var Statuses = []string{StatusPending, StatusDelivered, StatusFailed}
