/**
 * Island loader.
 *
 * The server renders, for every interactive piece:
 *
 *   <div data-island="survey-box">
 *     …server-rendered fallback that works without JS…
 *     <script type="application/json" id="survey-box-props">{"surveyId": 42}</script>
 *   </div>
 *
 * On DOMContentLoaded and after every htmx:load / htmx:afterSwap / htmx:historyRestore the
 * loader finds every [data-island] it has not handled yet, parses the JSON props (the first
 * direct <script type="application/json"> child; {} when absent), imports the island's chunk
 * (registered in ./registry.ts) and calls mount(el, props), which replaces the fallback. The
 * returned function is called on htmx:beforeCleanupElement.
 *
 * While it works it sets data-island-state="loading" | "mounted" | "failed" on the element
 * (handy for CSS; the server never renders it).
 *
 * Loading a chunk follows the spec's rules for script chunks (sections 8 and 9): each load may
 * take SCRIPT_TIMEOUT_MS (120 s); one that fails or times out is retried once, cache-busted;
 * when the retry fails too the island keeps its server fallback (which works without
 * JavaScript) and, for a chunk of our own origin, the page reloads once with ?refresh=<time>.
 */

export interface IslandModule {
  /** Replaces the server fallback inside el with the live island; returns an unmount function. */
  mount(el: HTMLElement, props: unknown): () => void
}

export type Importer = () => Promise<IslandModule>

export interface LoaderOptions {
  /** How to reload the page after a chunk failed twice (default: location.replace). */
  reload?: (url: string) => void
}

/** How long one load of an island's script may take before it counts as failed (spec: 120 s). */
export const SCRIPT_TIMEOUT_MS = 120_000

/** p, or an error once SCRIPT_TIMEOUT_MS have passed without it settling. */
function withTimeout<T>(name: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    p,
    new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`[island] ${name}: script load timed out`)), SCRIPT_TIMEOUT_MS)
    }),
  ]).finally(() => clearTimeout(timer))
}

/**
 * The island's chunk URL as the page preloads it (<link rel="modulepreload"> of
 * static/dist/assets/island-<name>-<hash>.js), for a cache-busted retry when the failed load
 * gave no URL (a timeout; Safari's messages). Island names are never the start of another's.
 */
export function preloadedChunkURL(name: string): string | null {
  const link = document.querySelector<HTMLLinkElement>(`link[rel="modulepreload"][href*="/island-${name}-"]`)
  return link ? link.href : null
}

const islands: Record<string, Importer> = {}

/** Registers an island chunk; call from registry.ts: register('x', () => import('./x')). */
export function register(name: string, importer: Importer): void {
  islands[name] = importer
}

type State = {
  status: 'loading' | 'mounted' | 'failed'
  /** The server HTML (fallback + props) before mount, for htmx history snapshots. */
  html: string
  unmount?: () => void
}

const states = new WeakMap<HTMLElement, State>()
const modules = new Map<string, Promise<IslandModule | null>>()
const SELECTOR = '[data-island]'
const SAVED_ATTR = 'data-island-html'
let options: LoaderOptions = {}
let started = false
let reloading = false

function setState(el: HTMLElement, st: State | undefined): void {
  if (st) {
    states.set(el, st)
    el.setAttribute('data-island-state', st.status)
  } else {
    states.delete(el)
    el.removeAttribute('data-island-state')
  }
}

