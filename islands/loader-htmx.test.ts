// The loader wired to real htmx swaps (htmx.swap runs the same cleanup/load events as responses).
import htmx from 'htmx.org'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { register, startLoader, type IslandModule } from './loader'

const unmount = vi.fn()
const hello: IslandModule = {
  mount: vi.fn((el: HTMLElement, props: unknown) => {
    el.innerHTML = `<p class="live">Hello ${(props as { name: string }).name}</p>`
    return unmount
  }),
}

beforeAll(() => {
  register('hello', () => Promise.resolve(hello))
  startLoader({ reload: vi.fn() })
})

const inner = { swapStyle: 'innerHTML', swapDelay: 0, settleDelay: 0 } as const

const island = (name: string) =>
  `<div data-island="hello" id="i-${name}"><p class="fallback">fallback</p>` +
  `<script type="application/json" id="hello-props-${name}">{"name":"${name}"}</script></div>`

describe('loader with htmx', () => {
  it('mounts islands swapped in by htmx and unmounts them when htmx swaps them out', async () => {
    document.body.innerHTML = '<main id="target"></main>'

    htmx.swap('#target', island('Ann'), inner)
    await vi.waitFor(() => expect(document.querySelector('#i-Ann .live')?.textContent).toBe('Hello Ann'))
    expect(document.getElementById('i-Ann')!.dataset.islandState).toBe('mounted')

    htmx.swap('#target', island('Bo'), inner)
    await vi.waitFor(() => expect(document.querySelector('#i-Bo .live')?.textContent).toBe('Hello Bo'))
    expect(unmount).toHaveBeenCalledTimes(1)
    expect(hello.mount).toHaveBeenCalledTimes(2)
  })

  it('stores the server HTML on mounted islands before an htmx history snapshot', async () => {
    document.body.innerHTML = '<main id="target"></main>'
    htmx.swap('#target', island('Cy'), inner)
    await vi.waitFor(() => expect(document.querySelector('#i-Cy .live')).not.toBeNull())

    document.body.dispatchEvent(new CustomEvent('htmx:beforeHistorySave', { bubbles: true }))

    const saved = document.getElementById('i-Cy')!.getAttribute('data-island-html')!
    expect(saved).toContain('class="fallback"')
    expect(saved).toContain('{"name":"Cy"}')
    await Promise.resolve()
    expect(document.getElementById('i-Cy')!.hasAttribute('data-island-html')).toBe(false)
  })
})
