// Writes Brotli (quality 11) and gzip (level 9) variants of the built and hand-written static
// files, so the server sends compressed bytes without compressing anything per request
// (static/serve.go embeds them and picks one by Accept-Encoding). Run after `vite build`:
//
//   static/dist/assets/<file>       -> static/dist/assets/<file>.br, .gz
//   static/css/<file>, static/img/… -> static/dist/precompressed/{css,img}/<file>.br, .gz
//
// The hand-written files' variants go under static/dist (not committed) so that nothing
// generated lands next to committed sources. A variant that is not smaller than its original is
// not written: the server then sends the original.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../static/', import.meta.url))
const assets = join(root, 'dist', 'assets')
const precompressed = join(root, 'dist', 'precompressed')

// Text formats gain from compression; images other than SVG and fonts are compressed already.
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.html', '.txt', '.map', '.xml'])

/** Every file under dir (recursively), skipping dotfiles and variants written earlier. */
function files(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...files(path))
    else if (COMPRESSIBLE.has(extname(name))) out.push(path)
  }
  return out
}

const totals = { files: 0, identity: 0, gzip: 0, br: 0 }

/** Compresses src and writes the variants at dest + '.br' / '.gz' when they are smaller. */
function precompress(src, dest) {
  const data = readFileSync(src)
  const variants = {
    br: brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gz: gzipSync(data, { level: constants.Z_BEST_COMPRESSION }),
  }
  totals.files++
  totals.identity += data.length
  mkdirSync(dirname(dest), { recursive: true })
  for (const [ext, body] of Object.entries(variants)) {
    // Remove a stale variant first, so one that is no longer smaller does not linger.
    rmSync(`${dest}.${ext}`, { force: true })
    if (body.length >= data.length) continue
    writeFileSync(`${dest}.${ext}`, body)
    totals[ext === 'br' ? 'br' : 'gzip'] += body.length
  }
}

for (const src of files(assets)) precompress(src, src)

// Rebuilt from scratch: a source deleted since the last build must not keep its variants.
rmSync(precompressed, { recursive: true, force: true })
for (const dir of ['css', 'img']) {
  for (const src of files(join(root, dir))) precompress(src, join(precompressed, relative(root, src)))
}

const kb = (n) => (n / 1024).toFixed(1) + ' KiB'
console.log(
  `precompressed ${totals.files} files: ${kb(totals.identity)} -> gzip ${kb(totals.gzip)}, br ${kb(totals.br)}` +
    ' (variants not smaller than their original are skipped)',
)
