import { useState } from 'react'
import type { ControlProps } from './shared'

/**
 * A range min_num..max_num (default 0..100) by step, showing its value. It starts in the middle
 * but reports the number only once the member moved it or pressed a key on it (null before).
 */
export default function Slider(p: ControlProps) {
  const q = p.question
  const min = q.min_num ?? 0
  const max = q.max_num ?? 100
  const step = q.step && q.step > 0 ? q.step : 1
  const had = typeof p.value == 'number'
  const [v, setV] = useState(() => (had ? (p.value as number) : +(min + Math.round((max - min) / 2 / step) * step).toFixed(10)))
  const [moved, setMoved] = useState(had)
  const report = (n: number) => {
    setV(n)
    setMoved(true)
    p.onChange(n)
  }
  const ends = q.scale_labels
  return (
    <>
      <output className="cv-val" aria-hidden="true">
        {v}
      </output>
      <input
        className="answer-range"
        type="range"
        min={min}
        max={max}
        step={step}
        value={v}
        aria-labelledby={p.labelledBy}
        disabled={p.disabled}
        onChange={(e) => report(Number(e.target.value))}
        onKeyDown={(e) => !moved && e.key !== 'Tab' && report(v)}
        onPointerUp={() => !moved && report(v)}
      />
      <p className="scale-ends">
        <span>
          {min} {ends?.min}
        </span>
        <span>
          {ends?.max} {max}
        </span>
      </p>
    </>
  )
}
