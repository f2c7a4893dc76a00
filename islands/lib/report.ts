/**
 * Client error reporter (spec sections 7 and 8), loaded by the base bundle's trap
 * (lib/report-trap) on a page's first error, never in development builds: uncaught errors, unhandled
 * rejections and console.error calls go to POST /api/v1/public/client/error as
 * {href, name, message, source, stack, lineno, colno} or, for console calls, {href, arguments}.
 *
 * Left out (section 8): network errors, aborted requests, "Script error." (another origin's
 * script, which tells nothing), errors of advertising and tag scripts and of browser
 * extensions, and 4xx answers (ClientError: the page shows those). An identical payload is
 * sent once per page, and a page sends at most MAX_REPORTS.
 *
 * Dependency-free (lib/headers only); a lazy chunk, so pages without errors never load it.
 */
import { appHeaders } from './headers'
import type { Trapped } from './report-trap'

export interface Report {
  href: string
  name?: string
  message?: string
  source?: string
  stack?: string
  lineno?: number
  colno?: number
  arguments?: string[]
}

/** A page stops reporting after this many: a loop must not flood the server. */
export const MAX_REPORTS = 10

/** Messages that are noise: the browser's wording for a failed or aborted fetch, a cross-origin script. */
const NOISE =
  /^(uncaught )?(script error\.?|failed to fetch|load failed|networkerror when attempting to fetch resource\.?|network request failed|the network connection was lost\.?|the (user|operation) (aborted a request|was aborted)\.?|signal is aborted without reason|attempt to duplicate request)$/i

/** Where advertising, tag and analytics scripts and browser extensions live. */
const FOREIGN =
  /googletagmanager\.com|google-analytics\.com|googlesyndication\.com|googleadservices\.com|doubleclick\.net|adservice\.google|\/gtag\/js|\/gtm\.js|connect\.facebook\.net|fbevents\.js|(chrome|moz|safari(-web)?)-extension:\/\//i

/** Tells whether a report is noise the spec says not to send. */
export function ignored(r: Report): boolean {
  if (r.name === 'AbortError' || r.name === 'ClientError') return true
  const text = (r.message ?? r.arguments?.join(' ') ?? '').trim()
  if (NOISE.test(text)) return true
  return FOREIGN.test(r.source ?? '') || FOREIGN.test(r.stack ?? '')
}

// The server's bounds (modules/clientreports/payload.go); clipped here so no report is refused.
const BOUNDS: Record<string, number> = { href: 2048, name: 200, message: 2000, source: 2048, stack: 8000 }
const MAX_ARGS = 20
const MAX_ARGS_BYTES = 8000

// Characters the server's input rule refuses (controls but tab and line breaks, DEL, C1,
// bidirectional overrides and isolates): replaced, so the report still goes.
// eslint-disable-next-line no-control-regex
const REFUSED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** Cleans a text and cuts it to max characters, never inside a surrogate pair. */
export function clip(s: string, max: number): string {
  s = s.replace(REFUSED, '\ufffd')
  if (s.length <= max) return s
  return Array.from(s).slice(0, max).join('')
}

function text(v: unknown): string {
  if (v instanceof Error) return `${v.name}: ${v.message}${v.stack ? '\n' + v.stack : ''}`
  if (typeof v === 'string') return v
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

/** The report of a thrown value or rejection reason. */
export function fromError(err: unknown, extra: Partial<Report> = {}): Report {
  const e = err instanceof Error ? err : undefined
  return {
    href: location.href,
    name: e?.name,
    message: e ? e.message : text(err),
    stack: e?.stack,
    ...extra,
  }
}

/** The report of a console call: its arguments as texts. */
export function fromConsole(args: unknown[]): Report {
  return { href: location.href, arguments: args.slice(0, MAX_ARGS).map((a) => clip(text(a), 1000)) }
}

function clipped(r: Report): Report {
  const out: Report = { ...r }
  for (const k of Object.keys(BOUNDS) as (keyof Report)[]) {
    const v = out[k]
    if (typeof v === 'string') (out as unknown as Record<string, string>)[k] = clip(v, BOUNDS[k])
  }
  const args = out.arguments
  if (args) {
    const bytes = (a: string[]) => new TextEncoder().encode(JSON.stringify(a)).length
    while (args.length > 1 && bytes(args) > MAX_ARGS_BYTES) args.pop()
    if (bytes(args) > MAX_ARGS_BYTES) args[0] = clip(args[0], 1000)
  }
  return out
}

export interface Reporter {
  /** Sends r unless it is noise, was sent before from this page, or the page sent enough. */
  report(r: Report): boolean
}

export function createReporter(send: (body: string) => void): Reporter {
  const sent = new Set<string>()
  return {
    report(r) {
      if (ignored(r) || sent.size >= MAX_REPORTS) return false
      const body = JSON.stringify(clipped(r))
      if (sent.has(body)) return false
      sent.add(body)
      send(body)
      return true
    },
  }
}

/** Posts a report; a failure to report is dropped (never reported, never logged). */
export function post(body: string): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  for (const [k, v] of Object.entries(appHeaders())) if (v) headers[k] = v
  fetch('/api/v1/public/client/error', { method: 'POST', headers, body, credentials: 'same-origin', keepalive: true }).catch(() => {})
}

/** The report of what the trap caught. */
function toReport(t: Trapped): Report {
  switch (t.kind) {
    case 'error': {
      const e = t.event
      return fromError(e.error ?? e.message, { message: e.error?.message ?? e.message, source: e.filename, lineno: e.lineno, colno: e.colno })
    }
    case 'rejection':
      return fromError(t.reason)
    default:
      return fromConsole(t.args)
  }
}

/**
 * The reporter the trap (lib/report-trap) loads on the page's first error: it reports what the
 * trap caught. A console.error raised while reporting is not reported again.
 */
export function handler(send: (body: string) => void = post): (t: Trapped) => void {
  const r = createReporter(send)
  let busy = false
  return (t) => {
    if (busy) return
    busy = true
    try {
      r.report(toReport(t))
    } finally {
      busy = false
    }
  }
}
