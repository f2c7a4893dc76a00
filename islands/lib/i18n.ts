/**
 * Translations embedded by the server as a flat JSON object:
 *   <script type="application/json" id="i18n">{"survey.submit": "Send {count} answers"}</script>
 *
 * A key the page lacks is reported as i18next's saveMissing does (spec sections 4, 8 and 9):
 * POST /api/v1/translations/add/translation/{lng} with {key: fallback}, debounced 5 s, then
 * the language's resources are loaded again (GET /api/v1/translations/load/translation/{lng})
 * and fill in what the page lacked. Loads retry up to 5 times from 350 ms (doubling) when the
 * answer is a 5xx or none at all, never on a 4xx, with at most 10 loads in flight.
 */
let dict: Record<string, unknown> | null = null

export const REPORT_DEBOUNCE_MS = 5000
export const LOAD_RETRIES = 5
export const LOAD_FIRST_DELAY_MS = 350
export const MAX_PARALLEL_LOADS = 10
/** The server takes at most this many keys in one report. */
const MAX_KEYS_PER_REPORT = 50

function load(): Record<string, unknown> {
  if (!dict) {
    dict = {}
    try {
      const parsed: unknown = JSON.parse(document.getElementById('i18n')?.textContent || '{}')
      if (parsed && typeof parsed === 'object') dict = parsed as Record<string, unknown>
    } catch (err) {
      console.warn('[i18n] bad JSON', err)
    }
  }
  return dict
}

/**
 * Translates key, replacing {name} placeholders with vars.
 * A missing key falls back to `fallback`, else to the key itself, and is reported.
 */
export function t(key: string, vars?: Record<string, string | number>, fallback?: string): string {
  let s = lookup(key)
  if (s == null) {
    s = fallback ?? key
    reportMissing(key, s)
  }
  return vars ? s.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : s
}

/** The page's message for key (after a report, the reloaded language's), or undefined; never reports. */
export function lookup(key: string): string | undefined {
  const v = load()[key]
  return typeof v === 'string' ? v : undefined
}

/** The page's language: the server writes it on <html lang>. */
function pageLang(): string {
  return document.documentElement.lang || 'en'
}

let pending: Record<string, string> = {}
let reported = new Set<string>() // each key once per page
let timer: ReturnType<typeof setTimeout> | null = null

/**
 * Notes a key the page lacks (fallback: the text shown instead): each key once per page, all sent
 * together REPORT_DEBOUNCE_MS after the last new one, then the language reloads (flushMissing).
 * Islands with their own labels (the survey box) report through this too.
 */
export function reportMissing(key: string, fallback: string): void {
  if (reported.has(key)) return
  reported.add(key)
  pending[key] = fallback
  if (timer) clearTimeout(timer)
  timer = setTimeout(() => void flushMissing(), REPORT_DEBOUNCE_MS)
}

/**
 * Sends the keys missed since the last report, then loads the language again so they show
 * translated where the server has them. Resolves when done; failures are only logged.
 */
export async function flushMissing(): Promise<void> {
  if (timer) clearTimeout(timer)
  timer = null
  const keys = Object.keys(pending)
  if (!keys.length) return
  const missing = pending
  pending = {}
  const lng = pageLang()
  for (let i = 0; i < keys.length; i += MAX_KEYS_PER_REPORT) {
    const part: Record<string, string> = {}
    for (const k of keys.slice(i, i + MAX_KEYS_PER_REPORT)) part[k] = missing[k]
    try {
      await fetch(`/api/v1/translations/add/translation/${encodeURIComponent(lng)}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-App-Name': appName() },
        body: JSON.stringify(part),
      })
    } catch (err) {
      console.warn('[i18n] missing keys not reported', err)
    }
  }
  try {
    const loaded = await loadTranslations(lng)
    const d = load()
    // The page's own messages stay: they carry the server's placeholders for this page.
    for (const [k, v] of Object.entries(loaded)) if (!(k in d) && typeof v === 'string') d[k] = v
    document.dispatchEvent(new CustomEvent('i18n:loaded', { detail: { lng } }))
  } catch (err) {
    console.warn('[i18n] translations not reloaded', err)
  }
}

function appName(): string {
  return location.pathname.startsWith('/widgets/') ? 'widget' : 'web'
}

/** A load that failed for good: status is the last answer's (0: none came). */
export class TranslationLoadError extends Error {
  constructor(
    readonly lng: string,
    readonly status: number,
  ) {
    super(`translations for ${lng} not loaded (status ${status || 'none'})`)
    this.name = 'TranslationLoadError'
  }
}

let inFlight = 0
const waiting: Array<() => void> = []

/** Takes one of the MAX_PARALLEL_LOADS slots, waiting for one when all are taken. */
function acquire(): Promise<void> {
  if (inFlight < MAX_PARALLEL_LOADS) {
    inFlight++
    return Promise.resolve()
  }
  return new Promise((resolve) => waiting.push(resolve))
}

/** Hands the slot to the next waiting load, so no newcomer can take it in between. */
function release(): void {
  const next = waiting.shift()
  if (next) next()
  else inFlight--
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Loads every message of a language. 5xx answers and network failures are retried up to
 * LOAD_RETRIES times, waiting 350, 700, 1400 ... ms (a slot is not held while waiting); a 4xx
 * fails at once.
 */
export async function loadTranslations(lng: string, ns = 'translation'): Promise<Record<string, unknown>> {
  const url = `/api/v1/translations/load/${encodeURIComponent(ns)}/${encodeURIComponent(lng)}`
  for (let attempt = 0; ; attempt++) {
    let status = 0
    await acquire()
    try {
      const res = await fetch(url, { credentials: 'same-origin', headers: { 'X-App-Name': appName() } })
      status = res.status
      if (res.ok) return (await res.json()) as Record<string, unknown>
    } catch {
      // no status: the network failed, retryable
    } finally {
      release()
    }
    const retryable = status === 0 || status >= 500
    if (!retryable || attempt >= LOAD_RETRIES) throw new TranslationLoadError(lng, status)
    await sleep(LOAD_FIRST_DELAY_MS * 2 ** attempt)
  }
}

/** Forgets the cached translations and pending reports (tests, or after the server swaps #i18n). */
export function resetI18n(): void {
  dict = null
  pending = {}
  reported = new Set()
  if (timer) clearTimeout(timer)
  timer = null
}
