import { Group, optLabel, useOne, type ControlProps } from './shared'

/** One option as native radios: the option id. */
export default function Radio(p: ControlProps) {
  const [v, set] = useOne(p)
  return <Group p={p} cls="choices" items={(p.question.answers ?? []).map((o) => ({ id: o.id, label: optLabel(o) }))} on={(id) => id === v} pick={set} />
}
