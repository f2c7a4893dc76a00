import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mount } from '.'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

const PROPS = {
  action: '/transactions',
  target: 'tx-results',
  filter: 'MOST_RECENT',
  after: '',
  before: '',
  page: 1,
  pageSize: 10,
  dateDelay: 0,
  filters: [
    { value: 'MOST_RECENT', label: 'Most recent' },
    { value: 'competitions', label: 'Competitions' },
    { value: 'redemptions', label: 'Redemptions' },
  ],
  labels: {
    legend: 'Show',
    after: 'From',
    before: 'Until',
    clearDates: 'Clear dates',
    reset: 'Reset filters',
    loading: 'Loading',
    loadFailed: 'Transactions could not be loaded. Please try again.',
  },
}
const LOAD_FAILED = PROPS.labels.loadFailed

const RESULTS =
  '<p class="rows">Page 1 rows</p>' +
  '<a data-tx-page="prev" href="/transactions?page=0">Previous</a>' +
  '<a data-tx-page="next" href="/transactions?page=2">Next</a>' +
  '<a hx-get="/transactions/2026-02">February</a>'

function page(props: object): string {
  return (
    '<div data-island="transaction-filters"><form class="tx-filters" method="get" action="/transactions">' +
    '<p class="fallback">no-JS form</p><button>Apply</button></form>' +
    `<script type="application/json">${JSON.stringify(props)}</script></div>` +
    `<div id="tx-results" aria-live="polite">${RESULTS}</div>`
  )
}

const html = (body: string, status = 200) => new Response(body, { status, headers: { 'Content-Type': 'text/html' } })

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>
let htmx: { process: ReturnType<typeof vi.fn> }
let unmount: (() => void) | undefined
/** defaultPrevented of every click that reached the window (which then stops happy-dom navigating). */
let clicks: boolean[]
const onWindowClick = (e: MouseEvent) => {
  clicks.push(e.defaultPrevented)
  e.preventDefault()
}

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>()
  vi.stubGlobal('fetch', fetchMock)
  htmx = { process: vi.fn() }
  vi.stubGlobal('htmx', htmx)
  history.replaceState(null, '', '/transactions')
  clicks = []
  window.addEventListener('click', onWindowClick)
})

afterEach(() => {
  if (unmount) act(() => unmount!())
  unmount = undefined
  window.removeEventListener('click', onWindowClick)
  document.body.innerHTML = ''
})

const island = () => document.querySelector<HTMLElement>('[data-island]')!
const results = () => document.getElementById('tx-results')!
const radio = (value: string) => island().querySelector<HTMLInputElement>(`input[name=filter][value=${value}]`)!
const dateInput = (name: 'after' | 'before') => island().querySelector<HTMLInputElement>(`input[name=${name}]`)!
const button = (text: string) => Array.from(island().querySelectorAll('button')).find((b) => b.textContent === text)
const alertText = () => island().querySelector('[role=alert]')?.textContent ?? null
const spinner = () => island().querySelector('.spinner[role=status]')
const fetchedURL = (i = 0) => String(fetchMock.mock.calls[i][0])

async function render(props: object = PROPS): Promise<HTMLElement> {
  document.body.innerHTML = page(props)
  await act(async () => {
    unmount = mount(island(), props)
  })
  return island()
}

/** Runs fn as the member's action and lets the load finish. */
async function user(fn: () => void): Promise<void> {
  await act(async () => fn())
  await settle()
}

const settle = () => act(() => new Promise((r) => setTimeout(r, 0)))

/** Types a date the way a browser reports it (bypassing React's value tracking). */
function typeDate(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value)
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

function clickLink(which: 'next' | 'prev', init: MouseEventInit = {}): void {
  results()
    .querySelector(`a[data-tx-page=${which}]`)!
    .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }))
}

/** A fetch that stays pending until resolved, and rejects with an AbortError when aborted. */
function pendingFetch() {
  let resolve!: (r: Response) => void
  const calls: { signal: AbortSignal }[] = []
  fetchMock.mockImplementation(
    (_url, init) =>
      new Promise<Response>((ok, fail) => {
        const signal = init!.signal!
        calls.push({ signal })
        resolve = ok
        signal.addEventListener('abort', () => fail(new DOMException('Aborted', 'AbortError')))
      }),
  )
  return { calls, resolve: (r: Response) => resolve(r) }
}

