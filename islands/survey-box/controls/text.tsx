import { useAnswer, type ControlProps } from './shared'

/** A one-line text answer: the trimmed text, null until it has min_chars (at least 1). */
export default function Text(p: ControlProps) {
  const q = p.question
  const min = Math.max(1, q.min_chars ?? 1)
  const [s, set] = useAnswer(
    p,
    (v) => (typeof v == 'string' ? v : ''),
    (s) => ([...s.trim()].length >= min ? s.trim() : null),
  )
  return (
    <input
      className="answer-input"
      type="text"
      value={s}
      maxLength={q.max_chars ?? 1000}
      aria-labelledby={p.labelledBy}
      disabled={p.disabled}
      onChange={(e) => set(e.target.value)}
    />
  )
}
