import { useId } from 'react'
import { inRange, num, range, tr, useAnswer, type ControlProps } from './shared'

/** What spend and frequency have in common: a number within [min, max] per period. */
export interface AmountPeriodOptions {
  key: 'amount' | 'count'
  min: number
  max?: number
  periods?: string[]
  whole: boolean
  label: [string, string] // message key, English fallback
}

export function AmountPeriod({ p, o }: { p: ControlProps; o: AmountPeriodOptions }) {
  const id = useId()
  const periods = o.periods?.length ? o.periods : ['day', 'week', 'month', 'year']
  const ok = (v: string) => inRange(num(v), o.min, o.max, o.whole ? 1 : undefined)
  const init = p.value as Record<string, unknown> | null
  const [s, set] = useAnswer(
    p,
    () => ({ v: typeof init?.[o.key] == 'number' ? String(init[o.key]) : '', per: periods.includes(init?.period as string) ? (init!.period as string) : periods[0] }),
    (s) => (ok(s.v) ? ({ [o.key]: num(s.v), period: s.per } as { amount: number; period: string }) : null),
  )
  const bad = s.v !== '' && !ok(s.v)
  return (
    <div className="amount-period" role="group" aria-labelledby={p.labelledBy}>
      <label>
        <span>{tr(p.t, o.label[0], o.label[1])}</span>
        <input
          className="answer-input"
          type="number"
          inputMode={o.whole ? 'numeric' : 'decimal'}
          step={o.whole ? 1 : 'any'}
          min={o.min}
          max={o.max}
          value={s.v}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? id : undefined}
          disabled={p.disabled}
          onChange={(e) => set({ ...s, v: e.target.value })}
        />
        {bad ? (
          <small className="cv-hint" id={id}>
            {range(o.min, o.max)}
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
