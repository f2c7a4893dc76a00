import { useId, useSyncExternalStore } from 'react'
import { useAnswer, type ControlProps, type Option } from './shared'

const PHONE = '(max-width: 767.98px)'
const mq = () => (typeof matchMedia == 'function' ? matchMedia(PHONE) : null)
const subscribe = (f: () => void) => {
  const m = mq()
  m?.addEventListener('change', f)
  return () => m?.removeEventListener('change', f)
}
const narrow = () => !!mq()?.matches

type Cells = Record<string, string | string[]>

/**
 * Rows × columns: one column per row (radios), or several with multiple (checkboxes), each
 * labelled "row: column". A table; on phones (<768px) each row is its own fieldset.
 * {rowId: columnId | columnIds}, null until every row is answered.
 */
export default function Grid(p: ControlProps) {
  const q = p.question
  const rows = q.rows ?? []
  const cols = q.columns ?? []
  const multi = !!q.multiple
  const name = useId()
  const phone = useSyncExternalStore(subscribe, narrow, () => false)
  const colIds = cols.map((c) => c.id)
  const [s, set] = useAnswer(
    p,
    (v): Cells => {
      const out: Cells = {}
      if (v && typeof v == 'object' && !Array.isArray(v))
        for (const r of rows) {
          const x = (v as Cells)[r.id]
          if (multi ? Array.isArray(x) : typeof x == 'string') out[r.id] = multi ? colIds.filter((c) => x.includes(c)) : colIds.includes(x as string) ? x : ''
        }
      return out
    },
    (s) => (rows.length && rows.every((r) => s[r.id]?.length) ? { ...s } : null),
  )
  const on = (r: string, c: string) => (multi ? ((s[r] as string[] | undefined) ?? []).includes(c) : s[r] === c)
  const pick = (r: string, c: string) => {
    const cur = (s[r] as string[] | undefined) ?? []
    set({ ...s, [r]: multi ? colIds.filter((x) => (x === c ? !cur.includes(c) : cur.includes(x))) : c })
  }
  const cell = (r: Option, c: Option, text?: boolean) => (
    <label key={c.id} className={text ? 'choice' + (on(r.id, c.id) ? ' on' : '') : 'cv-cell'}>
      <input
        type={multi ? 'checkbox' : 'radio'}
        name={name + r.id}
        value={c.id}
        checked={on(r.id, c.id)}
        aria-label={(r.text ?? r.id) + ': ' + (c.text ?? c.id)}
        disabled={p.disabled}
        onChange={() => pick(r.id, c.id)}
      />
      {text ? <span>{c.text ?? c.id}</span> : null}
    </label>
  )
  if (phone)
    return (
      <div role="group" aria-labelledby={p.labelledBy}>
        {rows.map((r) => (
          <fieldset key={r.id} className="cv-row">
            <legend>{r.text ?? r.id}</legend>
            <div className="choices">{cols.map((c) => cell(r, c, true))}</div>
          </fieldset>
        ))}
      </div>
    )
  return (
    <div className="cv-scroll">
      <table className="grid" aria-labelledby={p.labelledBy}>
        <thead>
          <tr>
            <td />
            {cols.map((c) => (
              <th key={c.id} scope="col">
                {c.text ?? c.id}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.text ?? r.id}</th>
              {cols.map((c) => (
                <td key={c.id}>{cell(r, c)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
