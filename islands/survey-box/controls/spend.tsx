import { AmountPeriod } from './amount-period'
import type { ControlProps } from './shared'

/** An amount (spend_min, else 0 .. spend_max) per period (spend_period): {amount, period}. */
export default function Spend(p: ControlProps) {
  const q = p.question
  return <AmountPeriod p={p} o={{ key: 'amount', min: q.spend_min ?? 0, max: q.spend_max, periods: q.spend_period, whole: false, label: ['survey.amount', 'Amount'] }} />
}
