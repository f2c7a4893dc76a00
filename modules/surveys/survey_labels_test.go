package surveys

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The island fills {Name} placeholders itself: a label whose field the server does not leave
// as a placeholder would reach members as "<no value>".
func TestEverySurveyBoxLabelReachesTheIslandTranslatedWithItsPlaceholders(t *testing.T) {
	t.Parallel()
	kit := testKit(t)
	for _, lang := range []string{"en", "es", "ru", "zh"} {
		for _, key := range surveyLabelKeys {
			text := kit.Locales.ClientTemplate(lang, key)
			assert.NotContains(t, text, "<no value>", "%s %s", lang, key)
			assert.NotContains(t, text, "{{", "%s %s", lang, key)
			assert.False(t, text == "" || text == key || strings.HasPrefix(text, key), "%s %s is not translated: %q", lang, key, text)
		}
	}
}