describe('mounting', () => {
  it('replaces the fallback form with tabs showing the current filter and the dates from the props', async () => {
    const el = await render({ ...PROPS, filter: 'competitions', after: '2026-01-05', before: '2026-02-28', page: 2 })

    expect(el.querySelector('.fallback')).toBeNull()
    const form = el.querySelector<HTMLFormElement>('form.tx-filters')!
    expect([form.getAttribute('action'), form.getAttribute('method')]).toEqual(['/transactions', 'get'])
    expect(el.querySelector('fieldset.tx-tabs > legend')!.textContent).toBe('Show')
    const tabs = Array.from(el.querySelectorAll<HTMLLabelElement>('label.tx-tab'))
    expect(tabs.map((t) => t.textContent)).toEqual(['Most recent', 'Competitions', 'Redemptions'])
    expect(tabs.map((t) => t.classList.contains('active'))).toEqual([false, true, false])
    expect(radio('competitions').checked).toBe(true)
    expect(radio('MOST_RECENT').checked).toBe(false)

    const after = dateInput('after')
    const before = dateInput('before')
    expect([after.type, after.id, after.value, after.max]).toEqual(['date', 'tx-after', '2026-01-05', '2026-02-28'])
    expect([before.type, before.id, before.value, before.min]).toEqual(['date', 'tx-before', '2026-02-28', '2026-01-05'])
    expect(el.querySelector('label[for=tx-after]')!.textContent).toBe('From')
    expect(el.querySelector('label[for=tx-before]')!.textContent).toBe('Until')
    expect(button('Clear dates')!.type).toBe('button')
    expect(button('Reset filters')!.className).toBe('button-link')
    expect(spinner()).toBeNull()
    expect(alertText()).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows no Clear dates button and no date limits without dates', async () => {
    await render()
    expect(radio('MOST_RECENT').checked).toBe(true)
    expect(button('Clear dates')).toBeUndefined()
    expect(dateInput('after').hasAttribute('max')).toBe(false)
    expect(dateInput('before').hasAttribute('min')).toBe(false)
  })

  it('treats an unknown filter and a page below 1 as MOST_RECENT on page 1', async () => {
    await render({ ...PROPS, filter: 'bogus', page: -3 })
    expect(radio('MOST_RECENT').checked).toBe(true)
    await user(() => clickLink('next'))
    expect(fetchedURL()).toBe('/transactions?page=2')
  })

  it('survives missing props with built-in labels', async () => {
    fetchMock.mockResolvedValue(html('', 500))
    const el = await render({})
    expect(el.querySelector('legend')!.textContent).toBe('Show')
    await user(() => clickLink('next'))
    expect(fetchedURL()).toBe('/transactions?page=2')
    expect(alertText()).toBe(LOAD_FAILED)
  })

  it('is registered with the island loader, which mounts it from the server props', async () => {
    const { mountAll, unmountIsland } = await import('../loader')
    await import('../registry')
    document.body.innerHTML = page({ ...PROPS, filter: 'redemptions' })

    await act(() => mountAll())

    expect(island().dataset.islandState).toBe('mounted')
    expect(radio('redemptions').checked).toBe(true)
    act(() => unmountIsland(island()))
  })
})

