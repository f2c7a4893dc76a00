// Package static holds the files served under /static/: the Vite build of islands/ (dist/),
// hand-written stylesheets (css/) and images (img/).
package static

import "embed"

// FS is every static file, rooted at this folder: "dist/assets/main-x.js" is served as
// "/static/dist/assets/main-x.js". dist/ holds only a .gitignore until `npm run build`
// (hence all:, which also embeds dist/.vite/manifest.json).
//
//go:embed all:dist css img
var FS embed.FS
