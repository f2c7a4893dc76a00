// `make dev`: re-bundles the islands as they are saved (Vite's watch mode, both builds, into
// static/dist, which the server reads from disk under CANVASS_STATIC_DIR) and asks templ's
// live-reload proxy to reload the open tabs once a bundle is written or a stylesheet or image
// is saved. templ itself reloads them for .templ and .go changes.
import { watch } from 'node:fs'
import { build } from 'vite'

const port = process.env.CANVASS_DEV_PROXY_PORT || '7331'
const event = `http://127.0.0.1:${port}/_templ/reload/event`

let timer
/** Reloads the tabs once for a burst of changes (an editor's save is often several writes). */
function reload(why) {
  clearTimeout(timer)
  timer = setTimeout(() => {
    fetch(event, { method: 'POST' }).then(
      () => console.log(`[dev] reloaded the tabs: ${why}`),
      () => console.log(`[dev] templ's proxy is not up yet (${why})`),
    )
  }, 60)
}

for (const configFile of ['vite.config.ts', 'vite.console.config.ts']) {
  const watcher = await build({ configFile, logLevel: 'warn', build: { watch: {} } })
  let first = true
  watcher.on('event', (e) => {
    if (e.code === 'ERROR') console.error(`[dev] ${configFile}: ${e.error.message}`)
    if (e.code !== 'BUNDLE_END') return
    e.result.close()
    if (first) {
      first = false // the build at start: nothing the tabs have not got
      return
    }
    reload(`islands re-bundled (${configFile})`)
  })
}

for (const dir of ['static/css', 'static/img']) {
  watch(dir, { recursive: true }, (_, file) => reload(`${dir}/${file}`))
}
console.log('[dev] watching islands/, static/css and static/img')
