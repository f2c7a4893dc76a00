import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mount, type Props } from '.'

const PARTNER = 'https://www.partner.example'
const PROPS: Props = {
  api: '/ah/api/v2/user/login',
  target: PARTNER,
  message: { type: 'canvass:signed-in', panel: 'demo', member: true },
  done: '/widgets/login?parentFrameUrl=https%3A%2F%2Fwww.partner.example%2Fmembers',
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** The server's plain form, as /widgets/login renders it (with a captcha when asked). */
function page(props: Props, captcha = false): string {
  return (
    '<div data-island="widget"><form method="post" action="/widgets/login" class="form">' +
    '<input type="hidden" name="_csrf" value="masked">' +
    '<input type="hidden" name="parentFrameUrl" value="https://www.partner.example/members">' +
    '<input name="email" value="member@demo.test"><input name="password" type="password" value="demo-password-1">' +
    (captcha ? '<input type="checkbox" name="captcha-local" value="lc1.token" checked>' : '') +
    '<button type="submit">Log in</button></form>' +
    `<script type="application/json">${JSON.stringify(props)}</script></div>`
  )
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>
let replace: ReturnType<typeof vi.fn<(url: string | URL) => void>>
let plainSubmit: ReturnType<typeof vi.fn<() => void>>
let parent: { postMessage: ReturnType<typeof vi.fn> }
let unmount: (() => void) | undefined

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>()
  vi.stubGlobal('fetch', fetchMock)
  replace = vi.fn()
  vi.spyOn(window.location, 'replace').mockImplementation(replace)
  plainSubmit = vi.fn()
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(plainSubmit)
  history.replaceState(null, '', '/widgets/login')
  parent = { postMessage: vi.fn() }
  Object.defineProperty(window, 'parent', { value: parent, configurable: true })
})

afterEach(() => {
  unmount?.()
  unmount = undefined
  Object.defineProperty(window, 'parent', { value: window, configurable: true })
  document.body.innerHTML = ''
})

function render(props: Props, captcha = false): HTMLFormElement {
  document.body.innerHTML = page(props, captcha)
  const el = document.querySelector<HTMLElement>('[data-island]')!
  unmount = mount(el, props)
  return el.querySelector('form')!
}

/** Submits as the member's Enter or click does; resolves when the island has settled. */
async function submit(form: HTMLFormElement, settled: () => void): Promise<void> {
  form.dispatchEvent(new Event('submit', { cancelable: true }))
  await vi.waitFor(settled)
}

function sent(i = 0): { url: string; headers: Record<string, string>; body: Record<string, string> } {
  const [url, init] = fetchMock.mock.calls[i]
  return { url: String(url), headers: init!.headers as Record<string, string>, body: JSON.parse(String(init!.body)) }
}

