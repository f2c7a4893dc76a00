import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { IslandModule } from './loader'

type Loader = typeof import('./loader')

// A fresh loader (empty registry, no reload done yet) for every test.
let L: Loader
let reload: ReturnType<typeof vi.fn<(url: string) => void>>

beforeEach(async () => {
  vi.resetModules()
  L = await import('./loader')
  reload = vi.fn<(url: string) => void>()
  L.configureLoader({ reload })
  history.replaceState(null, '', '/surveys/7?tab=open')
})

afterEach(() => {
  document.body.innerHTML = ''
})

/** The tiny demo island, only ever registered in tests. */
function helloIsland() {
  const unmount = vi.fn()
  const mod: IslandModule = {
    mount: vi.fn((el: HTMLElement, props: unknown) => {
      el.innerHTML = `<p class="live">Hello ${(props as { name: string }).name}</p>`
      return unmount
    }),
  }
  return { mod, unmount }
}

function render(name: string, props: unknown = { name: 'Ann' }): HTMLElement {
  document.body.innerHTML =
    `<div data-island="${name}"><p class="fallback">Please enable JavaScript</p>` +
    `<script type="application/json" id="${name}-props">${JSON.stringify(props)}</script></div>`
  return document.querySelector<HTMLElement>('[data-island]')!
}

describe('mounting', () => {
  it('mounts a registered island with its JSON props and unmounts it', async () => {
    const { mod, unmount } = helloIsland()
    L.register('hello', () => Promise.resolve(mod))
    const el = render('hello', { name: 'Ann' })

    await L.mountAll()

    expect(mod.mount).toHaveBeenCalledWith(el, { name: 'Ann' })
    expect(el.querySelector('.live')?.textContent).toBe('Hello Ann')
    expect(el.querySelector('.fallback')).toBeNull()
    expect(el.dataset.islandState).toBe('mounted')

    L.unmountIsland(el)
    expect(unmount).toHaveBeenCalledTimes(1)
    expect(el.hasAttribute('data-island-state')).toBe(false)
    L.unmountIsland(el)
    expect(unmount).toHaveBeenCalledTimes(1)
  })

  it('passes {} when there is no props script', async () => {
    const { mod } = helloIsland()
    L.register('hello', () => Promise.resolve(mod))
    document.body.innerHTML = '<section><div data-island="hello">fallback</div></section>'

    await L.mountAll(document.querySelector('section')!)

    expect(mod.mount).toHaveBeenCalledWith(expect.any(HTMLElement), {})
  })

  it('ignores unknown island names with a warning and keeps the fallback', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const el = render('nope')

    await L.mountAll()

    expect(warn).toHaveBeenCalledWith(expect.stringContaining('nope: unknown island'))
    expect(el.querySelector('.fallback')).not.toBeNull()
    expect(el.dataset.islandState).toBe('failed')
  })

  it('does not mount the same element twice', async () => {
    const { mod } = helloIsland()
    const importer = vi.fn(() => Promise.resolve(mod))
    L.register('hello', importer)
    render('hello')

    await Promise.all([L.mountAll(), L.mountAll()])
    await L.mountAll()

    expect(mod.mount).toHaveBeenCalledTimes(1)
    expect(importer).toHaveBeenCalledTimes(1)
  })

  it('imports a chunk once for several elements', async () => {
    const { mod } = helloIsland()
    const importer = vi.fn(() => Promise.resolve(mod))
    L.register('hello', importer)
    document.body.innerHTML = '<div data-island="hello"></div><div data-island="hello"></div>'

    await L.mountAll()

    expect(importer).toHaveBeenCalledTimes(1)
    expect(mod.mount).toHaveBeenCalledTimes(2)
  })

  it('keeps the fallback when the props JSON is invalid', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { mod } = helloIsland()
    L.register('hello', () => Promise.resolve(mod))
    document.body.innerHTML =
      '<div data-island="hello"><p class="fallback">x</p><script type="application/json">{oops</script></div>'

    await L.mountAll()

    expect(mod.mount).not.toHaveBeenCalled()
    expect(document.querySelector('.fallback')).not.toBeNull()
  })

  it('does not mount an island cleaned up while its chunk was loading', async () => {
    const { mod } = helloIsland()
    let resolve!: (m: IslandModule) => void
    L.register('hello', () => new Promise<IslandModule>((r) => (resolve = r)))
    const el = render('hello')

    const done = L.mountAll()
    L.unmountIsland(el)
    resolve(mod)
    await done

    expect(mod.mount).not.toHaveBeenCalled()
  })

  it('re-mounts an island restored from an htmx history snapshot', async () => {
    const { mod } = helloIsland()
    L.register('hello', () => Promise.resolve(mod))
    const server = '<p class="fallback">f</p><script type="application/json">{"name":"Bo"}</script>'
    document.body.innerHTML = `<div data-island="hello" data-island-html='${server}'><p class="live">Hello stale</p></div>`

    await L.mountAll()

    expect(mod.mount).toHaveBeenCalledWith(expect.any(HTMLElement), { name: 'Bo' })
    expect(document.querySelector('[data-island]')!.hasAttribute('data-island-html')).toBe(false)
  })
})

