import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { DURATION, showFlashes, startToaster, toast } from './toast'

const LEAVE = 200
const toasts = () => Array.from(document.querySelectorAll<HTMLElement>('.toasts .toast'))
const texts = () => toasts().map((t) => t.querySelector('.toast__msg')!.textContent)

beforeAll(() => {
  document.body.innerHTML = '<div data-toast="error">Your session expired</div><p>page</p>'
  startToaster()
})

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.clearAllTimers()
  vi.useRealTimers()
  document.querySelector('.toasts')?.replaceChildren()
})

describe('server toasts', () => {
  // Runs first: the flash was in the page when the toaster started.
  it('shows flash messages present on load and removes their elements', () => {
    expect(document.querySelector('[data-toast]')).toBeNull()
    const [t] = toasts()
    expect(t.textContent).toContain('Your session expired')
    expect(t.getAttribute('role')).toBe('alert')
    expect(t.classList).toContain('toast--error')
  })

  it('shows flash messages in swapped-in content', () => {
    const frag = document.createElement('div')
    frag.innerHTML = '<div data-toast="success"> Saved! </div><div data-toast="bogus">Hi</div>'
    document.body.append(frag)
    showFlashes(frag)
    expect(texts()).toEqual(['Hi', 'Saved!'])
    expect(toasts()[1].dataset.type).toBe('success')
    expect(toasts()[0].dataset.type).toBe('info')
    expect(frag.children).toHaveLength(0)
  })

  it('shows toasts from an HX-Trigger "toast" event', () => {
    const btn = document.createElement('button')
    document.body.append(btn)
    // What htmx dispatches for HX-Trigger: {"toast": {"message": "Thanks!", "type": "success"}}
    btn.dispatchEvent(new CustomEvent('toast', { bubbles: true, detail: { message: 'Thanks!', type: 'success', elt: btn } }))
    // ...and for HX-Trigger: {"toast": "Plain"}
    btn.dispatchEvent(new CustomEvent('toast', { bubbles: true, detail: { value: 'Plain' } }))
    // ...and for HX-Trigger: toast (no message): ignored
    btn.dispatchEvent(new CustomEvent('toast', { bubbles: true, detail: [] }))

    expect(texts()).toEqual(['Plain', 'Thanks!'])
    expect(toasts()[1].getAttribute('role')).toBe('status')
    btn.remove()
  })
})

describe('toast()', () => {
  it('puts the newest on top', () => {
    toast('first')
    toast('second', { type: 'success' })
    toast('third', { type: 'error' })
    expect(texts()).toEqual(['third', 'second', 'first'])
  })

  it('renders text, not HTML, with accessible roles and a close button', () => {
    const { el } = toast('<img src=x onerror=alert(1)>', { type: 'info' })
    expect(el.querySelector('img')).toBeNull()
    expect(el.getAttribute('role')).toBe('status')
    expect(el.getAttribute('aria-live')).toBe('polite')
    expect(el.querySelector('button')!.getAttribute('aria-label')).toBe('Close')
    const c = document.querySelector('.toasts')!
    expect(c.getAttribute('aria-live')).toBe('polite')
  })

  it('closes itself after 5 s', () => {
    const { el } = toast('bye')
    vi.advanceTimersByTime(DURATION - 1)
    expect(el.isConnected).toBe(true)
    vi.advanceTimersByTime(1 + LEAVE)
    expect(el.isConnected).toBe(false)
  })

  it('pauses while hovered and resumes with the time left', () => {
    const { el } = toast('hover me')
    vi.advanceTimersByTime(3000)
    el.dispatchEvent(new MouseEvent('mouseenter'))
    vi.advanceTimersByTime(60_000)
    expect(el.isConnected).toBe(true)

    el.dispatchEvent(new MouseEvent('mouseleave'))
    vi.advanceTimersByTime(1999)
    expect(el.classList).not.toContain('toast--leaving')
    vi.advanceTimersByTime(1 + LEAVE)
    expect(el.isConnected).toBe(false)
  })

  it('pauses while focused', () => {
    const { el } = toast('focus me')
    el.querySelector('button')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }))
    vi.advanceTimersByTime(20_000)
    expect(el.isConnected).toBe(true)
    el.querySelector('button')!.dispatchEvent(new FocusEvent('focusout', { bubbles: true }))
    vi.advanceTimersByTime(DURATION + LEAVE)
    expect(el.isConnected).toBe(false)
  })

  it('closes on the close button', () => {
    const { el } = toast('x')
    el.querySelector('button')!.click()
    vi.advanceTimersByTime(LEAVE)
    expect(el.isConnected).toBe(false)
  })

  it('closes when dragged past 80% of its width, snaps back otherwise', () => {
    const drag = (el: HTMLElement, dx: number) => {
      Object.defineProperty(el, 'offsetWidth', { configurable: true, value: 360 })
      el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, clientX: 100, pointerId: 1 }))
      el.dispatchEvent(new PointerEvent('pointermove', { clientX: 100 + dx, pointerId: 1 }))
      el.dispatchEvent(new PointerEvent('pointerup', { clientX: 100 + dx, pointerId: 1 }))
    }
    const a = toast('short drag').el
    drag(a, 200)
    expect(a.style.transform).toBe('')
    vi.advanceTimersByTime(LEAVE)
    expect(a.isConnected).toBe(true)

    const b = toast('long drag').el
    drag(b, -300)
    vi.advanceTimersByTime(LEAVE)
    expect(b.isConnected).toBe(false)
  })

  it('keeps at most 5 toasts', () => {
    for (let i = 1; i <= 7; i++) toast(`t${i}`)
    expect(texts()).toEqual(['t7', 't6', 't5', 't4', 't3'])
  })
})
