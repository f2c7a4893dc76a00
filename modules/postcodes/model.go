package postcodes

import (
	"strings"
	"time"
	"unicode"
)

// Place is one postcode a panel offers to its location questions.
type Place struct {
	PanelID string `gorm:"primaryKey"`
	// ID is the importer's stable id; it is what a location answer stores.
	ID       string `gorm:"primaryKey"`
	Postcode string // as written ("SW1A 1AA")
	// Normalized is Normalize(Postcode): what a typed postcode is compared with.
	Normalized string
	Label      string // what a member reads ("SW1A 1AA, Westminster, London")
	Locality   string
	Region     string
	// Words is the label's words, lower-cased, each with a space before it, for word-prefix search.
	Words     string
	UpdatedAt time.Time
}

func (Place) TableName() string { return "postcodes" }

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&Place{}} }

// Normalize is a postcode's searchable form: upper-cased, without any white space. The
// location control sends the same form as the id of a postcode it could not look up.
func Normalize(s string) string {
	return strings.ToUpper(strings.Join(strings.Fields(s), ""))
}

// words is s lower-cased and split at anything but letters and digits, each word with a
// space before it and one space at the end (" sw1a 1aa westminster london "), so that
// LIKE '% term%' finds a word that starts with term.
func words(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(f) == 0 {
		return ""
	}
	return " " + strings.Join(f, " ") + " "
}