describe('loading results', () => {
  it('choosing Competitions fetches its page as HTML, swaps the results in and pushes the URL', async () => {
    const push = vi.spyOn(history, 'pushState')
    const { calls, resolve } = pendingFetch()
    await render()

    await act(async () => radio('competitions').click())

    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/transactions?filter=competitions')
    expect(init).toMatchObject({
      headers: { 'HX-Request': 'true', Accept: 'text/html' },
      credentials: 'same-origin',
    })
    expect(calls[0].signal.aborted).toBe(false)
    expect(results().getAttribute('aria-busy')).toBe('true')
    expect(spinner()!.textContent).toBe('Loading')
    expect(spinner()!.querySelectorAll('.dot')).toHaveLength(3)
    expect(island().querySelector('label.tx-tab.active')!.textContent).toBe('Competitions')

    resolve(html('<p class="rows">Competition rows</p>'))
    await settle()

    expect(results().innerHTML).toBe('<p class="rows">Competition rows</p>')
    expect(htmx.process).toHaveBeenCalledWith(results())
    expect(push).toHaveBeenCalledWith({ txFilters: true }, '', '/transactions?filter=competitions')
    expect(location.pathname + location.search).toBe('/transactions?filter=competitions')
    expect(results().hasAttribute('aria-busy')).toBe(false)
    expect(spinner()).toBeNull()
    expect(alertText()).toBeNull()
  })

  it('works without htmx on the page', async () => {
    vi.stubGlobal('htmx', undefined)
    fetchMock.mockResolvedValue(html('<p>Redemption rows</p>'))
    await render()

    await user(() => radio('redemptions').click())

    expect(results().innerHTML).toBe('<p>Redemption rows</p>')
    expect(alertText()).toBeNull()
  })

  it('choosing a before date loads with the member’s own date and limits the from date', async () => {
    fetchMock.mockImplementation(async () => html('<p>rows</p>'))
    await render({ ...PROPS, page: 3 })

    await user(() => typeDate(dateInput('before'), '2026-02-28'))

    expect(fetchedURL()).toBe('/transactions?before=2026-02-28')
    expect(dateInput('after').max).toBe('2026-02-28')

    await user(() => typeDate(dateInput('after'), '2026-02-01'))

    expect(fetchedURL(1)).toBe('/transactions?after=2026-02-01&before=2026-02-28')
    expect(dateInput('before').min).toBe('2026-02-01')
  })

  it('typing a date loads once the member pauses, not at every digit of the year', async () => {
    fetchMock.mockImplementation(async () => html('<p>rows</p>'))
    await render({ ...PROPS, dateDelay: 30 })

    await user(() => typeDate(dateInput('after'), '0002-01-05'))
    await user(() => typeDate(dateInput('after'), '0020-01-05'))
    await user(() => typeDate(dateInput('after'), '2026-01-05'))
    expect(fetchMock).not.toHaveBeenCalled()

    await act(() => new Promise((r) => setTimeout(r, 60)))
    await settle()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(fetchedURL()).toBe('/transactions?after=2026-01-05')
  })

  it('Clear dates loads without dates, hides itself and moves focus to the from date', async () => {
    fetchMock.mockImplementation(async () => html('<p>rows</p>'))
    await render({ ...PROPS, filter: 'competitions', after: '2026-01-05', before: '2026-02-28' })

    await user(() => button('Clear dates')!.click())

    expect(fetchedURL()).toBe('/transactions?filter=competitions')
    expect([dateInput('after').value, dateInput('before').value]).toEqual(['', ''])
    expect(button('Clear dates')).toBeUndefined()
    expect(document.activeElement).toBe(dateInput('after'))
  })

  it('Reset filters loads MOST_RECENT on page 1 without dates', async () => {
    fetchMock.mockImplementation(async () => html('<p>rows</p>'))
    await render({ ...PROPS, filter: 'redemptions', after: '2026-01-05', page: 4 })

    await user(() => button('Reset filters')!.click())

    expect(fetchedURL()).toBe('/transactions')
    expect(location.pathname + location.search).toBe('/transactions')
    expect(radio('MOST_RECENT').checked).toBe(true)
  })

  it('does not load when nothing changed (an invalid date, Reset at the defaults)', async () => {
    await render()

    await user(() => typeDate(dateInput('after'), 'not-a-date'))
    await user(() => button('Reset filters')!.click())

    expect(fetchMock).not.toHaveBeenCalled()
  })

  it.each([
    ['a 500 response', () => Promise.resolve(html('<p>Internal error</p>', 500))],
    ['a rejected fetch', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('after %s keeps the old results, says so and leaves loading off', async (_, response) => {
    const push = vi.spyOn(history, 'pushState')
    fetchMock.mockImplementationOnce(response)
    await render()

    await user(() => radio('competitions').click())

    expect(results().innerHTML).toBe(RESULTS)
    expect(alertText()).toBe(LOAD_FAILED)
    expect(island().querySelector('p.form-error')).not.toBeNull()
    expect(spinner()).toBeNull()
    expect(results().hasAttribute('aria-busy')).toBe(false)
    expect(push).not.toHaveBeenCalled()
    expect(htmx.process).not.toHaveBeenCalled()

    // Submitting the form (Enter) tries again; success clears the message.
    fetchMock.mockResolvedValueOnce(html('<p>Competition rows</p>'))
    const submit = new Event('submit', { bubbles: true, cancelable: true })
    await user(() => island().querySelector('form')!.dispatchEvent(submit))

    expect(submit.defaultPrevented).toBe(true)
    expect(fetchedURL(1)).toBe('/transactions?filter=competitions')
    expect(results().innerHTML).toBe('<p>Competition rows</p>')
    expect(alertText()).toBeNull()
  })

  it('a newer change aborts the load in flight, whose result is never shown', async () => {
    const push = vi.spyOn(history, 'pushState')
    const { calls, resolve } = pendingFetch()
    await render()

    await act(async () => radio('competitions').click())
    await act(async () => radio('redemptions').click())

    expect(calls.map((c) => c.signal.aborted)).toEqual([true, false])
    expect(spinner()).not.toBeNull()

    resolve(html('<p>Redemption rows</p>'))
    await settle()

    expect(results().innerHTML).toBe('<p>Redemption rows</p>')
    expect(alertText()).toBeNull()
    expect(push).toHaveBeenCalledTimes(1)
    expect(location.search).toBe('?filter=redemptions')
  })

  it('submitting the unchanged state reloads it without a new history entry', async () => {
    const push = vi.spyOn(history, 'pushState')
    const replace = vi.spyOn(history, 'replaceState')
    fetchMock.mockImplementation(async () => html('<p>fresh</p>'))
    await render()

    await user(() => island().querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true })))

    expect(fetchedURL()).toBe('/transactions')
    expect(push).not.toHaveBeenCalled()
    expect(replace).toHaveBeenCalledWith({ txFilters: true }, '', '/transactions')
  })
})

