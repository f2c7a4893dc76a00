import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError, GENERIC_ERROR, post } from './api'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>()
  vi.stubGlobal('fetch', fetchMock)
  assign = vi.fn()
  vi.spyOn(window.location, 'assign').mockImplementation(assign)
  history.replaceState(null, '', '/surveys')
  document.documentElement.lang = 'de'
  document.cookie = 'XSRF-TOKEN=tok%2Fen+1; path=/'
})

afterEach(() => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
  document.documentElement.lang = ''
})

function sent(i = 0): { url: string; init: RequestInit; headers: Record<string, string> } {
  const [url, init] = fetchMock.mock.calls[i]
  return { url: String(url), init: init!, headers: init!.headers as Record<string, string> }
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(ApiError)
  return err as ApiError
}

describe('requests', () => {
  it('sends credentials, JSON and the app headers incl. X-XSRF-TOKEN', async () => {
    fetchMock.mockResolvedValue(json(201, { id: 3 }))

    const res = await post<{ id: number }>('/api/answers', { choice: 'b' })

    expect(res).toEqual({ id: 3 })
    const { url, init, headers } = sent()
    expect(url).toBe(`${location.origin}/api/answers`)
    expect(init.method).toBe('POST')
    expect(init.credentials).toBe('include')
    expect(init.body).toBe('{"choice":"b"}')
    expect(headers).toMatchObject({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'X-App-Name': 'web',
      'X-App-Lang': 'de',
      'X-Viewport-Width': String(window.innerWidth),
      'X-Viewport-Height': String(window.innerHeight),
      'X-DPR': String(window.devicePixelRatio),
      'X-XSRF-TOKEN': 'tok/en+1',
    })
  })

  it('says widget under /widgets/ and drops null headers', async () => {
    history.replaceState(null, '', '/widgets/survey/9')
    document.documentElement.lang = ''
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }))

    const res = await api('/api/ping', { headers: { 'X-DPR': null, 'X-Extra': 'yes' } })

    expect(res).toBeUndefined()
    const { headers, init } = sent()
    expect(headers['X-App-Name']).toBe('widget')
    expect(headers['X-Extra']).toBe('yes')
    expect(init.body).toBeUndefined()
    for (const h of ['X-App-Lang', 'X-XSRF-TOKEN', 'X-DPR', 'Content-Type']) expect(headers).not.toHaveProperty(h)
  })

  it('sends the native-app marker only inside a native wrapper', async () => {
    fetchMock.mockImplementation(async () => json(200, {}))
    await api('/api/ping')
    expect(sent(0).headers).not.toHaveProperty('X-Native-App')

    const w = window as Window & { ReactNativeWebView?: unknown }
    w.ReactNativeWebView = { postMessage() {} }
    try {
      await api('/api/ping')
    } finally {
      delete w.ReactNativeWebView
    }
    expect(sent(1).headers['X-Native-App']).toBe('react-native')
  })

  it('merges the query object into the URL', async () => {
    fetchMock.mockResolvedValue(json(200, []))

    await api('/api/surveys?status=open', { query: { page: 2, tag: ['a', 'b'], q: null, x: undefined, ok: true } })

    expect(sent().url).toBe(`${location.origin}/api/surveys?status=open&page=2&tag=a&tag=b&ok=true`)
  })
})

describe('errors', () => {
  it('maps 4xx to ClientError with the first detail message', async () => {
    const body = { message: 'Validation failed', details: [{ message: 'Email is taken' }, { message: 'Too short' }] }
    fetchMock.mockResolvedValue(json(422, body))

    const err = await rejection(api('/api/signup', { method: 'POST', body: {} }))

    expect(err.name).toBe('ClientError')
    expect(err.message).toBe('Email is taken')
    expect(err.statusCode).toBe(422)
    expect(err.data).toEqual(body)
  })

  it.each([
    ['body message', 404, { message: 'Survey not found' }, 'Survey not found'],
    ['empty details', 400, { message: 'Bad input', details: [] }, 'Bad input'],
    ['no message', 403, {}, GENERIC_ERROR],
  ])('maps 4xx with %s', async (_, status, body, message) => {
    fetchMock.mockResolvedValue(json(status, body))
    const err = await rejection(api('/api/x'))
    expect([err.name, err.message, err.statusCode]).toEqual(['ClientError', message, status])
  })

  it('maps 500 to ServerError with the generic message, hiding the body message', async () => {
    fetchMock.mockResolvedValue(json(500, { message: 'pq: connection refused' }))

    const err = await rejection(api('/api/x'))

    expect([err.name, err.message, err.statusCode]).toEqual(['ServerError', 'Oops, something went wrong', 500])
    expect(assign).not.toHaveBeenCalled()
  })

  it('maps other 5xx to ServerError', async () => {
    fetchMock.mockResolvedValue(new Response('upstream timeout', { status: 504 }))
    const err = await rejection(api('/api/x'))
    expect([err.name, err.message, err.statusCode]).toEqual(['ServerError', GENERIC_ERROR, 504])
  })

  it('sends the browser to /maintenance on 502', async () => {
    fetchMock.mockResolvedValue(new Response('Bad gateway', { status: 502 }))

    const err = await rejection(api('/api/x'))

    expect(assign).toHaveBeenCalledWith('/maintenance')
    expect(err.name).toBe('ServerError')
  })

  it('does not redirect on 502 when already on /maintenance', async () => {
    history.replaceState(null, '', '/maintenance')
    fetchMock.mockResolvedValue(new Response('', { status: 502 }))

    await rejection(api('/api/status'))

    expect(assign).not.toHaveBeenCalled()
  })
})

describe('doNotAllowConcurrent', () => {
  it('rejects an identical method+URL request while one is in flight', async () => {
    let finish!: (r: Response) => void
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (finish = r)))
    fetchMock.mockImplementation(async () => json(200, { ok: true }))

    const first = api('/api/vote', { method: 'POST', body: { a: 1 }, doNotAllowConcurrent: true })
    await expect(api('/api/vote', { method: 'POST', doNotAllowConcurrent: true })).rejects.toThrow('Attempt to duplicate request')
    // Another method or URL is fine.
    await expect(api('/api/vote', { method: 'GET', doNotAllowConcurrent: true })).resolves.toEqual({ ok: true })
    await expect(api('/api/vote', { method: 'POST', query: { s: 2 }, doNotAllowConcurrent: true })).resolves.toEqual({ ok: true })

    finish(json(200, { done: true }))
    await expect(first).resolves.toEqual({ done: true })
    // Once settled the same request may go again.
    await expect(api('/api/vote', { method: 'POST', doNotAllowConcurrent: true })).resolves.toEqual({ ok: true })
    expect(fetchMock).toHaveBeenCalledTimes(4)
  })

  it('frees the slot when the request fails', async () => {
    fetchMock.mockResolvedValueOnce(json(500, {})).mockResolvedValueOnce(json(200, 1))
    await rejection(api('/api/x', { doNotAllowConcurrent: true }))
    await expect(api('/api/x', { doNotAllowConcurrent: true })).resolves.toBe(1)
  })
})