/** The chunk URL named in a failed dynamic import's message (Chromium and Firefox name it; Safari does not). */
export function chunkURL(err: unknown): string | null {
  const msg = err instanceof Error ? err.message : String(err)
  const m = /(https?:\/\/[^\s'"]+?\.m?js)\b/.exec(msg)
  return m ? m[1] : null
}

/**
 * Reloads the page once with ?refresh=<timestamp>. Never loops: if the URL already carries
 * a refresh parameter (we reloaded before) it does nothing and returns false.
 */
export function reloadOnce(): boolean {
  if (reloading) return false
  const url = new URL(location.href)
  if (url.searchParams.has('refresh')) return false
  url.searchParams.set('refresh', String(Date.now()))
  reloading = true
  ;(options.reload ?? ((u: string) => location.replace(u)))(url.href)
  return true
}

async function importWithRetry(name: string, importer: Importer): Promise<IslandModule | null> {
  try {
    return await withTimeout(name, importer())
  } catch (err) {
    const url = chunkURL(err) ?? preloadedChunkURL(name)
    console.warn(`[island] ${name}: load failed, retrying`, err)
    try {
      if (url) {
        const busted = url + (url.includes('?') ? '&' : '?') + 'v=' + Date.now()
        return await withTimeout(name, import(/* @vite-ignore */ busted) as Promise<IslandModule>)
      }
      return await withTimeout(name, importer())
    } catch (err2) {
      console.error(`[island] ${name}: load failed`, err2)
      if (!url || new URL(url, location.href).origin === location.origin) reloadOnce()
      return null
    }
  }
}

function loadModule(name: string, importer: Importer): Promise<IslandModule | null> {
  let p = modules.get(name)
  if (!p) {
    p = importWithRetry(name, importer).then((mod) => {
      if (!mod) modules.delete(name)
      return mod
    })
    modules.set(name, p)
  }
  return p
}

function readProps(el: HTMLElement, name: string): { ok: boolean; props: unknown } {
  const script = el.querySelector(':scope > script[type="application/json"]')
  if (!script) return { ok: true, props: {} }
  try {
    return { ok: true, props: JSON.parse(script.textContent || 'null') }
  } catch (err) {
    console.error(`[island] ${name}: bad props JSON`, err)
    return { ok: false, props: undefined }
  }
}

/** Mounts one island element (no-op if it is already loading, mounted or failed). */
export async function mountIsland(el: HTMLElement): Promise<void> {
  if (states.has(el)) return
  const name = el.dataset.island || ''

  // Restored from an htmx history snapshot: put the server HTML back before mounting.
  const saved = el.getAttribute(SAVED_ATTR)
  if (saved !== null) {
    el.removeAttribute(SAVED_ATTR)
    el.innerHTML = saved
  }

  const st: State = { status: 'loading', html: el.innerHTML }
  const importer = islands[name]
  if (!importer) {
    console.warn(`[island] ${name}: unknown island, keeping fallback`)
    setState(el, { ...st, status: 'failed' })
    return
  }
  const { ok, props } = readProps(el, name)
  if (!ok) {
    setState(el, { ...st, status: 'failed' })
    return
  }
  setState(el, st)

  const mod = await loadModule(name, importer)
  if (states.get(el) !== st) return // cleaned up while loading
  if (!mod || typeof mod.mount !== 'function') {
    if (mod) console.error(`[island] ${name}: no mount()`)
    setState(el, { ...st, status: 'failed' })
    return
  }
  try {
    const unmount = mod.mount(el, props)
    setState(el, { ...st, status: 'mounted', unmount })
  } catch (err) {
    console.error(`[island] ${name}: mount failed`, err)
    setState(el, { ...st, status: 'failed' })
  }
}

/** Mounts every not-yet-handled island in root (root included). Resolves when all are settled. */
export function mountAll(root: ParentNode = document): Promise<void> {
  const els: HTMLElement[] = []
  if (root instanceof HTMLElement && root.matches(SELECTOR)) els.push(root)
  root.querySelectorAll<HTMLElement>(SELECTOR).forEach((el) => els.push(el))
  return Promise.all(els.map(mountIsland)).then(() => undefined)
}

/** Calls the island's unmount function and forgets it. */
export function unmountIsland(el: HTMLElement): void {
  const st = states.get(el)
  if (!st) return
  setState(el, undefined)
  if (st.unmount) {
    try {
      st.unmount()
    } catch (err) {
      console.error(`[island] ${el.dataset.island}: unmount failed`, err)
    }
  }
}

/**
 * Puts each mounted island's server HTML on it for the htmx history snapshot that is taken right
 * after this event (synchronously), so a restored page can be re-mounted; removed again after.
 */
function beforeHistorySave(): void {
  document.querySelectorAll<HTMLElement>(SELECTOR).forEach((el) => {
    const st = states.get(el)
    if (st?.status === 'mounted') {
      el.setAttribute(SAVED_ATTR, st.html)
      queueMicrotask(() => el.removeAttribute(SAVED_ATTR))
    }
  })
}

export function configureLoader(opts: LoaderOptions): void {
  options = opts
}

/** Wires the loader to the document and htmx events (idempotent). */
export function startLoader(opts: LoaderOptions = {}): void {
  configureLoader(opts)
  if (started) return
  started = true
  const scanAll = () => void mountAll(document)
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scanAll)
  else scanAll()
  document.addEventListener('htmx:load', (e) => {
    const t = e.target
    void mountAll(t instanceof HTMLElement && t.isConnected ? t : document)
  })
  document.addEventListener('htmx:afterSwap', scanAll)
  document.addEventListener('htmx:historyRestore', scanAll)
  document.addEventListener('htmx:beforeHistorySave', beforeHistorySave)
  document.addEventListener('htmx:beforeCleanupElement', (e) => {
    if (e.target instanceof HTMLElement) unmountIsland(e.target)
  })
}
