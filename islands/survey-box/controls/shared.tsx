/**
 * What several answer controls share. Kept small: it loads with the first control of every
 * survey. Styles build on app.css (.answer-input, .choices/.choice, .scale/.scale-point,
 * .scale-ends, .grid, .ranking, .amount-period); controls.css adds the rest.
 */
import { useId, useState, type ReactNode } from 'react'
import type { AnswerValue, ControlProps, Option } from '../contract'
import './controls.css'

export type { ControlProps, Option }

/**
 * t(key, vars), or the English fallback while the key has no translation (t returns it, or the
 * key). probe: the key may well be absent (a more specific form tried first), so no report.
 */
export function tr(t: ControlProps['t'], key: string, en: string, vars?: Record<string, string | number>, probe?: boolean): string {
  const s = t(key, vars, en, probe)
  return s === key ? en : s
}

/**
 * The control's own state, restored from the member's earlier answer (init(props.value)); set()
 * stores a new state and reports its VALUE (out(state): the answer, or null while incomplete).
 */
export function useAnswer<S>(p: ControlProps, init: (v: AnswerValue | null) => S, out: (s: S) => AnswerValue | null) {
  const [s, setS] = useState(() => init(p.value))
  return [
    s,
    (n: S) => {
      setS(n)
      p.onChange(out(n))
    },
  ] as const
}

/** A number typed in an input ('' is NaN, not 0). */
export const num = (s: string): number => (s.trim() ? Number(s) : NaN)

/** n is finite, within min..max and on the step grid from min (else 0), as the server checks. */
export function inRange(n: number, min?: number, max?: number, step?: number): boolean {
  if (!isFinite(n) || (min != null && n < min) || (max != null && n > max)) return false
  const k = step && step > 0 ? (n - (min ?? 0)) / step : 0
  return Math.abs(k - Math.round(k)) < 1e-9
}

/** "1–10", "≥ 1" or "≤ 10": the allowed range, shown when the number is outside it. */
export const range = (min?: number, max?: number): string =>
  min != null && max != null ? min + '–' + max : min != null ? '≥ ' + min : max != null ? '≤ ' + max : ''

/** An option's image (its alt text, or none when its text names it) and text. */
export const optLabel = (o: Option): ReactNode => (
  <>
    {o.image ? <img src={o.image.url} alt={o.image.alt ?? (o.text ? '' : o.id)} loading="lazy" /> : null}
    <span>{o.text ?? o.id}</span>
  </>
)

export interface Item {
  id: string
  label: ReactNode
  /** Accessible name when the label shows none (a star, an emoji). */
  name?: string
  /** Class of the label (default 'choice'); 'on' is added when checked. */
  cls?: string
  off?: boolean
}

/**
 * A group of native radios (or checkboxes with multi) in labels: the browser gives Tab into the
 * group, arrow keys between radios and Space to choose. Labelled by the question text.
 */
export function Group(g: { p: ControlProps; items: Item[]; on: (id: string) => boolean; pick: (id: string) => void; cls: string; multi?: boolean; describedBy?: string }) {
  const name = useId()
  return (
    <div className={g.cls} role={g.multi ? 'group' : 'radiogroup'} aria-labelledby={g.p.labelledBy} aria-describedby={g.describedBy}>
      {g.items.map((o) => (
        <label key={o.id} className={(o.cls ?? 'choice') + (g.on(o.id) ? ' on' : '')}>
          <input
            type={g.multi ? 'checkbox' : 'radio'}
            name={name}
            value={o.id}
            checked={g.on(o.id)}
            disabled={g.p.disabled || o.off}
            aria-label={o.name}
            onChange={() => g.pick(o.id)}
          />
          {o.label}
        </label>
      ))}
    </div>
  )
}

/** One answer option (radio, dropdown, like_dislike, image_select): its id. */
export function useOne(p: ControlProps) {
  const ids = (p.question.answers ?? []).map((o) => o.id)
  return useAnswer(p, (v) => (typeof v == 'string' && ids.includes(v) ? v : null), (s) => s)
}

/** A scale of numbered points as a radiogroup (nps, star, click_bar, likert, smiley): the number. */
export function Points(s: { p: ControlProps; points: [value: number, label: ReactNode, name?: string][]; cls: string; fill?: boolean }) {
  const [v, set] = useAnswer(s.p, (x) => (typeof x == 'number' ? x : null), (x) => x)
  const ends = s.p.question.scale_labels
  const id = useId()
  const hasEnds = !!(ends?.min || ends?.max)
  return (
    <>
      <Group
        p={s.p}
        cls={'scale cv-pick ' + s.cls}
        describedBy={hasEnds ? id : undefined}
        items={s.points.map(([n, label, name]) => ({ id: String(n), label, name, cls: 'scale-point' + (s.fill && v != null && n <= v ? ' fill' : '') }))}
        on={(x) => x === String(v)}
        pick={(x) => set(Number(x))}
      />
      {hasEnds ? (
        <p className="scale-ends" id={id}>
          <span>{ends!.min}</span>
          <span>{ends!.max}</span>
        </p>
      ) : null}
    </>
  )
}

/** Several options (checkbox, multi_image): ids in option order; exclusive, max and min answers. */
export function Multi({ p, card }: { p: ControlProps; card?: boolean }) {
  const q = p.question
  const opts = q.answers ?? []
  const ex = (id: string) => !!opts.find((o) => o.id === id)?.exclusive
  const max = q.max_answers ?? opts.length
  const [list, set] = useAnswer(
    p,
    (v) => (Array.isArray(v) ? v.filter((id) => opts.some((o) => o.id === id)) : []),
    (l) => (l.length >= (q.min_answers ?? 1) ? l : null),
  )
  const full = list.filter((id) => !ex(id)).length >= max
  return (
    <Group
      p={p}
      multi
      cls={'choices' + (card ? ' cv-card choices-multi_image' : '')}
      items={opts.map((o) => ({ id: o.id, label: optLabel(o), off: full && !o.exclusive && !list.includes(o.id) }))}
      on={(id) => list.includes(id)}
      pick={(id) => {
        const next = list.includes(id) ? list.filter((x) => x !== id) : ex(id) ? [id] : [...list.filter((x) => !ex(x)), id]
        set(opts.map((o) => o.id).filter((x) => next.includes(x)))
      }}
    />
  )
}
