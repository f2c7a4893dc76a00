/**
 * The login and join widgets (/widgets/login, /widgets/join) inside another site's frame. The
 * server renders a plain form that works without JavaScript; this sends the same fields
 * through the API instead (lib/api: X-App-Name is 'widget' on these pages; the payload carries
 * parentFrameUrl). Once the member is in, it tells the framing page, at its allow-listed
 * origin only (never '*', never the token), then either opens the panel at the top of the
 * window with a single-use hand-off code, or shows the signed-in page in the frame, as the
 * panel chose. No React: a listener on the server's form is all it needs.
 */
import { ApiError, post } from '../lib/api'

export interface Props {
  /** The login or register call. */
  api: string
  /** The framing page's origin; absent: nobody is told. */
  target?: string
  message: { type: string; panel: string; member: boolean }
  /** Present when the panel opens itself after the widget: mints the hand-off. */
  handoff?: string
  /** The signed-in page in the frame. */
  done: string
  /** The form field of the panel's captcha, when the form shows one. */
  captcha?: string
}

type Details = { details?: { field?: string; message?: string }[] }

/**
 * Shows a refusal above the form and marks the fields it names. False when it names a field
 * the form lacks (a captcha the panel asks for only now): the plain form then lets the server
 * render the page with it.
 */
function show(form: HTMLFormElement, err: unknown, captcha?: string): boolean {
  if (!(err instanceof ApiError)) return false
  const details = (err.data as Details | undefined)?.details ?? []
  const fields: Element[] = []
  for (const d of details) {
    if (!d.field) continue
    const el = form.querySelector(`[name="${d.field === 'captcha' ? captcha : d.field}"]`)
    if (!el) return false
    fields.push(el)
  }
  form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'))
  fields.forEach((el) => el.setAttribute('aria-invalid', 'true'))
  let box = form.previousElementSibling
  if (!box?.matches('.form-error')) {
    box = document.createElement('p')
    box.className = 'form-error'
    box.setAttribute('role', 'alert')
    form.before(box)
  }
  box.textContent = details.map((d) => d.message).filter(Boolean).join(' ') || err.message
  return true
}

export function mount(el: HTMLElement, props: unknown): () => void {
  const p = props as Props
  const form = el.querySelector('form')
  if (!form || !p?.api) throw new Error('widget: no form or props') // the plain form stays
  let busy = false

  const onSubmit = async (e: Event) => {
    e.preventDefault()
    if (busy) return
    busy = true
    const button = form.querySelector('[type=submit]')
    button?.setAttribute('aria-disabled', 'true')
    const f = new FormData(form)
    const body: Record<string, string> = {}
    for (const name of ['email', 'password', 'firstName', 'parentFrameUrl']) if (f.has(name)) body[name] = String(f.get(name))
    if (p.captcha) body.captchaToken = String(f.get(p.captcha) ?? '')
    try {
      await post(p.api, body)
    } catch (err) {
      busy = false
      button?.removeAttribute('aria-disabled')
      if (!show(form, err, p.captcha)) form.submit()
      return
    }
    if (p.target && window.parent !== window) window.parent.postMessage(p.message, p.target)
    if (p.handoff) {
      try {
        const { url } = await post<{ url: string }>(p.handoff, {})
        window.top!.location.href = url
        return
      } catch {
        // Not allowed to open it from here: the signed-in page offers a link that is.
      }
    }
    location.replace(p.done)
  }

  form.addEventListener('submit', onSubmit)
  return () => form.removeEventListener('submit', onSubmit)
}
