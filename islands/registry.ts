/**
 * Island registry: one line per island. Each island lives in islands/<name>/index.ts(x),
 * exports `mount(el: HTMLElement, props: unknown): () => void`, and becomes its own lazily
 * loaded chunk (never part of the base bundle). The server renders it as
 * <div data-island="<name>">fallback + <script type="application/json">props</script></div>
 * and passes <name> to assets.Head(...) so the chunk is modulepreloaded.
 *
 * Add islands like this (uncomment the import with the first one):
 *
 *   import { register } from './loader'
 *
 *   register('survey-box', () => import('./survey-box'))
register('widget', () => import('./widget'))
 */
import { register } from './loader'

register('transaction-filters', () => import('./transaction-filters'))
register('survey-box', () => import('./survey-box'))
register('widget', () => import('./widget'))
