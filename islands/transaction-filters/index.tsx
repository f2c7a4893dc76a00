/**
 * Transaction filters on /transactions: filter tabs and dates above the server-rendered results
 * (#tx-results). Every change the member makes (and the results' prev/next links) loads the
 * results page as HTML into the target and pushes its URL; back/forward restores the state from
 * the URL. The server's no-JS form uses the same URLs, so both share one set of rules.
 */
import { useSignals } from '@preact/signals-react/runtime'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import * as S from './store'

interface Option {
  value: string
  label: string
}

const LABELS = {
  legend: 'Show',
  after: 'From',
  before: 'Until',
  clearDates: 'Clear dates',
  reset: 'Reset filters',
  loading: 'Loading',
  loadFailed: 'Transactions could not be loaded. Please try again.',
}
type Labels = typeof LABELS

export interface Props extends S.Init {
  /** The results page URL (path), e.g. /transactions. */
  action?: string
  /** The id of the results element. */
  target?: string
  filters?: Option[]
  labels?: Partial<Labels>
  /** Milliseconds a date must stay unchanged before it loads (typing a year is a valid date at every digit). */
  dateDelay?: number
}

interface ViewProps {
  s: S.TxStore
  action: string
  filters: Option[]
  l: Labels
  /** Runs a store action; loads the results when it changed the state (after delay ms). */
  change(fn: () => void, push?: boolean, delay?: number): void
  /** Loads the results for the current state again. */
  reload(): void
}

/** A labelled date input; limits keep the from date before the until date. */
function dateField(name: 'after' | 'before', label: string, value: string, limits: { min?: string; max?: string }, set: (v: string) => void) {
  return (
    <>
      <label htmlFor={'tx-' + name}>{label}</label>
      <input type="date" id={'tx-' + name} name={name} value={value} {...limits} onChange={(e) => set(e.target.value)} />
    </>
  )
}

function TransactionFilters({ s, action, filters, l, change, reload, dateDelay }: ViewProps & { dateDelay: number }) {
  useSignals()
  const cur = s.currentFilter.value
  const a = s.after.value
  const b = s.before.value
  const error = s.error.value
  return (
    <form
      className="tx-filters"
      action={action}
      method="get"
      onSubmit={(e) => {
        e.preventDefault()
        reload()
      }}
    >
      <fieldset className="tx-tabs">
        <legend>{l.legend}</legend>
        {filters.map((f) => (
          <label key={f.value} className={f.value === cur ? 'tx-tab active' : 'tx-tab'}>
            <input
              type="radio"
              name="filter"
              value={f.value}
              checked={f.value === cur}
              onChange={() => change(() => S.setFilter(s, f.value))}
            />
            {f.label}
          </label>
        ))}
      </fieldset>
      <div className="tx-dates">
        {dateField('after', l.after, a, { max: b || undefined }, (v) => change(() => S.setAfter(s, v), true, dateDelay))}
        {dateField('before', l.before, b, { min: a || undefined }, (v) => change(() => S.setBefore(s, v), true, dateDelay))}
        {a || b ? (
          <button
            type="button"
            className="button-link"
            onClick={() => {
              change(() => S.clearDates(s))
              document.getElementById('tx-after')?.focus() // the button goes away
            }}
          >
            {l.clearDates}
          </button>
        ) : null}
      </div>
      <button type="button" className="button-link" onClick={() => change(() => S.reset(s))}>
        {l.reset}
      </button>
      {s.loading.value ? (
        <span className="spinner" role="status">
          <span className="dot" />
          <span className="dot" />
          <span className="dot" />
          <span className="visually-hidden">{l.loading}</span>
        </span>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  )
}

export function mount(el: HTMLElement, props: unknown): () => void {
  const p = (props ?? {}) as Props
  const filters = (Array.isArray(p.filters) ? p.filters : []).filter((f) => typeof f?.value == 'string')
  const action = p.action || location.pathname
  const path = new URL(action, location.href).pathname
  const l: Labels = { ...LABELS, ...p.labels }
  const s = S.createStore(p, filters.map((f) => f.value))
  const target = () => document.getElementById(p.target || 'tx-results')
  let ctrl: AbortController | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  // The query of the results last asked for: a change that comes back to it loads nothing.
  let shown = S.pageQuery(s).toString()
  const dateDelay = typeof p.dateDelay == 'number' ? p.dateDelay : 400

  async function load(push: boolean): Promise<void> {
    clearTimeout(timer)
    ctrl?.abort()
    const c = (ctrl = new AbortController())
    const q = (shown = S.pageQuery(s).toString())
    const url = q ? action + '?' + q : action
    s.loading.value = true
    target()?.setAttribute('aria-busy', 'true')
    try {
      const res = await fetch(url, {
        headers: { 'HX-Request': 'true', Accept: 'text/html' },
        credentials: 'same-origin',
        signal: c.signal,
      })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const html = await res.text()
      if (c !== ctrl) return
      const t = target()
      if (t) {
        t.innerHTML = html
        window.htmx?.process(t)
      }
      // Submitting the same state again (a retry) must not add a history entry.
      if (push) history[url === location.pathname + location.search ? 'replaceState' : 'pushState']({ txFilters: true }, '', url)
      s.error.value = ''
    } catch {
      if (!c.signal.aborted) s.error.value = l.loadFailed // the old results stay
    } finally {
      if (c === ctrl) {
        ctrl = undefined
        s.loading.value = false
        target()?.removeAttribute('aria-busy')
      }
    }
  }

  const change = (fn: () => void, push = true, delay = 0) => {
    fn()
    clearTimeout(timer)
    const go = () => {
      if (S.pageQuery(s).toString() !== shown) void load(push)
    }
    if (delay > 0) timer = setTimeout(go, delay)
    else go()
  }

  // Prev/next links in the results (also in results swapped in later).
  const onClick = (e: MouseEvent) => {
    const a = e.target instanceof Element ? e.target.closest('a[data-tx-page]') : null
    if (!a || !target()?.contains(a) || e.defaultPrevented) return
    if (e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return // new tab, download…
    e.preventDefault()
    change(() => (a.getAttribute('data-tx-page') === 'next' ? S.nextPage(s) : S.prevPage(s)))
  }

  const onPopState = () => {
    if (location.pathname === path) change(() => S.assign(s, Object.fromEntries(new URLSearchParams(location.search))), false)
  }

  document.addEventListener('click', onClick)
  addEventListener('popstate', onPopState)
  const root = createRoot(el)
  flushSync(() =>
    root.render(<TransactionFilters s={s} action={action} filters={filters} l={l} change={change} reload={() => void load(true)} dateDelay={dateDelay} />),
  )

  return () => {
    document.removeEventListener('click', onClick)
    removeEventListener('popstate', onPopState)
    clearTimeout(timer)
    ctrl?.abort()
    ctrl = undefined
    target()?.removeAttribute('aria-busy')
    root.unmount()
  }
}
