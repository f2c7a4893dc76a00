/**
 * App-wide toaster (vanilla DOM, no React).
 *
 *   toast('Saved')                          // info
 *   toast('Could not save', { type: 'error' })
 *
 * The server can ask for toasts too:
 *  - flash messages rendered in the page: <div data-toast="error|success|info">Message</div>
 *    (visible as-is without JS; with JS they are turned into toasts and removed), also inside
 *    htmx-swapped content;
 *  - any htmx response header HX-Trigger (or HX-Trigger-After-Swap / -After-Settle) with
 *    {"toast": {"message": "Saved", "type": "success"}}  (or {"toast": "Saved"} for info).
 *
 * Styling: ./toast.css, coloured by the server's --color-error/--color-success/--color-info
 * and --font-family custom properties.
 */
import { t } from './i18n'

export type ToastType = 'success' | 'error' | 'info'

export interface ToastOptions {
  type?: ToastType
  /** Milliseconds before it closes itself (default 5000); 0 keeps it until closed. */
  duration?: number
}

export interface ToastHandle {
  el: HTMLElement
  close(): void
}

export const DURATION = 5000
const LEAVE_MS = 200
const MAX_TOASTS = 5
/** Dragging farther than this share of the toast's width closes it. */
const SWIPE_CLOSE_RATIO = 0.8

let container: HTMLElement | null = null

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches
}

function getContainer(): HTMLElement {
  if (container?.isConnected) return container
  container = document.createElement('div')
  container.className = 'toasts'
  container.setAttribute('aria-live', 'polite')
  document.body.appendChild(container)
  return container
}

function toType(v: unknown): ToastType {
  return v === 'error' || v === 'success' ? v : 'info'
}

/** Shows a toast; newest on top. */
export function toast(message: string, opts: ToastOptions = {}): ToastHandle {
  const type = toType(opts.type)
  const duration = opts.duration ?? DURATION
  const box = getContainer()

  const el = document.createElement('div')
  el.className = `toast toast--${type}`
  el.dataset.type = type
  el.setAttribute('role', type === 'error' ? 'alert' : 'status')
  el.setAttribute('aria-live', type === 'error' ? 'assertive' : 'polite')
  el.setAttribute('aria-atomic', 'true')

  const msg = document.createElement('p')
  msg.className = 'toast__msg'
  msg.textContent = message

  const btn = document.createElement('button')
  btn.type = 'button'
  btn.className = 'toast__close'
  btn.setAttribute('aria-label', t('toast.close', undefined, 'Close'))
  btn.textContent = '×'

  el.append(msg, btn)

  let closed = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let remaining = duration
  let startedAt = 0
  let hovered = false
  let focused = false
  let dragging = false

  const close = () => {
    if (closed) return
    closed = true
    clearTimeout(timer)
    if (reducedMotion()) {
      el.remove()
      return
    }
    el.classList.add('toast--leaving')
    setTimeout(() => el.remove(), LEAVE_MS)
  }
  const pause = () => {
    if (timer === undefined) return
    clearTimeout(timer)
    timer = undefined
    remaining -= Date.now() - startedAt
  }
  const resume = () => {
    if (closed || duration <= 0 || timer !== undefined || hovered || focused || dragging) return
    startedAt = Date.now()
    timer = setTimeout(close, Math.max(0, remaining))
  }

  btn.addEventListener('click', close)
  el.addEventListener('mouseenter', () => {
    hovered = true
    pause()
  })
  el.addEventListener('mouseleave', () => {
    hovered = false
    resume()
  })
  el.addEventListener('focusin', () => {
    focused = true
    pause()
  })
  el.addEventListener('focusout', (e) => {
    focused = el.contains(e.relatedTarget as Node | null)
    resume()
  })

  // Drag / swipe sideways to close.
  let startX = 0
  let dx = 0
  el.addEventListener('pointerdown', (e) => {
    if (closed || e.button !== 0 || btn.contains(e.target as Node)) return
    dragging = true
    startX = e.clientX
    dx = 0
    pause()
    el.classList.add('toast--dragging')
    el.setPointerCapture?.(e.pointerId)
  })
  el.addEventListener('pointermove', (e) => {
    if (!dragging) return
    dx = e.clientX - startX
    const w = el.offsetWidth || 1
    el.style.transform = `translateX(${dx}px)`
    el.style.opacity = String(Math.max(0.2, 1 - Math.abs(dx) / w))
  })
  const endDrag = () => {
    if (!dragging) return
    dragging = false
    el.classList.remove('toast--dragging')
    if (Math.abs(dx) > SWIPE_CLOSE_RATIO * (el.offsetWidth || Infinity)) {
      el.classList.add('toast--swiped')
      close()
      return
    }
    el.style.transform = ''
    el.style.opacity = ''
    resume()
  }
  el.addEventListener('pointerup', endDrag)
  el.addEventListener('pointercancel', endDrag)

  box.prepend(el)
  // Keep small screens usable: drop the oldest beyond the limit.
  const live = box.querySelectorAll('.toast:not(.toast--leaving)')
  for (let i = MAX_TOASTS; i < live.length; i++) live[i].remove()

  resume()
  return { el, close }
}

/** Turns server flash messages (<div data-toast="type">message</div>) in root into toasts. */
export function showFlashes(root: ParentNode = document): void {
  const els: HTMLElement[] = []
  if (root instanceof HTMLElement && root.matches('[data-toast]')) els.push(root)
  root.querySelectorAll<HTMLElement>('[data-toast]').forEach((el) => els.push(el))
  for (const el of els) {
    const message = (el.textContent || '').trim()
    const type = toType(el.dataset.toast)
    el.remove()
    if (message) toast(message, { type })
  }
}

function onToastEvent(e: Event): void {
  const d = (e as CustomEvent).detail as { message?: unknown; value?: unknown; type?: unknown } | null
  const message = typeof d?.message === 'string' ? d.message : typeof d?.value === 'string' ? d.value : ''
  if (message) toast(message, { type: toType(d?.type) })
}

let started = false

/** Shows the page's flash messages and listens for htmx-delivered ones (idempotent). */
export function startToaster(): void {
  if (started) return
  started = true
  const init = () => {
    getContainer()
    showFlashes(document)
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init)
  else init()
  document.addEventListener('toast', onToastEvent)
  document.addEventListener('htmx:load', (e) => {
    if (e.target instanceof HTMLElement) showFlashes(e.target)
  })
  // A swap of the whole body (hx-boost) takes the container with it: put it back so toasts
  // triggered by the response (HX-Trigger fires before the swap) stay visible.
  const keep = () => {
    if (container && !container.isConnected && container.childElementCount) document.body.append(container)
  }
  document.addEventListener('htmx:afterSwap', keep)
  document.addEventListener('htmx:historyRestore', keep)
}
