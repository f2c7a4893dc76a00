/**
 * The console's editor entry: its own <script type="module">, put only on the campaign
 * editor's pages (web.UseIsland(c, "console-editor") in modules/console/campaigns). It imports
 * nothing the base bundle (main.ts) imports, so main.js, its chunks and every member page stay
 * byte for byte as they were; the editor itself (CodeMirror, the schema) is the lazy chunk
 * island-campaign-editor-*.js, which those pages modulepreload (web.UseIsland(c, "campaign-editor")).
 *
 * It mounts [data-console-island] elements the way the base loader mounts [data-island] ones
 * (the first direct <script type="application/json"> child is the props; data-island-state says
 * loading, mounted or failed), under its own attribute so the base loader never sees them.
 */
/**
 * Vite wraps each import() in a call to __vitePreload (which preloads the chunk's dependencies)
 * and uses the one the module defines, if any, instead of its shared helper. Without this one
 * the helper, used by main.js too, would move out of main.js into a chunk of its own and change
 * the base bundle of every page. The same as vite.config.ts's smallPreloadHelper.
 */
export const __vitePreload = <T>(load: () => Promise<T>, deps?: string[]): Promise<T> =>
  Promise.all(
    (deps ?? []).map((dep) => {
      dep = '/static/dist/' + dep
      if (document.querySelector(`link[href="${dep}"]`)) return
      const css = dep.endsWith('.css')
      const link = document.createElement('link')
      link.rel = css ? 'stylesheet' : 'modulepreload'
      link.href = dep
      document.head.appendChild(link)
      if (css) return new Promise((ok, fail) => ((link.onload = ok), (link.onerror = () => fail(new Error('Unable to preload CSS for ' + dep)))))
    }),
  ).then(load)

interface IslandModule {
  mount(el: HTMLElement, props: unknown): () => void
}

const islands: Record<string, () => Promise<IslandModule>> = {
  'campaign-editor': () => import('./campaign-editor'),
}

export async function mountConsoleIsland(el: HTMLElement): Promise<void> {
  if (el.dataset.islandState) return
  const name = el.dataset.consoleIsland ?? ''
  const load = islands[name]
  el.dataset.islandState = 'loading'
  try {
    if (!load) throw new Error('unknown island')
    const script = el.querySelector(':scope > script[type="application/json"]')
    const props: unknown = script ? JSON.parse(script.textContent || 'null') : {}
    const mod = await load()
    mod.mount(el, props)
    el.dataset.islandState = 'mounted'
  } catch (err) {
    // The server's form stays: it works without the island.
    console.error(`[island] ${name}: not mounted`, err)
    el.dataset.islandState = 'failed'
  }
}

export function mountConsoleIslands(root: ParentNode = document): Promise<void> {
  return Promise.all(Array.from(root.querySelectorAll<HTMLElement>('[data-console-island]'), mountConsoleIsland)).then(() => undefined)
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void mountConsoleIslands())
  else void mountConsoleIslands()
}
