import { Multi, type ControlProps } from './shared'

/** Several options as checkboxes: the option ids (exclusive options, min/max answers). */
export default function Checkbox(p: ControlProps) {
  return <Multi p={p} />
}
