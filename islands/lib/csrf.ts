/** Reads a cookie value by name (decoded), or null when absent. */
export function cookie(name: string): string | null {
  const prefix = name + '='
  for (const part of document.cookie.split(';')) {
    const c = part.trim()
    if (c.startsWith(prefix)) {
      const v = c.slice(prefix.length)
      try {
        return decodeURIComponent(v)
      } catch {
        return v
      }
    }
  }
  return null
}

/**
 * The CSRF token to echo back as X-XSRF-TOKEN: the XSRF-TOKEN cookie, else
 * <meta name="csrf-token" content="...">, else null.
 */
export function csrfToken(): string | null {
  return (
    cookie('XSRF-TOKEN') ||
    document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ||
    null
  )
}
