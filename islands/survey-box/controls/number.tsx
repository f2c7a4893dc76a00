import { useId } from 'react'
import { inRange, num, range, useAnswer, type ControlProps } from './shared'

/** A number within min_num..max_num on the step: the number, null while empty or outside. */
export default function NumberInput(p: ControlProps) {
  const q = p.question
  const id = useId()
  const [s, set] = useAnswer(
    p,
    (v) => (typeof v == 'number' ? String(v) : ''),
    (s) => (inRange(num(s), q.min_num, q.max_num, q.step) ? num(s) : null),
  )
  const bad = s !== '' && !inRange(num(s), q.min_num, q.max_num, q.step)
  const hint = range(q.min_num, q.max_num)
  return (
    <>
      <input
        className="answer-input"
        type="number"
        inputMode="decimal"
        value={s}
        min={q.min_num}
        max={q.max_num}
        step={q.step || 'any'}
        aria-labelledby={p.labelledBy}
        aria-invalid={bad || undefined}
        aria-describedby={bad && hint ? id : undefined}
        disabled={p.disabled}
        onChange={(e) => set(e.target.value)}
      />
      {bad && hint ? (
        <p className="cv-hint" id={id}>
          {hint}
        </p>
      ) : null}
    </>
  )
}
