import { useId } from 'react'
import { inRange, num, range, tr, useAnswer, type ControlProps } from './shared'

/** How many times (a whole number freq_min, else 0 .. freq_max) per period (freq_period): {count, period}. */
export default function Frequency(p: ControlProps) {
  const q = p.question
  const id = useId()
  const min = q.freq_min ?? 0
  const periods = q.freq_period?.length ? q.freq_period : ['day', 'week', 'month', 'year']
  const ok = (c: string) => inRange(num(c), min, q.freq_max, 1)
  const init = p.value as { count?: unknown; period?: string } | null
  const [s, set] = useAnswer(
    p,
    () => ({ c: typeof init?.count == 'number' ? String(init.count) : '', per: periods.includes(init?.period as string) ? init!.period! : periods[0] }),
    (s) => (ok(s.c) ? { count: num(s.c), period: s.per } : null),
  )
  const bad = s.c !== '' && !ok(s.c)
  return (
    <div className="amount-period" role="group" aria-labelledby={p.labelledBy}>
      <label>
        <span>{tr(p.t, 'survey.how_often', 'How many times')}</span>
        <input
          className="answer-input"
          type="number"
          inputMode="numeric"
          step={1}
          min={min}
          max={q.freq_max}
          value={s.c}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? id : undefined}
          disabled={p.disabled}
          onChange={(e) => set({ ...s, c: e.target.value })}
        />
        {bad ? (
          <small className="cv-hint" id={id}>
            {range(min, q.freq_max)}
          </small>
        ) : null}
      </label>
      <label>
        <span>{tr(p.t, 'survey.period', 'Per')}</span>
        <select className="answer-input" value={s.per} disabled={p.disabled} onChange={(e) => set({ ...s, per: e.target.value })}>
          {periods.map((x) => (
            <option key={x} value={x}>
              {tr(p.t, 'survey.per_' + x, x)}
            </option>
          ))}
        </select>
      </label>
    </div>
  )
}
