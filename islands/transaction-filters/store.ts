/**
 * Transactions filter state (spec "Transactions filter") and its rules, as plain functions over
 * the signals: no fetching, no DOM. index.tsx renders it and loads results when it changes.
 */
import { batch, signal, type Signal } from '@preact/signals-react'

export const MOST_RECENT = 'MOST_RECENT'

export interface TxStore {
  /** The filter values the server offers (MOST_RECENT is always allowed). */
  readonly filters: readonly string[]
  currentFilter: Signal<string>
  /** The member's dates (YYYY-MM-DD or ''). */
  after: Signal<string>
  before: Signal<string>
  /** What the dates mean as bounds: after as is, the day after before (before is inclusive). */
  afterFilter: Signal<string>
  beforeFilter: Signal<string>
  page: Signal<number>
  pageSize: Signal<number>
  loading: Signal<boolean>
  error: Signal<string>
}

/** Where the state comes from: the island props or the page URL's query (all optional, untrusted). */
export interface Init {
  filter?: unknown
  after?: unknown
  before?: unknown
  page?: unknown
  pageSize?: unknown
}

/**
 * v (YYYY-MM-DD; YYYY-M-D accepted) as YYYY-MM-DD, moved by days (UTC calendar arithmetic);
 * '' for an empty value, null when v is not a calendar date.
 */
export function calendarDay(v: unknown, days = 0): string | null {
  if (v === '' || v == null) return ''
  const m = typeof v === 'string' ? /^(\d{4})-(\d\d?)-(\d\d?)$/.exec(v) : null
  if (!m) return null
  const d = new Date(0)
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3])
  if (d.getUTCMonth() !== +m[2] - 1 || d.getUTCDate() !== +m[3]) return null
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

const positive = (v: unknown, fallback: number): number => {
  const n = Number(v)
  return Number.isInteger(n) && n > 0 ? n : fallback
}

const known = (s: TxStore, v: unknown): string =>
  typeof v === 'string' && s.filters.includes(v) ? v : MOST_RECENT

function putDate(date: Signal<string>, bound: Signal<string>, v: unknown, days: number): void {
  date.value = calendarDay(v) ?? ''
  bound.value = calendarDay(date.value, days)!
}

export function createStore(init: Init = {}, filters: readonly string[] = []): TxStore {
  const s: TxStore = {
    filters,
    currentFilter: signal(MOST_RECENT),
    after: signal(''),
    before: signal(''),
    afterFilter: signal(''),
    beforeFilter: signal(''),
    page: signal(1),
    pageSize: signal(positive(init.pageSize, 10)),
    loading: signal(false),
    error: signal(''),
  }
  assign(s, init)
  return s
}

/** Takes filter, dates and page from init (props or the URL query); bad values become the defaults. */
export function assign(s: TxStore, init: Init): void {
  batch(() => {
    s.currentFilter.value = known(s, init.filter)
    putDate(s.after, s.afterFilter, init.after, 0)
    putDate(s.before, s.beforeFilter, init.before, 1)
    s.page.value = positive(init.page, 1)
  })
}

/** Another filter clears the dates and goes back to page 1; the current one changes nothing. */
export function setFilter(s: TxStore, v: string): void {
  const f = known(s, v)
  if (f !== s.currentFilter.value) {
    batch(() => {
      s.currentFilter.value = f
      clearDates(s)
    })
  }
}

function setDate(s: TxStore, v: string, date: Signal<string>, bound: Signal<string>, days: number): void {
  if (calendarDay(v) === null) return // not a date: ignored
  batch(() => {
    putDate(date, bound, v, days)
    s.page.value = 1
  })
}

/** Sets (or with '' clears) the from date; page 1. */
export const setAfter = (s: TxStore, v: string): void => setDate(s, v, s.after, s.afterFilter, 0)

/** Sets (or with '' clears) the until date, filtering before the day after it; page 1. */
export const setBefore = (s: TxStore, v: string): void => setDate(s, v, s.before, s.beforeFilter, 1)

export function clearDates(s: TxStore): void {
  batch(() => {
    s.after.value = s.afterFilter.value = s.before.value = s.beforeFilter.value = ''
    s.page.value = 1
  })
}

export function nextPage(s: TxStore): void {
  s.page.value++
}

export function prevPage(s: TxStore): void {
  s.page.value = Math.max(1, s.page.value - 1)
}

/** Back to MOST_RECENT, no dates, page 1. */
export function reset(s: TxStore): void {
  batch(() => {
    s.currentFilter.value = MOST_RECENT
    clearDates(s)
  })
}

/**
 * The page URL's query: filter (not when MOST_RECENT), after, before (the member's own date: the
 * server applies the day-after rule itself, for the no-JS form too), page (not when 1).
 */
export function pageQuery(s: TxStore): URLSearchParams {
  const q = new URLSearchParams()
  if (s.currentFilter.value !== MOST_RECENT) q.set('filter', s.currentFilter.value)
  if (s.after.value) q.set('after', s.after.value)
  if (s.before.value) q.set('before', s.before.value)
  if (s.page.value > 1) q.set('page', String(s.page.value))
  return q
}
