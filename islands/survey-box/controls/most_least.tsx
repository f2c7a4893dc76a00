import { useId } from 'react'
import { tr, useAnswer, type ControlProps } from './shared'

/** A "most" and a "least" radio per option (never the same one): {most, least}. */
export default function MostLeast(p: ControlProps) {
  const opts = p.question.answers ?? []
  const name = useId()
  const has = (id: unknown) => opts.some((o) => o.id === id)
  const [s, set] = useAnswer(
    p,
    (v) => {
      const x = (v ?? {}) as { most?: string; least?: string }
      return { most: has(x.most) ? x.most : undefined, least: has(x.least) && x.least !== x.most ? x.least : undefined }
    },
    (s) => (s.most && s.least ? { most: s.most, least: s.least } : null),
  )
  const cols = [
    ['most', tr(p.t, 'survey.most', 'Most')],
    ['least', tr(p.t, 'survey.least', 'Least')],
  ] as const
  return (
    <div className="cv-scroll">
      <table className="grid" aria-labelledby={p.labelledBy}>
        <thead>
          <tr>
            <td />
            {cols.map(([k, label]) => (
              <th key={k} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {opts.map((o) => (
            <tr key={o.id}>
              <th scope="row">{o.text ?? o.id}</th>
              {cols.map(([k, label]) => (
                <td key={k}>
                  <label className="cv-cell">
                    <input
                      type="radio"
                      name={name + k}
                      value={o.id}
                      checked={s[k] === o.id}
                      aria-label={label + ': ' + (o.text ?? o.id)}
                      disabled={p.disabled}
                      onChange={() => {
                        const other = k == 'most' ? 'least' : 'most'
                        set({ ...s, [k]: o.id, [other]: s[other] === o.id ? undefined : s[other] })
                      }}
                    />
                  </label>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
