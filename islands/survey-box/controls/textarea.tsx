import { useId } from 'react'
import { tr, useAnswer, type ControlProps } from './shared'

/** A longer text answer showing the characters left: the trimmed text, null until it has min_chars. */
export default function TextArea(p: ControlProps) {
  const q = p.question
  const min = Math.max(1, q.min_chars ?? 1)
  const max = q.max_chars ?? 5000
  const id = useId()
  const [s, set] = useAnswer(
    p,
    (v) => (typeof v == 'string' ? v : ''),
    (s) => ([...s.trim()].length >= min ? s.trim() : null),
  )
  const left = Math.max(0, max - s.length)
  return (
    <>
      <textarea
        className="answer-input"
        rows={5}
        value={s}
        maxLength={max}
        aria-labelledby={p.labelledBy}
        aria-describedby={id}
        disabled={p.disabled}
        onChange={(e) => set(e.target.value)}
      />
      <p className="cv-hint cv-count" id={id}>
        {tr(p.t, 'survey.characters_left', left + ' characters left', { Count: left })}
      </p>
    </>
  )
}
