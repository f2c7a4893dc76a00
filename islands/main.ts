/**
 * Base bundle, loaded on every page: htmx + CSRF header + island loader + toaster.
 * Keep it small (budget: 20 KB gzip incl. CSS). No React here: islands are lazy chunks.
 */
import htmx from 'htmx.org'
import './lib/toast.css'
import { csrfToken } from './lib/csrf'
import { startLoader } from './loader'
import { startToaster } from './lib/toast'
import './registry'

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

startToaster()
startLoader()
