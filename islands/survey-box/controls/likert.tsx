import { Points, type ControlProps } from './shared'

/** The scale answers as a radiogroup: the option's value, else its position from 1. */
export default function Likert(p: ControlProps) {
  const points = (p.question.scale_answers ?? []).map((o, i): [number, string] => [o.value ?? i + 1, o.text ?? String(o.value ?? i + 1)])
  return <Points p={p} points={points} cls="cv-likert" />
}
