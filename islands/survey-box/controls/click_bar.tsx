import { Points, type ControlProps } from './shared'

/** A row of numbered buttons min_num..max_num (default 1..10) by step, as a radiogroup: the number. */
export default function ClickBar(p: ControlProps) {
  const q = p.question
  const lo = q.min_num ?? 1
  const step = q.step && q.step > 0 ? q.step : 1
  const points: [number, string][] = []
  for (let i = 0, x = lo; x <= (q.max_num ?? 10) + 1e-9 && i < 101; x = lo + ++i * step) {
    const n = +x.toFixed(10)
    points.push([n, String(n)])
  }
  return <Points p={p} points={points} cls="cv-bar" />
}
