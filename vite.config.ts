/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))

/** Packages that may only ever appear in island chunks, never in the base bundle. */
const ISLAND_ONLY = /[\\/]node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@preact[\\/]signals-react|@preact[\\/]signals-core)[\\/]/

/** Fails the build if React (or signals) ends up in the entry chunk or anything it imports statically. */
function reactOnlyInIslands(): Plugin {
  return {
    name: 'canvass:react-only-in-islands',
    apply: 'build',
    generateBundle(_, bundle) {
      for (const entry of Object.values(bundle)) {
        if (entry.type !== 'chunk' || !entry.isEntry) continue
        const seen = new Set<string>()
        const walk = (file: string) => {
          if (seen.has(file)) return
          seen.add(file)
          const chunk = bundle[file]
          if (!chunk || chunk.type !== 'chunk') return
          const bad = chunk.moduleIds.find((id) => ISLAND_ONLY.test(id))
          if (bad) this.error(`${bad} is statically reachable from the base bundle (${entry.fileName} -> ${file}); import it only from islands`)
          chunk.imports.forEach(walk)
        }
        walk(entry.fileName)
      }
    },
  }
}

/**
 * htmx's `htmx._(str)` debugging helper uses a direct eval, which stops the minifier from
 * renaming anything inside htmx (+1.6 KB gzip). Make it an indirect eval, exactly what the
 * official htmx.min.js already behaves like (its internal names are mangled too).
 */
function htmxIndirectEval(): Plugin {
  return {
    name: 'canvass:htmx-indirect-eval',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]htmx\.org[\\/]dist[\\/]htmx\.esm\.js$/.test(id)) return null
      const out = code.replace('return eval(str)', 'return (0, eval)(str)')
      if (out === code) this.warn('htmx eval() call not found; check the htmx upgrade')
      return { code: out, map: null }
    },
  }
}

const BASE = '/static/dist/'

/**
 * Replaces Vite's dynamic-import preload helper (~0.65 KB gzip in the base bundle once the first
 * island is registered) with a minimal one (~0.2 KB): for each dependency of an island chunk it adds
 * <link rel=modulepreload> (JS) or <link rel=stylesheet> (CSS, awaited) unless the page already has
 * a link with that href (static.Assets.Head renders the same URLs), then imports the chunk.
 * Same signature as Vite's `__vitePreload(baseModule, deps)`; drops the CSP-nonce support and the
 * `vite:preloadError` event (the island loader handles failures itself).
 */
function smallPreloadHelper(): Plugin {
  const id = '\0vite/preload-helper.js'
  return {
    name: 'canvass:small-preload-helper',
    enforce: 'pre',
    apply: 'build',
    load(source) {
      if (source !== id) return null
      return `const seen = {}
export const __vitePreload = (load, deps) => Promise.all((deps || []).map((dep) => {
  dep = ${JSON.stringify(BASE)} + dep
  if (seen[dep] || document.querySelector('link[href="' + dep + '"]')) return
  seen[dep] = 1
  const css = dep.endsWith('.css'), link = document.createElement('link')
  link.rel = css ? 'stylesheet' : 'modulepreload'
  link.href = dep
  document.head.appendChild(link)
  if (css) return new Promise((ok, fail) => { link.onload = ok; link.onerror = () => fail(new Error('Unable to preload CSS for ' + dep)) })
})).then(() => load())
`
    },
    generateBundle(_, bundle) {
      for (const c of Object.values(bundle)) {
        if (c.type === 'chunk' && c.code.includes('vite:preloadError')) {
          this.warn(`Vite's own preload helper is in ${c.fileName}: the helper id changed, update smallPreloadHelper()`)
        }
      }
    },
  }
}

export default defineConfig({
  root: r('./islands'),
  base: BASE,
  publicDir: false,
  cacheDir: r('./node_modules/.vite'),
  // No @vitejs/plugin-react: esbuild compiles JSX with the automatic runtime.
  esbuild: { jsx: 'automatic', legalComments: 'none' },
  plugins: [smallPreloadHelper(), htmxIndirectEval(), reactOnlyInIslands()],
  build: {
    outDir: r('./static/dist'),
    // Keep the committed static/dist/.gitignore; `make` removes static/dist/assets before a build.
    emptyOutDir: false,
    manifest: true, // static/dist/.vite/manifest.json, read by static.Load
    target: 'es2020',
    // terser squeezes htmx ~0.5 KB gzip more than esbuild: it keeps the base bundle under budget.
    minify: 'terser',
    terserOptions: { ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } },
    cssMinify: true,
    sourcemap: false,
    assetsInlineLimit: 0,
    rollupOptions: {
      // Two entries: the base bundle and htmx (only on pages that swap fragments, see htmx.ts);
      // islands are dynamic imports in registry.ts.
      input: { main: r('./islands/main.ts'), htmx: r('./islands/htmx.ts') },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: (chunk) => {
          const m = /[\\/]islands[\\/]([\w-]+)[\\/]index\.[jt]sx?$/.exec(chunk.facadeModuleId ?? '')
          return m ? `assets/island-${m[1]}-[hash].js` : 'assets/[name]-[hash].js'
        },
        assetFileNames: 'assets/[name]-[hash][extname]',
        // One long-cached vendor chunk shared by all islands.
        manualChunks: (id) => (ISLAND_ONLY.test(id) ? 'react' : undefined),
      },
    },
  },
  test: {
    environment: 'happy-dom',
    include: ['**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
})
