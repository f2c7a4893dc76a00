import { csrfToken } from './csrf'
import { appHeaders } from './headers'
import { t } from './i18n'

/**
 * fetch wrapper for islands.
 *
 *   const survey = await api<Survey>('/api/surveys/1', { query: { page: 2 } })
 *   await api('/api/answers', { method: 'POST', body: { ... }, doNotAllowConcurrent: true })
 *
 * Resolves with the parsed body (JSON, text, or undefined for empty bodies) on 200–299.
 * Rejects with ApiError (name 'ClientError' for 4xx, 'ServerError' for 5xx and anything else);
 * a 502 also sends the browser to /maintenance.
 */

export type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue | QueryValue[]>

export interface ApiOptions {
  method?: string
  /** Merged into the URL's search params; null/undefined values are skipped, arrays repeat the key. */
  query?: Query
  /** Plain values are sent as JSON; FormData, URLSearchParams, Blob and strings are sent as they are. */
  body?: unknown
  /** Extra headers; a null/undefined value removes a default header. */
  headers?: Record<string, string | null | undefined>
  signal?: AbortSignal
  /** Reject with Error('Attempt to duplicate request') while an identical method+URL request is in flight. */
  doNotAllowConcurrent?: boolean
}

export type ApiErrorName = 'ClientError' | 'ServerError'

export class ApiError extends Error {
  override name: ApiErrorName
  statusCode: number
  data: unknown

  constructor(name: ApiErrorName, message: string, statusCode: number, data: unknown) {
    super(message)
    this.name = name
    this.statusCode = statusCode
    this.data = data
  }
}

export const GENERIC_ERROR = 'Oops, something went wrong'
const genericMessage = () => t('errors.generic', undefined, GENERIC_ERROR)

const inFlight = new Map<string, number>()

function buildURL(url: string, query?: Query): string {
  const u = new URL(url, location.href)
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v !== null && v !== undefined) u.searchParams.append(key, String(v))
      }
    }
  }
  return u.href
}

/** The spec's client rules (section 7): the app's conventions and the XSRF-TOKEN cookie as X-XSRF-TOKEN. */
function defaultHeaders(): Record<string, string | null | undefined> {
  return {
    Accept: 'application/json',
    ...appHeaders(),
    'X-XSRF-TOKEN': csrfToken(),
  }
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    body instanceof Blob ||
    body instanceof ArrayBuffer
  )
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text()
  if (!text) return undefined
  if ((res.headers.get('content-type') || '').includes('json')) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

function bodyMessage(data: unknown): string | undefined {
  if (!data || typeof data !== 'object') return undefined
  const d = data as { details?: { message?: unknown }[]; message?: unknown }
  const detail = Array.isArray(d.details) ? d.details[0]?.message : undefined
  if (typeof detail === 'string' && detail) return detail
  if (typeof d.message === 'string' && d.message) return d.message
  return undefined
}

function toError(status: number, data: unknown): ApiError {
  if (status >= 400 && status < 500) {
    return new ApiError('ClientError', bodyMessage(data) ?? genericMessage(), status, data)
  }
  const msg = status === 500 ? undefined : bodyMessage(data)
  return new ApiError('ServerError', msg ?? genericMessage(), status, data)
}

export async function api<T = unknown>(url: string, opts: ApiOptions = {}): Promise<T> {
  const method = (opts.method || 'GET').toUpperCase()
  const href = buildURL(url, opts.query)
  const key = method + ' ' + href

  if (opts.doNotAllowConcurrent && inFlight.has(key)) {
    throw new Error('Attempt to duplicate request')
  }

  const headers: Record<string, string> = {}
  const hasBody = opts.body !== undefined && opts.body !== null
  const merged = {
    ...defaultHeaders(),
    ...(hasBody && !isRawBody(opts.body) ? { 'Content-Type': 'application/json' } : {}),
    ...opts.headers,
  }
  for (const [name, value] of Object.entries(merged)) {
    if (value !== null && value !== undefined) headers[name] = value
  }

  inFlight.set(key, (inFlight.get(key) || 0) + 1)
  try {
    const res = await fetch(href, {
      method,
      headers,
      credentials: 'include',
      signal: opts.signal,
      body: hasBody ? (isRawBody(opts.body) ? opts.body : JSON.stringify(opts.body)) : undefined,
    })
    const data = await readBody(res)
    if (res.status >= 200 && res.status <= 299) return data as T

    if (res.status === 502 && location.pathname !== '/maintenance') {
      location.assign('/maintenance')
    }
    throw toError(res.status, data)
  } finally {
    const n = (inFlight.get(key) || 1) - 1
    if (n > 0) inFlight.set(key, n)
    else inFlight.delete(key)
  }
}

export const get = <T = unknown>(url: string, opts?: Omit<ApiOptions, 'method' | 'body'>) =>
  api<T>(url, { ...opts, method: 'GET' })
export const post = <T = unknown>(url: string, body?: unknown, opts?: Omit<ApiOptions, 'method' | 'body'>) =>
  api<T>(url, { ...opts, method: 'POST', body })
export const put = <T = unknown>(url: string, body?: unknown, opts?: Omit<ApiOptions, 'method' | 'body'>) =>
  api<T>(url, { ...opts, method: 'PUT', body })
export const patch = <T = unknown>(url: string, body?: unknown, opts?: Omit<ApiOptions, 'method' | 'body'>) =>
  api<T>(url, { ...opts, method: 'PATCH', body })
export const del = <T = unknown>(url: string, opts?: Omit<ApiOptions, 'method' | 'body'>) =>
  api<T>(url, { ...opts, method: 'DELETE' })
