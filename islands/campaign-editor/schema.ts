/**
 * Completions from the campaign schema (modules/campaigns/schema/campaign.schema.json) for a
 * YAML document being typed: where the cursor stands (a key or a value, under which path),
 * which properties the schema allows there and which enum values a key takes. The YAML is read
 * line by line from indentation, as an author writes it (block style); inside {...} or [...]
 * nothing is offered.
 */

export type Schema = {
  $ref?: string
  type?: string | string[]
  description?: string
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  then?: Schema
  else?: Schema
  $defs?: Record<string, Schema>
}

/** Where the cursor stands: the path of the mapping it is in, and a key or a key's value. */
export interface Place {
  /** Keys from the root; '*' for an item of a list. */
  path: string[]
  kind: 'key' | 'value'
  /** The key whose value is typed (kind value). */
  key?: string
  /** Where the word being typed starts (the completion replaces from here). */
  from: number
  /** The word typed so far. */
  prefix: string
}

interface Line {
  dashes: number[] // columns of the list dashes before the key
  keyCol: number
  key: string | null
}

const KEY = /^(["']?)([A-Za-z_][\w-]*)\1\s*:(?:\s|$)/

function readLine(text: string): Line | null {
  if (/^\s*(#.*)?$/.test(text)) return null
  let i = 0
  while (text[i] === ' ') i++
  const dashes: number[] = []
  while (text[i] === '-' && (text[i + 1] === ' ' || i + 1 === text.length)) {
    dashes.push(i)
    i++
    while (text[i] === ' ') i++
  }
  const m = KEY.exec(text.slice(i))
  return { dashes, keyCol: i, key: m ? m[2] : null }
}

/**
 * The path of the mapping whose keys sit at keyCol on line row (with dashes before the key on
 * that line), read from the lines above.
 */
export function containerPath(lines: string[], row: number, keyCol: number, dashes: number[]): string[] {
  const path: string[] = []
  let state: { seq: boolean; col: number } = { seq: false, col: keyCol }
  const enter = (l: Line) => {
    for (let k = 0; k < l.dashes.length; k++) path.unshift('*')
    state = l.dashes.length ? { seq: true, col: l.dashes[0] } : { seq: false, col: l.keyCol }
  }
  if (dashes.length) enter({ dashes, keyCol, key: null })
  for (let r = row - 1; r >= 0; r--) {
    const l = readLine(lines[r])
    if (!l) continue
    const start = l.dashes.length ? l.dashes[0] : l.keyCol
    if (state.seq) {
      if (l.dashes.length && l.dashes[0] === state.col) continue // another item of the list
      if (start > state.col) continue // inside another item
      if (!l.key) return path
      path.unshift(l.key)
      enter(l)
      continue
    }
    if (start > state.col) continue // deeper than the mapping
    if (l.keyCol === state.col && start <= state.col) {
      if (l.dashes.length) {
        if (l.keyCol === state.col) enter({ ...l, key: null })
      } else if (state.col === 0) {
        return path // a key of the root
      }
      continue
    }
    if (l.keyCol < state.col) {
      if (!l.key) return path
      path.unshift(l.key)
      enter(l)
    }
  }
  return path
}

/** Where the cursor at pos stands in text, or null where nothing is offered. */
export function placeAt(text: string, pos: number): Place | null {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1
  const before = text.slice(lineStart, pos)
  const lines = text.slice(0, lineStart).split('\n')
  const row = lines.length - 1
  let m = /^( *)((?:- +)*)([A-Za-z_][\w-]*)?$/.exec(before)
  if (m) {
    const dashes: number[] = []
    let col = m[1].length
    for (const d of m[2].match(/- +/g) ?? []) {
      dashes.push(col)
      col += d.length
    }
    const prefix = m[3] ?? ''
    return { path: containerPath(lines, row, col, dashes), kind: 'key', from: pos - prefix.length, prefix }
  }
  m = /^( *)((?:- +)*)([A-Za-z_][\w-]*) *: +(["']?)([\w.-]*)$/.exec(before)
  if (m) {
    const dashes: number[] = []
    let col = m[1].length
    for (const d of m[2].match(/- +/g) ?? []) {
      dashes.push(col)
      col += d.length
    }
    const prefix = m[5]
    return { path: containerPath(lines, row, col, dashes), kind: 'value', key: m[3], from: pos - prefix.length, prefix }
  }
  return null
}

function resolve(root: Schema, s: Schema | undefined, depth = 0): Schema | undefined {
  while (s && s.$ref && depth++ < 20) {
    const name = s.$ref.replace(/^#\/\$defs\//, '')
    s = root.$defs?.[name]
  }
  return s
}

/** The schema and every branch of it (anyOf, oneOf, allOf, then, else), resolved. */
function branches(root: Schema, s: Schema | undefined, depth = 0): Schema[] {
  const r = resolve(root, s)
  if (!r || depth > 8) return []
  const out = [r]
  for (const b of [...(r.anyOf ?? []), ...(r.oneOf ?? []), ...(r.allOf ?? []), ...(r.then ? [r.then] : []), ...(r.else ? [r.else] : [])]) {
    out.push(...branches(root, b, depth + 1))
  }
  return out
}

/** The schemas of the value at path. */
export function schemasAt(root: Schema, path: string[]): Schema[] {
  let here = branches(root, root)
  for (const seg of path) {
    const next: Schema[] = []
    for (const s of here) {
      const child = seg === '*' ? s.items : s.properties?.[seg]
      if (child) next.push(...branches(root, child))
    }
    here = next
  }
  return here
}

export interface Option {
  label: string
  type: 'property' | 'enum' | 'keyword'
  info?: string
  apply?: string
}

/** The completions at pos: the keys the schema allows there, or the values a key takes. */
export function completionsAt(root: Schema, text: string, pos: number): { from: number; options: Option[] } | null {
  const place = placeAt(text, pos)
  if (!place) return null
  if (place.kind === 'key') {
    const seen = new Map<string, Option>()
    for (const s of schemasAt(root, place.path)) {
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if (!seen.has(k)) seen.set(k, { label: k, type: 'property', info: resolve(root, v)?.description ?? v.description, apply: k + ': ' })
      }
    }
    const options = [...seen.values()].filter((o) => o.label.startsWith(place.prefix))
    return options.length ? { from: place.from, options } : null
  }
  const values = new Map<string, Option>()
  for (const s of schemasAt(root, [...place.path, place.key!])) {
    for (const v of s.enum ?? []) {
      if (typeof v === 'string') values.set(v, { label: v, type: 'enum', info: s.description })
    }
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
    if (types.includes('boolean')) {
      values.set('true', { label: 'true', type: 'keyword' })
      values.set('false', { label: 'false', type: 'keyword' })
    }
  }
  const options = [...values.values()].filter((o) => o.label.startsWith(place.prefix))
  return options.length ? { from: place.from, options } : null
}
