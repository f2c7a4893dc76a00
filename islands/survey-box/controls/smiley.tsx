import type { ReactNode } from 'react'
import { Points, type ControlProps } from './shared'

const FACES = ['😞', '🙁', '😐', '🙂', '😀']

/** Scale answers as faces from sad to happy (by position), named by their text: the value. */
export default function Smiley(p: ControlProps) {
  const list = p.question.scale_answers ?? []
  const points = list.map((o, i): [number, ReactNode, string] => {
    const v = o.value ?? i + 1
    const text = o.text ?? String(v)
    return [
      v,
      <>
        <b aria-hidden="true">{FACES[list.length > 1 ? Math.round((i * 4) / (list.length - 1)) : 2]}</b>
        <span>{o.text}</span>
      </>,
      text,
    ]
  })
  return <Points p={p} points={points} cls="cv-smiley" />
}