describe('chunk load failures', () => {
  it('retries a failing import once, then keeps the fallback and reloads once with ?refresh=', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const importer = vi.fn(() => Promise.reject(new TypeError('Importing a module script failed.')))
    L.register('hello', importer)
    const el = render('hello')

    await L.mountAll()

    expect(importer).toHaveBeenCalledTimes(2)
    expect(el.querySelector('.fallback')).not.toBeNull()
    expect(el.dataset.islandState).toBe('failed')
    expect(reload).toHaveBeenCalledTimes(1)
    const url = new URL(reload.mock.calls[0][0])
    expect(url.pathname).toBe('/surveys/7')
    expect(url.searchParams.get('tab')).toBe('open')
    expect(url.searchParams.get('refresh')).toMatch(/^\d+$/)
  })

  it('mounts when the retry succeeds, without reloading', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { mod } = helloIsland()
    const importer = vi
      .fn<() => Promise<IslandModule>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(mod)
    L.register('hello', importer)
    const el = render('hello')

    await L.mountAll()

    expect(importer).toHaveBeenCalledTimes(2)
    expect(el.dataset.islandState).toBe('mounted')
    expect(reload).not.toHaveBeenCalled()
  })

  it('never reloads again when the URL already has a refresh parameter', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    history.replaceState(null, '', '/surveys/7?refresh=1700000000000')
    L.register('hello', () => Promise.reject(new TypeError('Failed to fetch')))
    render('hello')

    await L.mountAll()

    expect(reload).not.toHaveBeenCalled()
    expect(L.reloadOnce()).toBe(false)
  })

  it('reloads at most once per page even with several failing islands', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    L.register('a', () => Promise.reject(new Error('x')))
    L.register('b', () => Promise.reject(new Error('y')))
    document.body.innerHTML = '<div data-island="a"></div><div data-island="b"></div>'

    await L.mountAll()

    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('finds the chunk URL in browser error messages', () => {
    expect(
      L.chunkURL(new TypeError('Failed to fetch dynamically imported module: https://canvass.test/static/dist/assets/island-x-AbC1.js')),
    ).toBe('https://canvass.test/static/dist/assets/island-x-AbC1.js')
    expect(L.chunkURL(new TypeError('error loading dynamically imported module: http://localhost:3000/static/dist/assets/a.js'))).toBe(
      'http://localhost:3000/static/dist/assets/a.js',
    )
    expect(L.chunkURL(new TypeError('Importing a module script failed.'))).toBeNull()
  })
})

