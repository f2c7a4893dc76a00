/**
 * htmx entry: its own <script type="module">, emitted only on pages that swap fragments with
 * htmx (web.UseHTMX: the feed, the transactions page). Everywhere else hx-* attributes are inert
 * and their forms and links work as plain HTML, so the survey page and pages without swaps don't
 * pay ~15 KB gzip for it. A separate entry (not a dynamic import) so it runs before
 * DOMContentLoaded, which htmx waits for to process the page.
 */
import htmx from 'htmx.org'
import { csrfToken } from './lib/csrf'
import { t } from './lib/i18n'
import { toast } from './lib/toast'

declare global {
  interface Window {
    htmx: typeof htmx
  }
}

// htmx extensions and hx-on handlers look for the global.
window.htmx = htmx

// The CSP allows inline <style> only with the page nonce: give it to htmx's indicator styles.
// (Browsers hide the nonce attribute's value; the .nonce property still has it.)
const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce
if (nonce) htmx.config.inlineStyleNonce = nonce

// Echo the CSRF token on every same-origin htmx request.
document.addEventListener('htmx:configRequest', (e) => {
  const detail = (e as CustomEvent<{ headers: Record<string, string>; path: string }>).detail
  try {
    if (new URL(detail.path, location.href).origin !== location.origin) return
  } catch {
    return
  }
  const token = csrfToken()
  if (token) detail.headers['X-XSRF-TOKEN'] = token
})

// A failed swap says so (a month of transactions that did not load, a hidden campaign that
// was not hidden): the element's data-error text, else the generic message.
const failed = (e: Event) => {
  const elt = (e as CustomEvent<{ elt?: Element }>).detail?.elt
  const own = elt?.closest<HTMLElement>('[data-error]')?.dataset.error
  toast(own || t('errors.generic', undefined, 'Oops, something went wrong'), { type: 'error' })
}
document.addEventListener('htmx:responseError', failed)
document.addEventListener('htmx:sendError', failed)
