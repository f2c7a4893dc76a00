// Package locales embeds the go-i18n message files, one per language (en, es, ru, zh).
package locales

import "embed"

//go:embed *.yaml
var FS embed.FS