describe('pagination links in the results', () => {
  it('next loads page 2 and prev never goes below page 1', async () => {
    fetchMock.mockImplementation(async () => html(RESULTS))
    await render()

    await user(() => clickLink('next'))
    expect(clicks).toEqual([true])
    expect(fetchedURL()).toBe('/transactions?page=2')
    expect(location.search).toBe('?page=2')

    await user(() => clickLink('prev'))
    expect(fetchedURL(1)).toBe('/transactions')
    expect(location.search).toBe('')

    await user(() => clickLink('prev'))
    expect(clicks).toEqual([true, true, true])
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('keeps filter and dates when paging', async () => {
    fetchMock.mockImplementation(async () => html(RESULTS))
    await render({ ...PROPS, filter: 'competitions', before: '2026-02-28', page: 2 })

    await user(() => clickLink('next'))

    expect(fetchedURL()).toBe('/transactions?filter=competitions&before=2026-02-28&page=3')
  })

  it.each<[string, MouseEventInit]>([
    ['ctrl', { ctrlKey: true }],
    ['meta (cmd)', { metaKey: true }],
    ['shift', { shiftKey: true }],
    ['the middle button', { button: 1 }],
  ])('leaves a click with %s to the browser (open in a new tab)', async (_, init) => {
    await render()

    await user(() => clickLink('next', init))

    expect(clicks).toEqual([false])
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('leaves links outside the results alone', async () => {
    await render()
    document.body.insertAdjacentHTML('beforeend', '<a data-tx-page="next" id="elsewhere" href="/x">x</a>')

    await user(() => document.getElementById('elsewhere')!.click())

    expect(clicks).toEqual([false])
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('back and forward', () => {
  it('restores the state from the URL and loads it without a new history entry', async () => {
    const push = vi.spyOn(history, 'pushState')
    fetchMock.mockImplementation(async () => html('<p>page 2 of redemptions</p>'))
    await render()

    history.replaceState({ txFilters: true }, '', '/transactions?filter=redemptions&after=2026-01-05&page=2')
    await user(() => window.dispatchEvent(new PopStateEvent('popstate', { state: history.state })))

    expect(fetchedURL()).toBe('/transactions?filter=redemptions&after=2026-01-05&page=2')
    expect(results().innerHTML).toBe('<p>page 2 of redemptions</p>')
    expect(radio('redemptions').checked).toBe(true)
    expect(dateInput('after').value).toBe('2026-01-05')
    expect(push).not.toHaveBeenCalled()
  })

  it('does not load when the URL still matches the state (e.g. a #fragment link)', async () => {
    await render()

    await user(() => window.dispatchEvent(new PopStateEvent('popstate')))

    expect(fetchMock).not.toHaveBeenCalled()
  })
})

describe('unmounting', () => {
  it('removes the listeners: later pagination clicks and popstate are not intercepted', async () => {
    const el = await render()
    act(() => unmount!())
    unmount = undefined

    expect(el.childElementCount).toBe(0)
    await user(() => clickLink('next'))
    history.replaceState(null, '', '/transactions?filter=redemptions')
    await user(() => window.dispatchEvent(new PopStateEvent('popstate')))

    expect(clicks).toEqual([false])
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('aborts the load in flight and clears aria-busy', async () => {
    const { calls } = pendingFetch()
    await render()
    await act(async () => radio('competitions').click())
    expect(results().getAttribute('aria-busy')).toBe('true')

    act(() => unmount!())
    unmount = undefined
    await settle()

    expect(calls[0].signal.aborted).toBe(true)
    expect(results().hasAttribute('aria-busy')).toBe(false)
    expect(results().innerHTML).toBe(RESULTS)
  })
})
