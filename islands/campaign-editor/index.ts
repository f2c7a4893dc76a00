/**
 * Campaign editor (console, /console/panels/:panel/campaigns/new and /:id/edit): CodeMirror 6
 * over the server's textarea form. The textarea stays in the form, hidden, and follows every
 * change, so saving is the same plain form post as without JavaScript (the server checks the
 * document again and lists every problem). While the author types, the document is checked by
 * the console's validate page (debounced): its problems show inline (lint gutter, underlines)
 * and a polite status says how many there are. Completions offer the schema's property names
 * and enum values where the cursor stands.
 *
 * Props: { validateURL, id, texts: { label, checking, valid, invalid, failed, line } }; invalid
 * and line carry {n}.
 */
import { autocompletion, closeBrackets, completionKeymap, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language'
import { yaml } from '@codemirror/lang-yaml'
import { linter, lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint'
import { EditorState } from '@codemirror/state'
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter } from '@codemirror/view'
import campaignSchema from '../../modules/campaigns/schema/campaign.schema.json'
import { completionsAt, type Schema } from './schema'

export interface Props {
  validateURL?: string
  id?: string
  texts?: Partial<Texts>
  /** Milliseconds of quiet typing before the document is checked. */
  delay?: number
}

const TEXTS = {
  label: 'Campaign document',
  checking: 'Checking the document…',
  valid: 'No problems found.',
  invalid: 'Problems found: {n}',
  failed: 'The document could not be checked now; saving checks it too.',
  line: 'Line {n}:',
}
type Texts = typeof TEXTS

export interface Problem {
  line: number
  path: string
  message: string
}

/** The diagnostics of the problems in a document: each on its line (the first line when unknown). */
export function diagnostics(doc: EditorState['doc'], problems: Problem[]): Diagnostic[] {
  return problems.map((p) => {
    const line = doc.line(Math.min(Math.max(p.line, 1), doc.lines))
    // An empty line has nothing to underline: mark its end, which the gutter still shows.
    return {
      from: line.from,
      to: line.to,
      severity: 'error',
      message: (p.path ? p.path + ': ' : '') + p.message,
      source: p.line > 0 ? undefined : 'document',
    }
  })
}

/** Asks the validate page about a document (form-encoded, with the form's CSRF token). */
export async function validate(url: string, fields: Record<string, string>, signal?: AbortSignal): Promise<Problem[]> {
  const res = await fetch(url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  })
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) throw new Error(`validate: ${res.status}`)
  const body = (await res.json()) as { valid: boolean; problems: Problem[] }
  return body.problems ?? []
}

function schemaCompletions(ctx: CompletionContext): CompletionResult | null {
  const text = ctx.state.doc.toString()
  const found = completionsAt(campaignSchema as Schema, text, ctx.pos)
  // Typing a word opens them; Ctrl+Space opens them anywhere.
  if (!found || (found.from === ctx.pos && !ctx.explicit)) return null
  return { from: found.from, options: found.options, validFor: /^[\w.-]*$/ }
}

export function mount(el: HTMLElement, props: unknown): () => void {
  const p = (props ?? {}) as Props
  const texts = { ...TEXTS, ...(p.texts ?? {}) }
  const textarea = el.querySelector<HTMLTextAreaElement>('textarea')
  if (!textarea) throw new Error('campaign-editor: no textarea')
  const form = textarea.form
  const label = el.querySelector<HTMLLabelElement>(`label[for="${textarea.id}"]`)
  const format = form?.querySelector<HTMLSelectElement>('select[name="format"]')

  const status = document.createElement('p')
  status.className = 'field-hint'
  status.id = textarea.id + '-status'
  status.setAttribute('role', 'status')
  const host = document.createElement('div')
  textarea.after(host, status)

  // The console's CSP allows inline styles only with the page's nonce (see islands/htmx.ts).
  const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce
  const say = (s: string) => {
    if (status.textContent !== s) status.textContent = s
  }

  let inflight: AbortController | null = null
  const check = async (view: EditorView): Promise<Diagnostic[]> => {
    if (!p.validateURL) return []
    inflight?.abort()
    const ctrl = new AbortController()
    inflight = ctrl
    const doc = view.state.doc
    say(texts.checking)
    try {
      const csrf = form?.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value ?? ''
      const problems = await validate(
        p.validateURL,
        { _csrf: csrf, document: doc.toString(), format: format?.value ?? 'yaml', id: p.id ?? '' },
        ctrl.signal,
      )
      say(problems.length ? texts.invalid.replace('{n}', String(problems.length)) : texts.valid)
      return diagnostics(doc, problems)
    } catch (err) {
      if ((err as Error).name !== 'AbortError') say(texts.failed)
      return []
    }
  }

  const describedBy = [textarea.getAttribute('aria-describedby'), status.id].filter(Boolean).join(' ')
  const view = new EditorView({
    parent: host,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        yaml(),
        EditorState.tabSize.of(2),
        // Tab is left to the browser (moving focus): no indentWithTab, so the editor is never a keyboard trap.
        keymap.of([...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
        autocompletion({ override: [schemaCompletions], activateOnTyping: true }),
        linter(check, { delay: p.delay ?? 600 }),
        lintGutter(),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          'aria-label': label?.textContent?.trim() || texts.label,
          'aria-describedby': describedBy,
          'aria-multiline': 'true',
          // Focusable as it is (contenteditable), said outright so checkers see the scrolled region is reachable.
          tabindex: '0',
          spellcheck: 'false',
          autocapitalize: 'off',
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) textarea.value = u.state.doc.toString()
        }),
        ...(nonce ? [EditorView.cspNonce.of(nonce)] : []),
      ],
    }),
  })
  textarea.hidden = true
  const wasRequired = textarea.required
  textarea.required = false // a hidden field the browser cannot focus must not block the post
  const focus = (e: Event) => {
    e.preventDefault()
    view.focus()
  }
  label?.addEventListener('click', focus)
  // A format change checks the document again as the other format.
  const recheck = () => {
    void check(view).then((d) => view.dispatch(setDiagnostics(view.state, d)))
  }
  format?.addEventListener('change', recheck)

  return () => {
    inflight?.abort()
    format?.removeEventListener('change', recheck)
    label?.removeEventListener('click', focus)
    view.destroy()
    host.remove()
    status.remove()
    textarea.hidden = false
    textarea.required = wasRequired
  }
}
