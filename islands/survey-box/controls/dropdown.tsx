import { tr, useOne, type ControlProps } from './shared'

/** A <select> of the options with a placeholder: the option id. */
export default function Dropdown(p: ControlProps) {
  const [v, set] = useOne(p)
  return (
    <select className="answer-input" value={v ?? ''} aria-labelledby={p.labelledBy} disabled={p.disabled} onChange={(e) => set(e.target.value || null)}>
      <option value="" disabled>
        {tr(p.t, 'survey.choose', 'Choose…')}
      </option>
      {(p.question.answers ?? []).map((o) => (
        <option key={o.id} value={o.id}>
          {o.text ?? o.id}
        </option>
      ))}
    </select>
  )
}
