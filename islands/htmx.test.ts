import htmx from 'htmx.org'
import { afterEach, describe, expect, it } from 'vitest'

const script = document.createElement('script')
script.setAttribute('nonce', 'n0nce')
script.nonce = 'n0nce' // browsers expose it as a property (and hide the attribute)
document.head.append(script)
await import('./htmx')

function configure(path: string): Record<string, string> {
  const detail = { headers: {} as Record<string, string>, path, verb: 'post' }
  document.body.dispatchEvent(new CustomEvent('htmx:configRequest', { bubbles: true, detail }))
  return detail.headers
}

afterEach(() => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/'
  document.head.innerHTML = ''
})

describe('htmx entry', () => {
  it('exposes htmx as window.htmx', () => {
    expect(window.htmx).toBe(htmx)
  })

  it('gives htmx the CSP nonce of our script for its indicator styles', () => {
    // set by the module under test from <script nonce> present when it ran (see top of file)
    expect(htmx.config.inlineStyleNonce).toBe('n0nce')
  })

  it('adds X-XSRF-TOKEN from the XSRF-TOKEN cookie to htmx requests', () => {
    document.cookie = 'XSRF-TOKEN=abc%3D%3D; path=/'
    document.head.innerHTML = '<meta name="csrf-token" content="from-meta">'
    expect(configure('/surveys/1/answers')['X-XSRF-TOKEN']).toBe('abc==')
  })

  it('falls back to <meta name="csrf-token">', () => {
    document.head.innerHTML = '<meta name="csrf-token" content="from-meta">'
    expect(configure('/x')['X-XSRF-TOKEN']).toBe('from-meta')
  })

  it('sends no token without one, nor to other origins', () => {
    expect(configure('/x')).not.toHaveProperty('X-XSRF-TOKEN')
    document.cookie = 'XSRF-TOKEN=abc; path=/'
    expect(configure('https://elsewhere.example/x')).not.toHaveProperty('X-XSRF-TOKEN')
  })
})
