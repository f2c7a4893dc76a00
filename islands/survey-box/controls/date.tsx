import { useAnswer, type ControlProps } from './shared'

/** A date picker: 'YYYY-MM-DD', null while incomplete. */
export default function DateInput(p: ControlProps) {
  const [s, set] = useAnswer(
    p,
    (v) => (typeof v == 'string' ? v : ''),
    (s) => (/^\d{4}-\d\d-\d\d$/.test(s) ? s : null),
  )
  return <input className="answer-input" type="date" value={s} aria-labelledby={p.labelledBy} disabled={p.disabled} onChange={(e) => set(e.target.value)} />
}
