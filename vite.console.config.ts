/**
 * The console's own build (`npm run build` runs it after vite.config.ts's): the campaign
 * editor's entry (islands/console-editor.ts) and its lazy CodeMirror chunk, into the same
 * static/dist with a manifest of their own (.vite/console-manifest.json, merged by
 * static.Load). A separate build and not a third entry of the main one: in one build every new
 * chunk renumbers Rollup's hash placeholders, which changes the minifier's choice of names in
 * main.js and the member islands; apart, member pages stay byte for byte as they were.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig, type UserConfig } from 'vite'
import base from './vite.config'

const r = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const main = base as UserConfig

export default defineConfig({
  ...main,
  test: undefined,
  build: {
    ...main.build,
    manifest: '.vite/console-manifest.json',
    rollupOptions: {
      ...main.build?.rollupOptions,
      input: { 'console-editor': r('./islands/console-editor.ts') },
    },
  },
})
