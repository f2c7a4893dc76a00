import { AmountPeriod } from './amount-period'
import type { ControlProps } from './shared'

/** How many times (a whole number freq_min, else 0 .. freq_max) per period (freq_period): {count, period}. */
export default function Frequency(p: ControlProps) {
  const q = p.question
  return <AmountPeriod p={p} o={{ key: 'count', min: q.freq_min ?? 0, max: q.freq_max, periods: q.freq_period, whole: true, label: ['survey.how_often', 'How many times'] }} />
}
