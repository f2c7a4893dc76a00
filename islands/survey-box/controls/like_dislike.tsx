import { tr, useOne, type ControlProps } from './shared'

/** Two big toggle buttons, 👍 answers[0] and 👎 answers[1], named by their text: the option id. */
export default function LikeDislike(p: ControlProps) {
  const [v, set] = useOne(p)
  return (
    <div className="cv-ld" role="group" aria-labelledby={p.labelledBy}>
      {(p.question.answers ?? []).slice(0, 2).map((o, i) => (
        <button key={o.id} type="button" className="cv-btn" aria-pressed={v === o.id} disabled={p.disabled} onClick={() => set(o.id)}>
          <b aria-hidden="true">{i ? '👎' : '👍'}</b>
          <span>{o.text || (i ? tr(p.t, 'survey.dislike', 'Dislike') : tr(p.t, 'survey.like', 'Like'))}</span>
        </button>
      ))}
    </div>
  )
}
