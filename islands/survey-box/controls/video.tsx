import { tr, useAnswer, type ControlProps } from './shared'

/** The YouTube video (no-cookie embed) and "I have watched the video": {watched: true}. */
export default function Video(p: ControlProps) {
  const q = p.question
  const [on, set] = useAnswer(
    p,
    (v) => !!(v && typeof v == 'object' && 'watched' in v && v.watched),
    (on) => (on ? { watched: true } : null),
  )
  return (
    <div role="group" aria-labelledby={p.labelledBy}>
      {q.videoid ? (
        <div className="cv-video">
          <iframe
            src={'https://www.youtube-nocookie.com/embed/' + encodeURIComponent(q.videoid)}
            title={q.text}
            allow="encrypted-media; picture-in-picture; fullscreen"
            allowFullScreen
          />
        </div>
      ) : null}
      <label className={'choice' + (on ? ' on' : '')}>
        <input type="checkbox" checked={on} disabled={p.disabled} onChange={(e) => set(e.target.checked)} />
        <span>{tr(p.t, 'survey.watched', 'I have watched the video')}</span>
      </label>
    </div>
  )
}
