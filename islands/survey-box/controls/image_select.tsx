import { Group, optLabel, useOne, type ControlProps } from './shared'

/** Images as radio cards (alt text, else their text names them): the option id. */
export default function ImageSelect(p: ControlProps) {
  const [v, set] = useOne(p)
  return (
    <Group
      p={p}
      cls="choices cv-card choices-image_select"
      items={(p.question.answers ?? []).map((o) => ({ id: o.id, label: optLabel(o) }))}
      on={(id) => id === v}
      pick={set}
    />
  )
}
