import { afterEach, describe, expect, it, vi } from 'vitest'
import { mountConsoleIslands } from '../console-editor'

afterEach(() => {
  document.body.innerHTML = ''
})

describe("the console editor's entry", () => {
  it('mounts the campaign editor with its props and marks it mounted', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"valid":true,"problems":[]}', { headers: { 'content-type': 'application/json' } })))
    document.body.innerHTML = `<form><div data-console-island="campaign-editor"><label for="f-document">Doc</label>
      <textarea id="f-document" name="document">uuid: x</textarea>
      <script type="application/json">{"validateURL":"/v","delay":5}</script></div></form>`
    await mountConsoleIslands()
    const el = document.querySelector<HTMLElement>('[data-console-island]')!
    expect(el.dataset.islandState).toBe('mounted')
    expect(el.querySelector('.cm-editor')).not.toBeNull()
  })

  it('keeps the server form of an island it does not know', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    document.body.innerHTML = `<div data-console-island="nope"><textarea></textarea></div>`
    await mountConsoleIslands()
    const el = document.querySelector<HTMLElement>('[data-console-island]')!
    expect(el.dataset.islandState).toBe('failed')
    expect(el.querySelector('textarea')!.hidden).toBe(false)
  })
})
