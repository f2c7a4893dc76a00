import { forceLinting } from '@codemirror/lint'
import { EditorView } from '@codemirror/view'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { diagnostics, mount, validate } from './index'
import { EditorState } from '@codemirror/state'

function page(doc = 'uuid: x\n'): HTMLElement {
  document.body.innerHTML = `
    <form id="campaign-form" method="post" action="/console/panels/demo/campaigns/new">
      <input type="hidden" name="_csrf" value="token-1">
      <select name="format"><option value="yaml" selected>YAML</option><option value="json">JSON</option></select>
      <div data-console-island="campaign-editor">
        <label for="f-document">Campaign document</label>
        <p id="h-document">hint</p>
        <textarea id="f-document" name="document" required aria-describedby="h-document"></textarea>
      </div>
    </form>`
  document.querySelector('textarea')!.value = doc
  return document.querySelector('[data-console-island]') as HTMLElement
}

function answer(body: unknown, status = 200) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 10))
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('the problems of a document', () => {
  it('sit on their lines, and one without a line on the first', () => {
    const doc = EditorState.create({ doc: 'a: 1\nb: 2\nc: 3' }).doc
    const d = diagnostics(doc, [
      { line: 2, path: '/b', message: 'is wrong' },
      { line: 0, path: '', message: 'the file is empty' },
      { line: 99, path: '/z', message: 'past the end' },
    ])
    expect(d.map((x) => [x.from, x.to, x.message])).toEqual([
      [5, 9, '/b: is wrong'],
      [0, 4, 'the file is empty'],
      [10, 14, '/z: past the end'],
    ])
  })
})

describe('validate', () => {
  it('posts the document form-encoded with the CSRF token', async () => {
    const fetch = answer({ valid: false, problems: [{ line: 3, path: '/type', message: 'bad' }] })
    vi.stubGlobal('fetch', fetch)
    const got = await validate('/v', { _csrf: 't', document: 'x: 1', format: 'yaml', id: '' })
    expect(got).toEqual([{ line: 3, path: '/type', message: 'bad' }])
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/v')
    expect(init.method).toBe('POST')
    expect(String(init.body)).toBe('_csrf=t&document=x%3A+1&format=yaml&id=')
  })

  it('fails on a page that is not its JSON (a refusal, a sign-in page)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>', { status: 403, headers: { 'content-type': 'text/html' } })))
    await expect(validate('/v', {})).rejects.toThrow('403')
  })
})

describe('the campaign editor island', () => {
  it('stands in for the textarea, which follows every change for the plain form post', () => {
    vi.stubGlobal('fetch', answer({ valid: true, problems: [] }))
    const el = page('uuid: x\n')
    const unmount = mount(el, { validateURL: '/v', delay: 5 })
    const textarea = el.querySelector('textarea')!
    expect(textarea.hidden).toBe(true)
    expect(textarea.required).toBe(false)
    const content = el.querySelector<HTMLElement>('.cm-content')!
    expect(content.getAttribute('aria-label')).toBe('Campaign document')
    expect(content.getAttribute('aria-describedby')).toBe('h-document f-document-status')
    const view = EditorView.findFromDOM(el.querySelector('.cm-editor') as HTMLElement)!
    view.dispatch({ changes: { from: view.state.doc.length, insert: 'type: poll\n' } })
    expect(textarea.value).toBe('uuid: x\ntype: poll\n')
    unmount()
    expect(textarea.hidden).toBe(false)
    expect(textarea.required).toBe(true)
    expect(el.querySelector('.cm-editor')).toBeNull()
  })

  it('shows the problems the validate page finds, and says how many', async () => {
    const fetch = answer({ valid: false, problems: [{ line: 2, path: '/type', message: 'must be one of survey, poll' }] })
    vi.stubGlobal('fetch', fetch)
    const el = page('uuid: x\ntype: pol\n')
    mount(el, { validateURL: '/console/panels/demo/campaigns/validate', id: 'abc', delay: 5, texts: { invalid: 'Problems: {n}' } })
    const view = EditorView.findFromDOM(el.querySelector('.cm-editor') as HTMLElement)!
    forceLinting(view)
    const status = el.querySelector('#f-document-status')!
    await until(() => status.textContent === 'Problems: 1')
    expect(status.textContent).toBe('Problems: 1')
    expect(status.getAttribute('role')).toBe('status')
    const body = new URLSearchParams(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body))
    expect(Object.fromEntries(body)).toEqual({ _csrf: 'token-1', document: 'uuid: x\ntype: pol\n', format: 'yaml', id: 'abc' })
    await until(() => !!el.querySelector('.cm-lintRange-error'))
    expect(el.querySelector('.cm-lintRange-error')?.textContent).toBe('type: pol')
  })

  it('says so when the document could not be checked, and keeps the form', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('offline') }))
    const el = page()
    mount(el, { validateURL: '/v', delay: 5 })
    forceLinting(EditorView.findFromDOM(el.querySelector('.cm-editor') as HTMLElement)!)
    const status = el.querySelector('#f-document-status')!
    await until(() => (status.textContent ?? '').includes('could not be checked'))
    expect(status.textContent).toMatch(/could not be checked/)
  })
})
