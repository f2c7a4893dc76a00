import { useId } from 'react'
import { inRange, num, range, tr, useAnswer, type ControlProps } from './shared'

/** An amount (spend_min, else 0 .. spend_max) per period (spend_period): {amount, period}. */
export default function Spend(p: ControlProps) {
  const q = p.question
  const id = useId()
  const min = q.spend_min ?? 0
  const periods = q.spend_period?.length ? q.spend_period : ['day', 'week', 'month', 'year']
  const ok = (a: string) => inRange(num(a), min, q.spend_max)
  const init = p.value as { amount?: unknown; period?: string } | null
  const [s, set] = useAnswer(
    p,
    () => ({ a: typeof init?.amount == 'number' ? String(init.amount) : '', per: periods.includes(init?.period as string) ? init!.period! : periods[0] }),
    (s) => (ok(s.a) ? { amount: num(s.a), period: s.per } : null),
  )
  const bad = s.a !== '' && !ok(s.a)
  return (
    <div className="amount-period" role="group" aria-labelledby={p.labelledBy}>
      <label>
        <span>{tr(p.t, 'survey.amount', 'Amount')}</span>
        <input
          className="answer-input"
          type="number"
          inputMode="decimal"
          step="any"
          min={min}
          max={q.spend_max}
          value={s.a}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? id : undefined}
          disabled={p.disabled}
          onChange={(e) => set({ ...s, a: e.target.value })}
        />
        {bad ? (
          <small className="cv-hint" id={id}>
            {range(min, q.spend_max)}
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
