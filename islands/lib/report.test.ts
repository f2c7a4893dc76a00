import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clip, createReporter, fromConsole, fromError, handler, ignored, MAX_REPORTS, type Report } from './report'
import { trapErrors } from './report-trap'

const err = (message: string, extra: Partial<Report> = {}): Report => ({ href: 'https://panel.test/feed', name: 'TypeError', message, ...extra })

describe('the filter', () => {
  it.each([
    ['a cross-origin script', err('Script error.', { name: undefined })],
    ['Script error without the dot', err('Script error', { name: undefined })],
    ["Chromium's failed fetch", err('Failed to fetch')],
    ["Safari's failed fetch", err('Load failed')],
    ["Firefox's failed fetch", err('NetworkError when attempting to fetch resource.')],
    ['an aborted request by name', err('The operation was aborted.', { name: 'AbortError' })],
    ['an aborted request by message', err('signal is aborted without reason', { name: 'Error' })],
    ['a duplicate request refused by lib/api', err('Attempt to duplicate request', { name: 'Error' })],
    ['a 4xx answer the page shows', err('Email is taken', { name: 'ClientError' })],
    ['the tag manager', err('x is undefined', { source: 'https://www.googletagmanager.com/gtm.js?id=GTM-1' })],
    ['gtag in a stack', err('x is undefined', { stack: 'at f (https://www.googletagmanager.com/gtag/js?id=G-1:3:7)' })],
    ['an ad frame', err('x', { source: 'https://pagead2.googlesyndication.com/pagead/show_ads.js' })],
    ['the Facebook pixel', err('x', { stack: 'at https://connect.facebook.net/en_US/fbevents.js:1:1' })],
    ['a browser extension', err('x', { source: 'chrome-extension://abc/content.js' })],
    ['a console call about a failed fetch', { href: 'https://panel.test/', arguments: ['Failed to fetch'] }],
  ])('skips %s', (_, r) => {
    expect(ignored(r)).toBe(true)
  })

  it.each([
    ['our own TypeError', err('x is undefined', { source: 'https://panel.test/static/dist/main-abc.js' })],
    ['a 5xx answer', err('Oops, something went wrong', { name: 'ServerError' })],
    ['a message that only mentions a fetch', err('Failed to fetch the survey theme: bad JSON')],
    ['a console call', { href: 'https://panel.test/', arguments: ['Warning: each child needs a key'] }],
  ])('keeps %s', (_, r) => {
    expect(ignored(r)).toBe(false)
  })
})

describe('once per payload', () => {
  it('sends an identical payload once per page, and a different one again', () => {
    const send = vi.fn<(body: string) => void>()
    const r = createReporter(send)

    expect(r.report(err('x is undefined'))).toBe(true)
    expect(r.report(err('x is undefined'))).toBe(false)
    expect(r.report(err('x is undefined', { href: 'https://panel.test/offers' }))).toBe(true)
    expect(r.report(err('Script error.'))).toBe(false)

    expect(send).toHaveBeenCalledTimes(2)
    expect(JSON.parse(send.mock.calls[0][0])).toEqual({ href: 'https://panel.test/feed', name: 'TypeError', message: 'x is undefined' })
  })

  it(`stops after ${MAX_REPORTS} reports`, () => {
    const send = vi.fn<(body: string) => void>()
    const r = createReporter(send)
    for (let i = 0; i < MAX_REPORTS + 5; i++) r.report(err(`error ${i}`))
    expect(send).toHaveBeenCalledTimes(MAX_REPORTS)
  })

  it("clips texts to the server's bounds without splitting a character or sending a refused one", () => {
    const send = vi.fn<(body: string) => void>()
    createReporter(send).report(err('a\u0000b\u202e' + '😀'.repeat(3000), { stack: 'x'.repeat(9000) }))
    const sent = JSON.parse(send.mock.calls[0][0])
    expect(Array.from(sent.message as string)).toHaveLength(2000)
    expect(sent.message.startsWith('a\ufffdb\ufffd😀')).toBe(true)
    expect(sent.stack).toHaveLength(8000)
    expect(clip('😀😀', 1)).toBe('😀')
  })

  it('keeps a console call under the bound of its arguments', () => {
    const send = vi.fn<(body: string) => void>()
    createReporter(send).report(fromConsole(Array.from({ length: 30 }, (_, i) => `${i}`.repeat(900))))
    const args = JSON.parse(send.mock.calls[0][0]).arguments as string[]
    expect(args.length).toBeLessThanOrEqual(20)
    expect(new TextEncoder().encode(JSON.stringify(args)).length).toBeLessThanOrEqual(8000)
  })
})

describe('the trap and the reporter it loads', () => {
  let original: typeof console.error
  beforeEach(() => {
    original = console.error
  })
  afterEach(() => {
    console.error = original
  })

  it('does nothing in a development build', () => {
    const load = vi.fn()
    trapErrors(true, load)
    expect(console.error).toBe(original)
    window.dispatchEvent(new ErrorEvent('error', { message: 'x' }))
    expect(load).not.toHaveBeenCalled()
  })

  it('loads the reporter only when something happens', async () => {
    console.error = vi.fn()
    const load = vi.fn(async () => ({ handler: () => handler(vi.fn()) }))
    trapErrors(false, load)
    await Promise.resolve()
    expect(load).not.toHaveBeenCalled()
    console.error('first')
    console.error('second')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('reports uncaught errors, rejections and console.error, each payload once', async () => {
    console.error = vi.fn()
    const send = vi.fn<(body: string) => void>()
    trapErrors(false, async () => ({ handler: () => handler(send) }))
    const boom = new TypeError('x is undefined')

    for (let i = 0; i < 2; i++) {
      window.dispatchEvent(new ErrorEvent('error', { error: boom, message: boom.message, filename: 'https://panel.test/static/dist/a.js', lineno: 3, colno: 7 }))
    }
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.', filename: '', lineno: 0, colno: 0 }))
    const rejection = new Event('unhandledrejection') as Event & { reason: unknown }
    rejection.reason = new RangeError('bad range')
    window.dispatchEvent(rejection)
    console.error('Warning:', { a: 1 })
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(3))

    const bodies = send.mock.calls.map((c) => JSON.parse(c[0]))
    expect(bodies).toHaveLength(3)
    expect(bodies[0]).toMatchObject({ name: 'TypeError', message: 'x is undefined', source: 'https://panel.test/static/dist/a.js', lineno: 3, colno: 7 })
    expect(bodies[0].stack).toContain('x is undefined')
    expect(bodies[1]).toMatchObject({ name: 'RangeError', message: 'bad range' })
    expect(bodies[2]).toEqual({ href: location.href, arguments: ['Warning:', '{"a":1}'] })
  })

  it('reports a rejection with a value that is no Error', () => {
    expect(fromError('plain text')).toEqual({ href: location.href, name: undefined, message: 'plain text', stack: undefined })
  })
})
