package surveys

import (
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// questionHTML is the policy for a question's rich text (Question.html): text formatting,
// lists, headings, https links (opened in a new tab, rel noopener) and https images. Nothing
// that runs or styles: no script, no event handler, no style or class, no iframe or form.
var questionHTML = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "strong", "b", "em", "i", "u", "s", "small", "sub", "sup", "ul", "ol", "li",
		"h3", "h4", "h5", "h6", "blockquote", "hr", "span", "abbr")
	p.AllowAttrs("title").OnElements("abbr")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("https", "mailto")
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(false)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowImages()
	return p
})

// SanitizeHTML keeps only the safe part of an author's rich text (the policy above); the
// survey box shows the result as HTML, with and without JavaScript.
func SanitizeHTML(s string) string {
	if s == "" {
		return ""
	}
	return questionHTML().Sanitize(s)
}
