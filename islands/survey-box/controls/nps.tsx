import { Points, type ControlProps } from './shared'

const POINTS = Array.from({ length: 11 }, (_, i): [number, string] => [i, String(i)])

/** Net promoter score 0..10 with the scale labels at the ends: the number. */
export default function Nps(p: ControlProps) {
  return <Points p={p} points={POINTS} cls="cv-nps" />
}
