import { Multi, type ControlProps } from './shared'

/** Images as checkbox cards: the option ids (exclusive options, min/max answers). */
export default function MultiImage(p: ControlProps) {
  return <Multi p={p} card />
}
