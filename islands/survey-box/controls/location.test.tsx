import { act } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { click, key, Q, render, T, type } from './harness'
import Location, { LOOKUP } from './location'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)))
const RESULTS = { results: [{ id: 'de-10115', postcode: '10115', label: '10115 Berlin Mitte' }, { id: 'de-10117', postcode: '10117', label: '10117 Berlin' }] }
/** The query a lookup call sent, as a plain object. */
const query = (f: ReturnType<typeof vi.fn>, call = 0) => {
  const u = new URL(String(f.mock.calls[call][0]), 'http://x')
  return { path: u.pathname, ...Object.fromEntries(u.searchParams) }
}

describe('location', () => {
  it('asks the account-host lookup with the instance key 300ms after the last key; Down/Enter choose a result', async () => {
    const f = vi.fn<typeof fetch>(async () => json(RESULTS))
    vi.stubGlobal('fetch', f)
    const r = await render(Location, Q('location'))
    const input = r.$('input')
    expect([input.getAttribute('role'), input.getAttribute('aria-expanded'), input.getAttribute('aria-labelledby')]).toEqual(['combobox', 'false', 'qt'])
    await type(input, '1')
    await type(input, '10')
    await type(input, '101')
    await wait(200)
    expect(f).not.toHaveBeenCalled()
    await wait(150)
    expect(f).toHaveBeenCalledTimes(1)
    expect(LOOKUP).toBe('/ah/api/v1/info/postcode-lookup')
    expect(query(f)).toEqual({ path: LOOKUP, instanceKey: 'demo', search: '101' })
    const list = r.$('[role=listbox]')
    expect(input.getAttribute('aria-expanded')).toBe('true')
    expect(input.getAttribute('aria-controls')).toBe(list.id)
    expect(r.$$('[role=option]').map((o) => o.textContent)).toEqual(['10115 Berlin Mitte', '10117 Berlin'])
    await key(input, 'ArrowDown')
    await key(input, 'ArrowDown')
    await key(input, 'ArrowDown')
    await key(input, 'ArrowUp')
    const active = r.$('#' + CSS.escape(input.getAttribute('aria-activedescendant')!))
    expect([active.textContent, active.getAttribute('aria-selected')]).toEqual(['10115 Berlin Mitte', 'true'])
    await key(input, 'Enter')
    expect(r.calls).toEqual([null, null, null, { postcode: '10115', id: 'de-10115' }])
    expect(input.value).toBe('10115 Berlin Mitte')
    expect(input.getAttribute('aria-expanded')).toBe('false')
    expect(list.hidden).toBe(true)
  })

  it('sends the search term as typed, trimmed, with spaces and symbols encoded', async () => {
    const f = vi.fn<typeof fetch>(async () => json({ results: [] }))
    vi.stubGlobal('fetch', f)
    const r = await render(Location, Q('location'))
    await type(r.$('input'), '  sw1a 1&a ')
    await wait(350)
    expect(query(f)).toEqual({ path: LOOKUP, instanceKey: 'demo', search: 'sw1a 1&a' })
  })

  it('a result can be clicked; typing again clears the answer', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(RESULTS)))
    const r = await render(Location, Q('location'))
    await type(r.$('input'), '1011')
    await wait(350)
    await click(r.$$('[role=option]')[1])
    await type(r.$('input'), '10117 Berli')
    expect(r.calls).toEqual([null, { postcode: '10117', id: 'de-10117' }, null])
  })

  it('a typed postcode that is the first result is answered without choosing it', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ results: [{ id: 'SW1A1AA', postcode: 'SW1A 1AA', label: 'SW1A 1AA, Westminster, London' }] })))
    const r = await render(Location, Q('location'))
    await type(r.$('input'), 'sw1a1aa')
    await wait(350)
    expect(r.calls).toEqual([null, { postcode: 'SW1A 1AA', id: 'SW1A1AA' }])
    expect(r.$('input').value).toBe('sw1a1aa')
    expect(r.$('input').getAttribute('aria-expanded')).toBe('true')
  })

  it.each([
    ['rejects', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['answers 404', () => Promise.resolve(json({ name: 'ClientError', message: 'Not found', statusCode: 404, details: [] }, 404))],
    ['answers 400', () => Promise.resolve(json({ name: 'ClientError', message: "instanceKey is not this site's instance.", statusCode: 400, details: [] }, 400))],
    ['answers 429', () => Promise.resolve(json({ name: 'ClientError', message: 'Too many requests.', statusCode: 429, details: [] }, 429))],
    ['answers no results', () => Promise.resolve(json({ results: [] }))],
    ['answers without a results list', () => Promise.resolve(json({}))],
  ])('when the lookup %s the typed postcode (3+ characters) is its own place', async (_, impl) => {
    vi.stubGlobal('fetch', vi.fn(impl))
    const r = await render(Location, Q('location'))
    await type(r.$('input'), 'sw')
    await wait(350)
    expect(r.calls).toEqual([null])
    await type(r.$('input'), ' sw1a 1aa ')
    await wait(350)
    expect(r.calls).toEqual([null, null, { postcode: 'sw1a 1aa', id: 'SW1A1AA' }])
    expect(r.$('input').getAttribute('aria-expanded')).toBe('false')
    expect(r.$$('[role=option]')).toEqual([])
  })

  it('a failed lookup forgets the earlier results, so Down opens nothing stale', async () => {
    const f = vi.fn<typeof fetch>(async () => json(RESULTS))
    vi.stubGlobal('fetch', f)
    const r = await render(Location, Q('location'))
    await type(r.$('input'), '101')
    await wait(350)
    expect(r.$$('[role=option]')).toHaveLength(2)
    f.mockImplementation(() => Promise.reject(new TypeError('offline')))
    await type(r.$('input'), '1019')
    await wait(350)
    await key(r.$('input'), 'ArrowDown')
    expect(r.$('input').getAttribute('aria-expanded')).toBe('false')
    expect(r.last()).toEqual({ postcode: '1019', id: '1019' })
  })

  it('restores the answer and asks nothing until typing', async () => {
    const f = vi.fn<typeof fetch>()
    vi.stubGlobal('fetch', f)
    const r = await render(Location, Q('location'), { postcode: '10115', id: 'de-10115' }, T({ 'survey.postcode': 'PLZ' }))
    expect([r.$('input').value, r.$('input').placeholder]).toEqual(['10115', 'PLZ'])
    await wait(350)
    expect(f).not.toHaveBeenCalled()
    expect(r.calls).toEqual([])
  })
})