describe('the login and join widgets', () => {
  it('send the form through the API as the widget, with the page that frames it', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { ppToken: 'a1b2c3', profile: {} }))
    const form = render({ ...PROPS, captcha: 'captcha-local' }, true)
    await submit(form, () => expect(replace).toHaveBeenCalled())
    expect(sent().url).toBe(`${location.origin}/ah/api/v2/user/login`)
    expect(sent().headers['X-App-Name']).toBe('widget')
    expect(sent().body).toEqual({
      email: 'member@demo.test',
      password: 'demo-password-1',
      parentFrameUrl: 'https://www.partner.example/members',
      captchaToken: 'lc1.token',
    })
    expect(plainSubmit).not.toHaveBeenCalled()
  })

  it('tell the framing page at its origin only, never everyone and never the token, then stay in the frame', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { ppToken: 'a1b2c3', profile: { email: 'member@demo.test' } }))
    await submit(render(PROPS), () => expect(replace).toHaveBeenCalledWith(PROPS.done))
    expect(parent.postMessage.mock.calls).toEqual([[{ type: 'canvass:signed-in', panel: 'demo', member: true }, PARTNER]])
    expect(JSON.stringify(parent.postMessage.mock.calls)).not.toContain('a1b2c3')
    expect(fetchMock).toHaveBeenCalledOnce()
  })

  it('tell nobody when no allow-listed page frames them', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { ppToken: 'a1b2c3' }))
    await submit(render({ ...PROPS, target: undefined }), () => expect(replace).toHaveBeenCalled())
    expect(parent.postMessage).not.toHaveBeenCalled()
  })

  it('open the panel at the top of the window with a hand-off address when the panel asks for it', async () => {
    const top = { location: { href: '' } }
    Object.defineProperty(window, 'top', { value: top, configurable: true })
    try {
      fetchMock.mockResolvedValueOnce(json(200, { ppToken: 'a1b2c3' }))
      fetchMock.mockResolvedValueOnce(json(200, { url: 'http://localhost:3000/widgets/continue?code=c0de' }))
      await submit(render({ ...PROPS, handoff: '/ah/api/v1/widgets/handoff' }), () =>
        expect(top.location.href).toBe('http://localhost:3000/widgets/continue?code=c0de'),
      )
      expect(sent(1).url).toBe(`${location.origin}/ah/api/v1/widgets/handoff`)
      expect(sent(1).headers['X-App-Name']).toBe('widget')
      expect(parent.postMessage).toHaveBeenCalledOnce()
      expect(replace).not.toHaveBeenCalled()
    } finally {
      Object.defineProperty(window, 'top', { value: window, configurable: true })
    }
  })

  it('show the signed-in page in the frame when the top of the window may not be opened from it', async () => {
    const top = {
      location: {
        set href(_: string) {
          throw new DOMException('The current window does not have permission to navigate the target frame', 'SecurityError')
        },
      },
    }
    Object.defineProperty(window, 'top', { value: top, configurable: true })
    try {
      fetchMock.mockResolvedValueOnce(json(200, { ppToken: 'a1b2c3' }))
      fetchMock.mockResolvedValueOnce(json(200, { url: 'http://localhost:3000/widgets/continue?code=c0de' }))
      await submit(render({ ...PROPS, handoff: '/ah/api/v1/widgets/handoff' }), () => expect(replace).toHaveBeenCalledWith(PROPS.done))
    } finally {
      Object.defineProperty(window, 'top', { value: window, configurable: true })
    }
  })

  it('show a refusal above the form, mark the fields it names and tell nobody', async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, {
        name: 'ClientError',
        message: 'Please check the form.',
        statusCode: 400,
        details: [{ field: 'email', message: 'Please enter a valid email address.', code: 'invalid' }],
      }),
    )
    const form = render(PROPS)
    await submit(form, () => expect(document.querySelector('.form-error')).not.toBeNull())
    const alert = document.querySelector('.form-error')!
    expect(alert.getAttribute('role')).toBe('alert')
    expect(alert.textContent).toBe('Please enter a valid email address.')
    expect(alert.nextElementSibling).toBe(form)
    expect(form.querySelector('[name=email]')!.getAttribute('aria-invalid')).toBe('true')
    expect(form.querySelector('[type=submit]')!.hasAttribute('aria-disabled')).toBe(false)
    expect(parent.postMessage).not.toHaveBeenCalled()
    expect(replace).not.toHaveBeenCalled()
    expect(plainSubmit).not.toHaveBeenCalled()
  })

  it('let the server show a captcha the panel asks for only now, through the plain form', async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, { name: 'ClientError', message: "Please confirm you're not a robot.", statusCode: 400, details: [{ field: 'captcha', code: 'captcha_failed' }] }),
    )
    await submit(render(PROPS), () => expect(plainSubmit).toHaveBeenCalledOnce())
    expect(document.querySelector('.form-error')).toBeNull()
    expect(parent.postMessage).not.toHaveBeenCalled()
  })

  it('send once however often the member presses', async () => {
    let answer: (r: Response) => void = () => {}
    fetchMock.mockReturnValueOnce(new Promise<Response>((ok) => (answer = ok)))
    const form = render(PROPS)
    form.dispatchEvent(new Event('submit', { cancelable: true }))
    form.dispatchEvent(new Event('submit', { cancelable: true }))
    expect(form.querySelector('[type=submit]')!.getAttribute('aria-disabled')).toBe('true')
    answer(json(200, { ppToken: 'a1b2c3' }))
    await vi.waitFor(() => expect(replace).toHaveBeenCalledOnce())
    expect(fetchMock).toHaveBeenCalledOnce()
  })

  it('leave the plain form alone once unmounted', () => {
    const form = render(PROPS)
    unmount!()
    unmount = undefined
    const e = new Event('submit', { cancelable: true })
    form.dispatchEvent(e)
    expect(e.defaultPrevented).toBe(false)
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
