package main

import "regexp"

// assetRE finds the stylesheets (href) and scripts (src) a page loads from /static/.
var assetRE = regexp.MustCompile(`<(?:link rel="stylesheet" (href)|script type="module" (?:src))="(/static/[^"]+)"`)
