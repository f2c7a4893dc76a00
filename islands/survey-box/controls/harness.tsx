/** Test harness for the answer controls (react-dom/client + act; no @testing-library). */
import { act, type ComponentType } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach } from 'vitest'
import type { AnswerValue, ControlProps, Question } from '../contract'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

let cleanups: (() => void)[] = []
afterEach(() => {
  cleanups.forEach((f) => f())
  cleanups = []
  document.body.innerHTML = ''
})

export const Q = (control_type: Question['control_type'], extra: Partial<Question> = {}): Question => ({
  id: 'q1',
  type: 'question',
  control_type,
  text: 'Your answer?',
  answer: null,
  ...extra,
})

export const opts = (...ids: string[]) => ids.map((id) => ({ id, text: id.toUpperCase() }))

/** A t() with some translations ({{.Name}} or {Name} placeholders); other keys come back as themselves. */
export const T = (labels: Record<string, string>) => (k: string, vars?: Record<string, string | number>) =>
  k in labels ? labels[k].replace(/\{\{\.(\w+)\}\}|\{(\w+)\}/g, (_, a, b) => String(vars?.[a ?? b])) : k

export async function render(C: ComponentType<ControlProps>, question: Question, value: AnswerValue | null = null, t: ControlProps['t'] = (k) => k) {
  const el = document.createElement('div')
  el.innerHTML = '<p id="qt">Your answer?</p>'
  document.body.append(el)
  const calls: (AnswerValue | null)[] = []
  const root = createRoot(el.appendChild(document.createElement('div')))
  await act(async () => root.render(<C question={question} value={value} onChange={(v) => calls.push(v)} labelledBy="qt" t={t} instanceKey="demo" />))
  cleanups.push(() => act(() => root.unmount()))
  const $ = <E extends Element = HTMLInputElement>(sel: string) => el.querySelector<E>(sel)!
  const $$ = <E extends Element = HTMLInputElement>(sel: string) => Array.from(el.querySelectorAll<E>(sel))
  return { el, calls, last: () => calls[calls.length - 1], $, $$ }
}

/** Types into an input, textarea or select the way a browser reports it. */
export async function type(input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) {
  const proto = Object.getPrototypeOf(input)
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, value)
    input.dispatchEvent(new Event(input instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
  })
}

export const click = (el: Element) => act(async () => (el as HTMLElement).click())

/** Space on a focused native radio/checkbox: the browser turns it into a click (happy-dom doesn't). */
export const space = (el: HTMLElement) =>
  act(async () => {
    el.focus()
    el.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true }))
    el.click()
  })

export const key = (el: Element, k: string) =>
  act(async () => {
    el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }))
  })

/** Name shared by all radios of a native group (so arrow keys move between them). */
export const oneName = (inputs: HTMLInputElement[]) => new Set(inputs.map((i) => i.name)).size === 1 && inputs[0].name !== ''
