/**
 * Translations embedded by the server as a flat JSON object:
 *   <script type="application/json" id="i18n">{"survey.submit": "Send {count} answers"}</script>
 */
let dict: Record<string, unknown> | null = null

function load(): Record<string, unknown> {
  if (!dict) {
    dict = {}
    try {
      const parsed: unknown = JSON.parse(document.getElementById('i18n')?.textContent || '{}')
      if (parsed && typeof parsed === 'object') dict = parsed as Record<string, unknown>
    } catch (err) {
      console.warn('[i18n] bad JSON', err)
    }
  }
  return dict
}

/**
 * Translates key, replacing {name} placeholders with vars.
 * A missing key falls back to `fallback`, else to the key itself.
 */
export function t(key: string, vars?: Record<string, string | number>, fallback?: string): string {
  const v = load()[key]
  const s = typeof v === 'string' ? v : (fallback ?? key)
  return vars ? s.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : s
}

/** Forgets the cached translations (tests, or after the server swaps #i18n). */
export function resetI18n(): void {
  dict = null
}
