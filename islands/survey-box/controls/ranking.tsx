import { useEffect, useId, useRef, useState } from 'react'
import { tr, type ControlProps } from './shared'

/**
 * All options in the member's order, moved with "Move up"/"Move down" buttons (announced in an
 * aria-live region). Reports the full order (ids) once the member changed it or kept it ("Keep
 * this order"); null before.
 */
export default function Ranking(p: ControlProps) {
  const opts = p.question.answers ?? []
  const ids = opts.map((o) => o.id)
  const had = Array.isArray(p.value) ? p.value.filter((id) => ids.includes(id)) : null
  const [order, setOrder] = useState(() => (had ? [...had, ...ids.filter((id) => !had.includes(id))] : ids))
  const [done, setDone] = useState(!!had?.length)
  const [say, setSay] = useState('')
  const focus = useRef<[string, number] | null>(null)
  const box = useRef<HTMLOListElement>(null)
  const uid = useId()
  const text = (id: string) => opts.find((o) => o.id === id)?.text ?? id
  const rank = tr(p.t, 'survey.rank', 'Rank')
  const up = tr(p.t, 'survey.move_up', 'Move up')
  const down = tr(p.t, 'survey.move_down', 'Move down')

  // Keeps focus on the moved item's button (on the other one at the top or bottom).
  useEffect(() => {
    const f = focus.current
    focus.current = null
    if (!f) return
    const bs = box.current?.querySelectorAll<HTMLButtonElement>(`[data-id="${CSS.escape(f[0])}"] button`)
    if (bs) (bs[f[1]].disabled ? bs[1 - f[1]] : bs[f[1]]).focus()
  })

  const move = (i: number, d: number) => {
    const next = [...order]
    ;[next[i], next[i + d]] = [next[i + d], next[i]]
    focus.current = [next[i + d], d < 0 ? 0 : 1]
    setOrder(next)
    setDone(true)
    setSay(`${text(next[i + d])}: ${rank} ${i + d + 1} / ${next.length}`)
    p.onChange(next)
  }
  const btn = (i: number, d: number, label: string, glyph: string) => (
    <button type="button" className="cv-btn" aria-label={label} aria-describedby={uid + i} disabled={p.disabled || !order[i + d]} onClick={() => move(i, d)}>
      {glyph}
    </button>
  )
  return (
    <div role="group" aria-labelledby={p.labelledBy}>
      <ol className="ranking" ref={box}>
        {order.map((id, i) => (
          <li key={id} className="choice" data-id={id}>
            <span id={uid + i}>{text(id)}</span>
            {btn(i, -1, up, '↑')}
            {btn(i, 1, down, '↓')}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="cv-btn cv-keep"
        aria-pressed={done}
        disabled={p.disabled}
        onClick={() => {
          setDone(true)
          p.onChange(order)
        }}
      >
        {tr(p.t, 'survey.keep_order', 'Keep this order')}
      </button>
      <p className="visually-hidden" aria-live="polite">
        {say}
      </p>
    </div>
  )
}
