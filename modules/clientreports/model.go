package clientreports

import "time"

// Error is one distinct error of a panel (its fingerprint): what it says as first reported,
// how often it came and when.
type Error struct {
	ID          string `gorm:"primaryKey"`
	PanelID     string
	Fingerprint string
	Level       string
	Name        string
	Message     string
	Source      string
	Lineno      int
	Colno       int
	Stack       string
	Arguments   string // a console call's arguments as JSON, "" for an error
	Count       int64
	FirstSeenAt time.Time
	LastSeenAt  time.Time
}

func (Error) TableName() string { return "client_errors" }

// Hour counts one error's reports in one hour (UTC), for windows such as "the last 24 hours".
type Hour struct {
	ErrorID string    `gorm:"primaryKey"`
	Hour    time.Time `gorm:"primaryKey"`
	Count   int64
}

func (Hour) TableName() string { return "client_error_hours" }

// Report is a kept sample of an error: who reported it, where, with which browser and app.
type Report struct {
	ID             string `gorm:"primaryKey"`
	ErrorID        string
	PanelID        string
	ParticipantID  *string
	RequestID      string
	Level          string
	Href           string
	UserAgent      string
	AppName        string
	AppLang        string
	ViewportWidth  int
	ViewportHeight int
	DPR            float64 `gorm:"column:dpr"`
	NativeApp      string
	CreatedAt      time.Time
}

func (Report) TableName() string { return "client_reports" }

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Error{}, &Hour{}, &Report{}} }
