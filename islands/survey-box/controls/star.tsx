import { Points, tr, type ControlProps } from './shared'

/**
 * 1..max_num (default 5) stars as a radiogroup, each named "N stars": the box's pluralised
 * survey.stars.N label, else t('survey.stars', {Count: N}), else English. Reports the number.
 */
export default function Star(p: ControlProps) {
  const n = Math.max(1, Math.round(p.question.max_num ?? 5))
  // Probes: the server sends survey.stars.1..5 only, and survey.stars not at all.
  const name = (c: number) => tr(p.t, 'survey.stars.' + c, tr(p.t, 'survey.stars', c > 1 ? c + ' stars' : '1 star', { Count: c }, true), undefined, true)
  const points = Array.from({ length: n }, (_, i): [number, string, string] => [i + 1, '★', name(i + 1)])
  return <Points p={p} points={points} cls="cv-star" fill />
}
