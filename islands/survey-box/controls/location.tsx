import { useEffect, useId, useRef, useState } from 'react'
import { tr, type ControlProps } from './shared'

interface Place {
  id: string
  postcode: string
  label?: string
}

/** The spec's account-host postcode lookup (instanceKey, search; at most 99 results for a search). */
export const LOOKUP = '/ah/api/v1/info/postcode-lookup'

/** A postcode's searchable form, as the server's postcodes.Normalize makes it. */
const norm = (s: string) => s.replace(/\s+/g, '').toUpperCase()

/**
 * A postcode search (combobox: type, Up/Down, Enter) over the lookup's results: {postcode, id}.
 * Typing asks the lookup 300ms after the last key. A typed postcode that is the first result's
 * is answered at once; when the lookup finds nothing or fails, the typed postcode (3+
 * characters) is its own place: {postcode, id: upper-cased, no spaces} (the server resolves it
 * against the panel's postcodes, or keeps it when the panel has none).
 */
export default function Location(p: ControlProps) {
  const init = p.value && typeof p.value == 'object' && 'postcode' in p.value ? p.value : null
  const [text, setText] = useState(init?.postcode ?? '')
  const [list, setList] = useState<Place[]>([])
  const [open, setOpen] = useState(false)
  const [act, setAct] = useState(-1)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const ctrl = useRef<AbortController>(undefined)
  const id = useId()
  useEffect(
    () => () => {
      clearTimeout(timer.current)
      ctrl.current?.abort()
    },
    [],
  )

  const search = (v: string) => {
    setText(v)
    setAct(-1)
    p.onChange(null)
    clearTimeout(timer.current)
    ctrl.current?.abort()
    const term = v.trim()
    if (term.length < 2) return setOpen(false)
    timer.current = setTimeout(async () => {
      const c = (ctrl.current = new AbortController())
      let found: Place[] = []
      try {
        const res = await fetch(LOOKUP + '?' + new URLSearchParams({ instanceKey: p.instanceKey, search: term }), {
          signal: c.signal,
          headers: { Accept: 'application/json' },
        })
        if (!res.ok) throw res.status
        found = ((await res.json())?.results ?? []).slice(0, 99)
      } catch {
        // A failed lookup is a lookup without results: the typed postcode stands.
      }
      if (c.signal.aborted) return
      setList(found)
      setOpen(found.length > 0)
      const id = norm(term)
      if (found[0] && norm(found[0].postcode) == id) p.onChange({ postcode: found[0].postcode, id: found[0].id })
      else if (!found.length && term.length >= 3) p.onChange({ postcode: term, id })
    }, 300)
  }
  const choose = (r: Place) => {
    setText(r.label || r.postcode)
    setOpen(false)
    p.onChange({ postcode: r.postcode, id: r.id })
  }
  const shown = open && list.length > 0
  return (
    <div className="location">
      <input
        className="answer-input"
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={id}
        aria-activedescendant={shown && act >= 0 ? id + act : undefined}
        aria-labelledby={p.labelledBy}
        placeholder={tr(p.t, 'survey.postcode', 'Postcode')}
        value={text}
        disabled={p.disabled}
        onChange={(e) => search(e.target.value)}
        onKeyDown={(e) => {
          const k = e.key
          if (k == 'ArrowDown' || k == 'ArrowUp') {
            e.preventDefault()
            if (!list.length) return
            setOpen(true)
            const i = shown ? Math.max(0, Math.min(list.length - 1, act + (k == 'ArrowDown' ? 1 : -1))) : k == 'ArrowDown' ? 0 : list.length - 1
            setAct(i)
            document.getElementById(id + i)?.scrollIntoView?.({ block: 'nearest' })
          } else if (k == 'Enter' && shown && act >= 0) {
            e.preventDefault()
            choose(list[act])
          } else if (k == 'Escape') setOpen(false)
        }}
        onBlur={() => setOpen(false)}
      />
      <ul className="cv-list" id={id} role="listbox" aria-labelledby={p.labelledBy} hidden={!shown}>
        {shown
          ? list.map((r, i) => (
              <li
                key={r.id}
                id={id + i}
                role="option"
                aria-selected={i == act}
                className={'choice' + (i == act ? ' cv-act' : '')}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(r)}
              >
                {r.label || r.postcode}
              </li>
            ))
          : null}
      </ul>
    </div>
  )
}
