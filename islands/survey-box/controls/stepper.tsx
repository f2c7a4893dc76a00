import { inRange, num, tr, useAnswer, type ControlProps } from './shared'

/** − and + buttons around the number, bounded by min_num..max_num, step (default 1): the number. */
export default function Stepper(p: ControlProps) {
  const q = p.question
  const { min_num: min, max_num: max } = q
  const step = q.step && q.step > 0 ? q.step : 1
  const ok = (s: string) => inRange(num(s), min, max, q.step)
  const [s, set] = useAnswer(
    p,
    (v) => (typeof v == 'number' ? String(v) : ''),
    (s) => (ok(s) ? num(s) : null),
  )
  const n = num(s)
  const bump = (d: number) => {
    let x = isNaN(n) ? (min ?? 0) : n + d * step
    if (min != null && x < min) x = min
    if (max != null && x > max) x = max
    set(String(+x.toFixed(10)))
  }
  const btn = (d: number, label: string, glyph: string, off: boolean) => (
    <button type="button" className="cv-btn" aria-label={label} disabled={p.disabled || off} onClick={() => bump(d)}>
      {glyph}
    </button>
  )
  return (
    <div className="cv-step" role="group" aria-labelledby={p.labelledBy}>
      {btn(-1, tr(p.t, 'survey.decrease', 'Decrease'), '−', min != null && n <= min)}
      <input
        className="answer-input"
        type="number"
        inputMode="decimal"
        value={s}
        min={min}
        max={max}
        step={step}
        aria-labelledby={p.labelledBy}
        aria-invalid={(s !== '' && !ok(s)) || undefined}
        disabled={p.disabled}
        onChange={(e) => set(e.target.value)}
      />
      {btn(1, tr(p.t, 'survey.increase', 'Increase'), '+', max != null && n >= max)}
    </div>
  )
}