describe('script load timeout', () => {
  afterEach(() => {
    vi.useRealTimers()
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((l) => l.remove())
  })

  it('gives a chunk 120 s, retries once for 120 s more, then keeps the fallback and reloads once', async () => {
    vi.useFakeTimers()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const importer = vi.fn(() => new Promise<IslandModule>(() => {})) // a load that never ends
    L.register('hello', importer)
    const el = render('hello')

    const done = L.mountAll()
    await vi.advanceTimersByTimeAsync(L.SCRIPT_TIMEOUT_MS - 1)
    expect(L.SCRIPT_TIMEOUT_MS).toBe(120_000)
    expect(importer).toHaveBeenCalledTimes(1)
    expect(el.dataset.islandState).toBe('loading')
    expect(el.querySelector('.fallback')).not.toBeNull()

    await vi.advanceTimersByTimeAsync(1)
    expect(importer).toHaveBeenCalledTimes(2) // the one retry
    expect(el.dataset.islandState).toBe('loading')
    expect(reload).not.toHaveBeenCalled()

    await vi.advanceTimersByTimeAsync(L.SCRIPT_TIMEOUT_MS)
    await done
    expect(importer).toHaveBeenCalledTimes(2)
    expect(el.dataset.islandState).toBe('failed')
    expect(el.querySelector('.fallback')).not.toBeNull() // the server page still works
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('hello: load failed'),
      expect.objectContaining({ message: expect.stringContaining('hello: script load timed out') }),
    )
    expect(reload).toHaveBeenCalledTimes(1)
    const url = new URL(reload.mock.calls[0][0])
    expect(url.pathname).toBe('/surveys/7')
    expect(url.searchParams.get('tab')).toBe('open')
    expect(url.searchParams.get('refresh')).toMatch(/^\d+$/)
  })

  it('mounts when the retry arrives in time, without reloading', async () => {
    vi.useFakeTimers()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { mod } = helloIsland()
    const importer = vi
      .fn<() => Promise<IslandModule>>()
      .mockReturnValueOnce(new Promise<IslandModule>(() => {}))
      .mockReturnValueOnce(new Promise<IslandModule>((ok) => setTimeout(() => ok(mod), 5_000)))
    L.register('hello', importer)
    const el = render('hello')

    const done = L.mountAll()
    await vi.advanceTimersByTimeAsync(L.SCRIPT_TIMEOUT_MS + 5_000)
    await done

    expect(importer).toHaveBeenCalledTimes(2)
    expect(el.dataset.islandState).toBe('mounted')
    expect(reload).not.toHaveBeenCalled()
  })

  it('never times out a chunk that loads within 120 s', async () => {
    vi.useFakeTimers()
    const { mod } = helloIsland()
    const importer = vi.fn(() => new Promise<IslandModule>((ok) => setTimeout(() => ok(mod), L.SCRIPT_TIMEOUT_MS - 1_000)))
    L.register('hello', importer)
    const el = render('hello')

    const done = L.mountAll()
    await vi.advanceTimersByTimeAsync(L.SCRIPT_TIMEOUT_MS * 3)
    await done

    expect(importer).toHaveBeenCalledTimes(1)
    expect(el.dataset.islandState).toBe('mounted')
    expect(vi.getTimerCount()).toBe(0) // no timer left behind
  })

  it('finds the preloaded chunk of an island for the cache-busted retry', () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      '<link rel="modulepreload" href="/static/dist/assets/react-Zz99Yy88.js">' +
        '<link rel="modulepreload" href="/static/dist/assets/island-survey-box-AbC1dE_f.js">' +
        '<link rel="modulepreload" href="/static/dist/assets/island-widget-Qq12Rr34.js">',
    )
    expect(L.preloadedChunkURL('survey-box')).toBe(`${location.origin}/static/dist/assets/island-survey-box-AbC1dE_f.js`)
    expect(L.preloadedChunkURL('widget')).toBe(`${location.origin}/static/dist/assets/island-widget-Qq12Rr34.js`)
    expect(L.preloadedChunkURL('transaction-filters')).toBeNull()
  })
})
