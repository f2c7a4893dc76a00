import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { flushMissing, loadTranslations, lookup, MAX_PARALLEL_LOADS, resetI18n, t, TranslationLoadError } from './i18n'

type Call = { url: string; init?: RequestInit }

/** A fake network edge: answers each call with the next of `answers` (a status, or 'down'). */
function fakeFetch(answer: (call: Call, n: number) => number | 'down' | 'hang', body: unknown = {}) {
  const calls: Call[] = []
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    const call = { url, init }
    calls.push(call)
    const a = answer(call, calls.length)
    if (a === 'down') return Promise.reject(new TypeError('Failed to fetch'))
    if (a === 'hang') return new Promise<Response>(() => {})
    return Promise.resolve(new Response(a === 204 ? null : JSON.stringify(body), { status: a }))
  })
  vi.stubGlobal('fetch', fetch)
  return calls
}

beforeEach(() => {
  document.documentElement.lang = 'es'
  document.body.innerHTML =
    '<script type="application/json" id="i18n">{"survey.submit":"Send {count} answers","hi":"Hallo {name}"}</script>'
  resetI18n()
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

it('translates with placeholders and falls back to the key', () => {
  fakeFetch(() => 204)
  expect(t('survey.submit', { count: 3 })).toBe('Send 3 answers')
  expect(t('hi', { other: 1 })).toBe('Hallo {name}')
  expect(t('missing.key')).toBe('missing.key')
  expect(t('missing.key', undefined, 'Default')).toBe('Default')
})

it('survives a page without translations', () => {
  fakeFetch(() => 204)
  document.body.innerHTML = ''
  resetI18n()
  expect(t('a.b')).toBe('a.b')
})

it('reports missing keys once, 5 s after the last miss, then reloads them', async () => {
  vi.useFakeTimers()
  const calls = fakeFetch((c) => (c.init?.method === 'POST' ? 204 : 200), { 'toast.close': 'Cerrar', hi: 'ignored' })
  t('toast.close', undefined, 'Close')
  await vi.advanceTimersByTimeAsync(4000)
  t('nav.feed')
  t('toast.close', undefined, 'Close')
  await vi.advanceTimersByTimeAsync(4999)
  expect(calls).toHaveLength(0) // debounced from the last miss

  await vi.advanceTimersByTimeAsync(1)
  await vi.waitFor(() => expect(calls).toHaveLength(2))
  expect(calls[0].url).toBe('/api/v1/translations/add/translation/es')
  expect(calls[0].init?.method).toBe('POST')
  expect(JSON.parse(String(calls[0].init?.body))).toEqual({ 'toast.close': 'Close', 'nav.feed': 'nav.feed' })
  expect(calls[1].url).toBe('/api/v1/translations/load/translation/es')
  expect(calls[1].init?.method ?? 'GET').toBe('GET')

  await vi.waitFor(() => expect(t('toast.close')).toBe('Cerrar'))
  expect(t('hi', { name: 'Ana' })).toBe('Hallo Ana') // the page's own message stays
  await vi.advanceTimersByTimeAsync(10000)
  expect(calls).toHaveLength(2) // reported keys are not reported again
})

it('looks a key up without reporting a miss (for islands that fall back on purpose)', async () => {
  vi.useFakeTimers()
  const calls = fakeFetch(() => 204)
  expect(lookup('hi')).toBe('Hallo {name}')
  expect(lookup('survey.stars.7')).toBeUndefined()
  await vi.advanceTimersByTimeAsync(20000)
  expect(calls).toHaveLength(0)
})

it('sends nothing when nothing is missing', async () => {
  const calls = fakeFetch(() => 204)
  await flushMissing()
  expect(calls).toHaveLength(0)
})

it('retries a load on 5xx or no answer, from 350 ms doubling, up to 5 times', async () => {
  vi.useFakeTimers()
  const cases: Array<{ name: string; answers: Array<number | 'down'>; attempts: number; ok: boolean }> = [
    { name: 'recovers after a 503 and a network failure', answers: [503, 'down', 200], attempts: 3, ok: true },
    { name: 'gives up after the fifth retry', answers: [500, 500, 500, 500, 500, 500, 200], attempts: 6, ok: false },
    { name: 'never retries a 404', answers: [404, 200], attempts: 1, ok: false },
    { name: 'never retries a 429', answers: [429, 200], attempts: 1, ok: false },
  ]
  for (const tc of cases) {
    const at: number[] = []
    const start = Date.now()
    const calls = fakeFetch((_, n) => {
      at.push(Date.now() - start)
      return tc.answers[n - 1]
    })
    const result = loadTranslations('es').then(
      () => 'ok',
      (e: unknown) => e,
    )
    await vi.advanceTimersByTimeAsync(60000)
    const got = await result
    expect(calls, tc.name).toHaveLength(tc.attempts)
    if (tc.ok) {
      expect(got, tc.name).toBe('ok')
    } else {
      expect(got, tc.name).toBeInstanceOf(TranslationLoadError)
    }
    const waits = at.slice(1).map((v, i) => v - at[i])
    expect(waits, tc.name).toEqual([350, 700, 1400, 2800, 5600].slice(0, tc.attempts - 1))
  }
})

it('keeps at most 10 loads in flight', async () => {
  let release: Array<() => void> = []
  const calls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      calls.push(url)
      return new Promise<Response>((resolve) => release.push(() => resolve(new Response('{}', { status: 200 }))))
    }),
  )
  const loads = Array.from({ length: 25 }, (_, i) => loadTranslations('l' + i))
  await Promise.resolve()
  expect(calls).toHaveLength(MAX_PARALLEL_LOADS)
  while (release.length) {
    const now = release
    release = []
    now.forEach((r) => r())
    await new Promise((r) => setTimeout(r, 0))
    expect(calls.length).toBeLessThanOrEqual(25)
    expect(release.length).toBeLessThanOrEqual(MAX_PARALLEL_LOADS)
  }
  await Promise.all(loads)
  expect(calls).toHaveLength(25)
})
