import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CompetitionInvitation, ControlProps, GoResult, Question, SurveyBoxProps, ThankYou } from './contract'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

// The real controls are written elsewhere: every control type loads this fake, which can fail.
const ctl = vi.hoisted(() => ({
  fail: 0,
  loads: [] as string[],
  component: null as unknown,
}))
vi.mock('./controls', () => ({
  loaders: new Proxy(
    {},
    {
      // 'hologram' is a control type the registry does not know.
      get: (_, type: string) =>
        type === 'hologram'
          ? undefined
          : async () => {
              ctl.loads.push(type)
              if (ctl.fail > 0) {
                ctl.fail--
                throw new TypeError('Failed to fetch dynamically imported module')
              }
              return { default: ctl.component }
            },
    },
  ),
}))

import { mount } from '.'

/** A fake control: one button per option and a Clear button; reports the option id. */
function FakeControl({ question, value, onChange, labelledBy, disabled }: ControlProps) {
  return (
    <div role="group" aria-labelledby={labelledBy} data-control={question.control_type}>
      {(question.answers || []).map((a) => (
        <button key={a.id} type="button" className="opt" aria-pressed={value === a.id} disabled={disabled} onClick={() => onChange(a.id)}>
          {a.text}
        </button>
      ))}
      <button type="button" className="opt-clear" onClick={() => onChange(null)}>
        Clear
      </button>
    </div>
  )
}
ctl.component = FakeControl

const question = (id: string, over: Partial<Question> = {}): Question => ({
  id,
  type: 'single',
  control_type: 'radio',
  text: `Question ${id}?`,
  answers: [
    { id: 'a', text: 'Alpha' },
    { id: 'b', text: 'Beta' },
  ],
  answer: null,
  ...over,
})

const CAMPAIGN: GoResult['campaign'] = {
  guid: 'c-1',
  name: 'Coffee habits',
  is_welcome: false,
  is_competition: false,
  invitation: { name: 'Coffee', questionsLength: 3 },
  reward: '0.50',
  currency_code: 'USD',
  footer_links: [],
}

const goResult = (over: Partial<GoResult> = {}): GoResult => ({
  campaign_status: 'started',
  thank_you: null,
  action: null,
  question: question('q1'),
  progress: { answered: 0, questions: 3, total: 0 },
  campaign: CAMPAIGN,
  ...over,
})

const ty = (over: Partial<ThankYou> = {}): ThankYou => ({ kind: '', open_in_new_tab: false, is_final_onboarding_campaign: false, is_welcome: false, ...over })

const finished = (status: string, thankYou: ThankYou | null = ty()) =>
  goResult({ campaign_status: status, thank_you: thankYou, question: null, progress: { answered: 3, questions: 3, total: 100 } })

const API = '/api/v1/demo/campaigns/c-1'

const props = (over: Partial<SurveyBoxProps> = {}): SurveyBoxProps => ({
  apiBase: API,
  go: goResult(),
  balance: '$25.00',
  previewMode: '',
  lang: 'en',
  instanceKey: 'demo',
  labels: { 'survey.percent_complete': '{{.Percent}}% complete', 'survey.payout': 'You earned {{.Amount}}.' },
  ...over,
})

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

type Reply = () => Response | Promise<Response>
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>
let replies: Record<string, Reply[]>
let unmount: (() => void) | undefined

/** Queues the reply to the next `METHOD /path` request. */
const reply = (key: string, r: Reply) => (replies[key] ||= []).push(r)
const requests = (key?: string) =>
  fetchMock.mock.calls
    .map(([url, init]) => ({ key: (init?.method || 'GET') + ' ' + new URL(String(url)).pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined }))
    .filter((r) => !key || r.key === key)

beforeEach(() => {
  replies = {}
  ctl.fail = 0
  ctl.loads = []
  fetchMock = vi.fn<typeof fetch>(async (url, init) => {
    const key = (init?.method || 'GET') + ' ' + new URL(String(url)).pathname
    const r = replies[key]?.shift()
    if (!r) throw new Error('unexpected request ' + key)
    return r()
  })
  vi.stubGlobal('fetch', fetchMock)
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
  history.replaceState(null, '', '/survey/c-1')
})

afterEach(() => {
  if (unmount) act(() => unmount!())
  unmount = undefined
  document.body.innerHTML = ''
  document.body.removeAttribute('style')
})

const island = () => document.querySelector<HTMLElement>('[data-island]')!
const footer = () => island().querySelector('footer')
/** The footer's actions (not the preview tools or links): tag, text, and what matters of their state. */
const actions = () =>
  Array.from(footer()?.querySelectorAll<HTMLElement>(':scope > a, :scope > button, :scope > .sb-spacer') ?? []).map((el) => {
    const o: Record<string, unknown> = { tag: el.tagName.toLowerCase(), text: el.textContent }
    if (el instanceof HTMLButtonElement && el.disabled) o.disabled = true
    if (el.getAttribute('aria-busy')) o.busy = true
    if (el instanceof HTMLAnchorElement) o.href = el.getAttribute('href')
    if (el.getAttribute('target')) o.target = el.getAttribute('target')
    if (el.style.height) o.height = el.style.height
    return o
  })
const nextButton = () => footer()!.querySelector<HTMLButtonElement>('button.sb-next')!
const option = (text: string) => Array.from(island().querySelectorAll<HTMLButtonElement>('button.opt')).find((b) => b.textContent === text)!
const button = (text: string) => Array.from(island().querySelectorAll<HTMLButtonElement>('button')).find((b) => b.textContent === text)
const questionText = () => island().querySelector<HTMLElement>('.question-text')
const alertText = () => island().querySelector('.survey-question [role=alert]')?.textContent ?? null
const toasts = () => Array.from(document.querySelectorAll('.toast .toast__msg')).map((el) => el.textContent)

const settle = async () => {
  for (let i = 0; i < 4; i++) await act(() => new Promise((r) => setTimeout(r, 0)))
}

async function render(p: SurveyBoxProps = props()): Promise<HTMLElement> {
  document.body.innerHTML =
    '<main><div data-island="survey-box"><form class="fallback" method="post"><button>Next</button></form>' +
    `<script type="application/json">${JSON.stringify(p)}</script></div></main>`
  await act(async () => {
    unmount = mount(island(), p)
  })
  await settle() // the control chunk
  return island()
}

async function user(fn: () => void): Promise<void> {
  await act(async () => fn())
  await settle()
}

describe('mounting', () => {
  it('replaces the fallback with the header bar, progress, question, control and footer', async () => {
    const el = await render(props({ go: goResult({ progress: { answered: 1, questions: 3, total: 33 } }) }))

    expect(el.querySelector('.fallback')).toBeNull()
    expect(el.querySelector('h1')!.textContent).toBe('Coffee habits')
    expect(el.querySelector('.sb-balance')!.textContent).toBe('Balance $25.00')
    const bar = el.querySelector('[role=progressbar]')!
    expect(bar.getAttribute('aria-valuenow')).toBe('33')
    expect(el.querySelector<HTMLElement>('.progress-bar')!.style.width).toBe('33%')
    expect(questionText()!.textContent).toBe('Question q1?')
    expect(questionText()!.tabIndex).toBe(-1)
    expect(el.querySelector('[data-control=radio]')!.getAttribute('aria-labelledby')).toBe(questionText()!.id)
    expect(footer()!.querySelector('.survey-percent')!.textContent).toBe('33% complete')
    expect(ctl.loads).toEqual(['radio'])
  })

  it('throws before touching the fallback when the props have no go result', () => {
    document.body.innerHTML = '<div data-island="survey-box"><form class="fallback"></form></div>'
    expect(() => mount(island(), {})).toThrow()
    expect(island().querySelector('.fallback')).not.toBeNull()
  })

  it('starts with the earlier answer chosen', async () => {
    await render(props({ go: goResult({ question: question('q1', { answer: 'b' }) }) }))
    expect(option('Beta').getAttribute('aria-pressed')).toBe('true')
    expect(nextButton().disabled).toBe(false)
  })

  it('shows footer links that have a text and a url, label then link, at most 4', async () => {
    const links = [
      { label: 'Help:', text: 'FAQ', url: 'https://help.example/faq' },
      { label: 'x', text: '', url: 'https://x.example' },
      { label: '', text: 'Privacy', url: 'https://help.example/privacy' },
      { label: 'a', text: 'A', url: '/a' },
      { label: 'b', text: 'B', url: '/b' },
      { label: 'c', text: 'C', url: '/c' },
    ]
    const el = await render(props({ go: goResult({ campaign: { ...CAMPAIGN, footer_links: links } }) }))
    const items = Array.from(el.querySelectorAll('.footer-links li'))
    expect(items.map((li) => li.textContent)).toEqual(['Help: FAQ', 'Privacy', 'a A', 'b B'])
    expect(items[0].querySelector('a')!.getAttribute('href')).toBe('https://help.example/faq')
  })
})

describe('footer', () => {
  const oneQuestion = { ...CAMPAIGN, invitation: { name: 'Poll', questionsLength: 1 } }
  const grid = question('g1', { control_type: 'grid' })

  it.each<[string, Partial<SurveyBoxProps>, Record<string, unknown>[]]>([
    ['a question without an answer shows a disabled Next', {}, [{ tag: 'button', text: 'Next', disabled: true }]],
    ['an answered question shows an enabled Next', { go: goResult({ question: question('q1', { answer: 'a' }) }) }, [{ tag: 'button', text: 'Next' }]],
    ['the server labels the Next button', { labels: { 'survey.next': 'Siguiente' } }, [{ tag: 'button', text: 'Siguiente', disabled: true }]],
    ['a widget of a one-question invitation shows Submit', { widget: true, go: goResult({ campaign: oneQuestion }) }, [{ tag: 'button', text: 'Submit', disabled: true }]],
    ['a widget of a longer invitation shows Next', { widget: true }, [{ tag: 'button', text: 'Next', disabled: true }]],
    ['a one-question invitation outside a widget shows Next', { go: goResult({ campaign: oneQuestion }) }, [{ tag: 'button', text: 'Next', disabled: true }]],
    ['a dobblk action shows Go to Homepage', { go: goResult({ action: { type: 'dobblk' } }) }, [{ tag: 'a', text: 'Go to Homepage', href: '/' }]],
    ['a grid question without an answer shows no button', { go: goResult({ question: grid }) }, []],
    ['an answered grid question shows Next', { go: goResult({ question: { ...grid, answer: { r: 'c' } } }) }, [{ tag: 'button', text: 'Next' }]],
    ['a completed campaign links back to the feed', { go: finished('completed') }, [{ tag: 'a', text: 'Take me back to my feed', href: '/feed' }]],
    [
      'a completion address offers the website, then the feed',
      { go: finished('completed', ty({ completion_url: 'https://brand.example/done' })) },
      [
        { tag: 'a', text: 'Continue to the website', href: 'https://brand.example/done' },
        { tag: 'a', text: 'Take me back to my feed', href: '/feed' },
      ],
    ],
    [
      'open in new tab comes once per address, after the website button',
      { go: finished('screened', ty({ completion_url: 'https://brand.example/done', redirect_url: 'https://brand.example/r', open_in_new_tab: true })) },
      [
        { tag: 'a', text: 'Continue to the website', href: 'https://brand.example/done' },
        { tag: 'a', text: 'Open in a new tab', href: 'https://brand.example/done', target: '_blank' },
        { tag: 'a', text: 'Open in a new tab', href: 'https://brand.example/r', target: '_blank' },
        { tag: 'a', text: 'Take me back to my feed', href: '/feed' },
      ],
    ],
    [
      'disqualified uses nothing from the thank-you',
      { go: finished('disqualified', ty({ completion_url: 'https://brand.example/done', open_in_new_tab: true })) },
      [{ tag: 'a', text: 'Take me back to my feed', href: '/feed' }],
    ],
    [
      'preview mode offers Close preview instead of the feed',
      { previewMode: 'campaign-preview', go: finished('completed', ty({ redirect_url: 'https://brand.example/r' })) },
      [
        { tag: 'a', text: 'Continue to the website', href: 'https://brand.example/r' },
        { tag: 'button', text: 'Close preview' },
      ],
    ],
    [
      'the thank-you button goes where the server decides, with its label',
      { leave: { href: '/survey/c1/leave', label: 'Back to my rewards' }, go: finished('completed') },
      [{ tag: 'a', text: 'Back to my rewards', href: '/survey/c1/leave' }],
    ],
    [
      'framed by another site, links out replace the embedding page and Close ends the survey',
      { embed: true, go: finished('completed', ty({ completion_url: 'https://brand.example/done' })) },
      [
        { tag: 'a', text: 'Continue to the website', href: 'https://brand.example/done', target: '_top' },
        { tag: 'button', text: 'Close' },
      ],
    ],
    ['framed, Go to Homepage replaces the embedding page', { embed: true, go: goResult({ action: { type: 'dobblk' } }) }, [{ tag: 'a', text: 'Go to Homepage', href: '/', target: '_top' }]],
    [
      'a competition invitation shows a 57.5px spacer instead of buttons',
      { go: finished('completed', ty({ kind: 'competition_invitation', completion_url: 'https://brand.example/done' })) },
      [{ tag: 'div', text: '', height: '57.5px' }],
    ],
  ])('%s', async (_, over, want) => {
    await render(props(over))
    expect(actions()).toEqual(want)
  })

  it('says why a dobblk action holds the member back', async () => {
    const el = await render(props({ go: goResult({ action: { type: 'dobblk' }, question: null }), blocked: 'This survey is for members aged 18 or over.' }))
    expect(el.querySelector('.notice[role=status]')!.textContent).toBe('This survey is for members aged 18 or over.')
  })

  it('framed by another site, tells the embedding page each status and the Close', async () => {
    const parent = { postMessage: vi.fn() }
    Object.defineProperty(window, 'parent', { value: parent, configurable: true })
    try {
      reply(`POST ${API}/question/q1`, () => json(finished('completed')))
      reply('GET /api/v3/user/balance', () => json({ balance: '25.50', currency_code: 'USD' }))
      await render(props({ embed: true }))
      await user(() => option('Alpha').click())
      await user(() => nextButton().click())
      await user(() => button('Close')!.click())
      expect(parent.postMessage.mock.calls.map((c) => c[0])).toEqual([
        { type: 'canvass:status', campaign: CAMPAIGN.guid, status: 'started' },
        { type: 'canvass:status', campaign: CAMPAIGN.guid, status: 'completed' },
        { type: 'canvass:close', campaign: CAMPAIGN.guid, status: 'completed' },
      ])
    } finally {
      Object.defineProperty(window, 'parent', { value: window, configurable: true })
    }
  })

  it('makes the widget button a wide image button with its text for screen readers', async () => {
    await render(props({ widget: true, go: goResult({ campaign: oneQuestion }) }))
    const b = nextButton()
    expect(b.classList.contains('sb-next-wide')).toBe(true)
    expect(b.querySelector('svg')).not.toBeNull()
    expect(b.querySelector('.visually-hidden')!.textContent).toBe('Submit')
    expect(island().querySelector('section')!.classList.contains('sb-widget')).toBe(true)
  })

  it('enables Next once the control reports an answer and disables it again when the answer is cleared', async () => {
    await render()
    expect(nextButton().disabled).toBe(true)
    await user(() => option('Alpha').click())
    expect(nextButton().disabled).toBe(false)
    await user(() => button('Clear')!.click())
    expect(nextButton().disabled).toBe(true)
  })

  it.each([
    ['en', 'Preview only'],
    ['es', 'Preview only (es)'],
  ])('in campaign preview in %s says %j, Back is off on the first question and Restart reloads', async (lang, note) => {
    const reload = vi.fn()
    const loc = window.location
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...loc, href: loc.href, reload } as Location)
    await render(props({ previewMode: 'campaign-preview', lang }))
    const preview = footer()!.querySelector('.sb-preview')!
    expect(preview.firstChild!.textContent).toBe(note)
    expect(button('Back')!.disabled).toBe(true)
    await user(() => button('Restart')!.click())
    expect(reload).toHaveBeenCalledOnce()
    expect(actions()).toEqual([{ tag: 'button', text: 'Next', disabled: true }])
  })

  it('in campaign preview sends the answers so far and Back shows the previous question with its answer', async () => {
    reply(`POST ${API}/question/q1`, () => json(goResult({ question: question('q2', { text: 'Second?' }) })))
    reply(`POST ${API}/question/q2`, () => json(goResult({ question: question('q3', { text: 'Third?' }) })))
    await render(props({ previewMode: 'campaign-preview' }))
    await user(() => option('Beta').click())
    await user(() => nextButton().click())
    expect(questionText()!.textContent).toBe('Second?')
    expect(button('Back')!.disabled).toBe(false)
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())
    expect(requests()).toEqual([
      { key: `POST ${API}/question/q1`, body: { answer: 'b', answers: {} } },
      { key: `POST ${API}/question/q2`, body: { answer: 'a', answers: { q1: 'b' } } },
    ])
    expect(questionText()!.textContent).toBe('Third?')

    await user(() => button('Back')!.click())
    expect(questionText()!.textContent).toBe('Second?')
    expect(option('Alpha').getAttribute('aria-pressed')).toBe('true')
    await user(() => button('Back')!.click())
    expect(questionText()!.textContent).toBe('Question q1?')
    expect(option('Beta').getAttribute('aria-pressed')).toBe('true')
    expect(button('Back')!.disabled).toBe(true)
  })

  it('in question preview renders no footer and never posts', async () => {
    await render(props({ previewMode: 'preview-question' }))
    expect(footer()).toBeNull()
    expect(questionText()!.textContent).toBe('Question q1?')
    expect(option('Alpha').disabled).toBe(true)
    expect(requests()).toEqual([])
  })
})

describe('answering', () => {
  it('posts the answer once even on a double click, shows the loading state, then the next question', async () => {
    let send!: (r: Response) => void
    reply(`POST ${API}/question/q1`, () => new Promise<Response>((ok) => (send = ok)))
    const el = await render()
    const box = el.querySelector('section')! // the survey container
    box.scrollTop = 120
    document.body.style.overflow = 'hidden'
    vi.spyOn(box, 'getBoundingClientRect').mockReturnValue({ top: 300 } as DOMRect)
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(1000)
    await user(() => option('Beta').click())

    await user(() => {
      nextButton().click()
      nextButton().click()
    })
    expect(requests()).toEqual([{ key: `POST ${API}/question/q1`, body: { answer: 'b' } }])
    expect(nextButton().getAttribute('aria-busy')).toBe('true')
    expect(nextButton().classList.contains('sb-loading')).toBe(true)
    await user(() => nextButton().click())
    expect(requests()).toHaveLength(1)

    await user(() => send(json(goResult({ question: question('q2', { text: 'Second?' }), progress: { answered: 1, questions: 3, total: 33 } }))))
    expect(questionText()!.textContent).toBe('Second?')
    expect(document.activeElement).toBe(questionText())
    expect(nextButton().disabled).toBe(true)
    expect(nextButton().getAttribute('aria-busy')).toBeNull()
    expect(el.querySelector('[role=progressbar]')!.getAttribute('aria-valuenow')).toBe('33')
    expect(box.scrollTop).toBe(0)
    expect(document.body.style.overflow).toBe('')
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 300 + 1000 - 65 })
  })

  it('shows a refused answer under the question and keeps the answer', async () => {
    reply(`POST ${API}/question/q1`, () => json({ message: 'Please choose at most 2.' }, 400))
    await render()
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())

    expect(alertText()).toBe('Please choose at most 2.')
    expect(questionText()!.textContent).toBe('Question q1?')
    expect(option('Alpha').getAttribute('aria-pressed')).toBe('true')
    expect(nextButton().disabled).toBe(false)
    expect(toasts()).toEqual([])

    reply(`POST ${API}/question/q1`, () => json(goResult({ question: question('q2') })))
    await user(() => nextButton().click())
    expect(alertText()).toBeNull()
    expect(questionText()!.textContent).toBe('Question q2?')
  })

  it.each(['not_current_question', 'campaign_finished'])('reloads the go result after a 409 %s', async (code) => {
    reply(`POST ${API}/question/q1`, () => json({ message: 'Conflict', details: [{ code, message: 'Conflict' }] }, 409))
    reply(`GET ${API}/go`, () => json(goResult({ question: question('q3', { text: 'Where you are' }) })))
    await render()
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())

    expect(requests().map((r) => r.key)).toEqual([`POST ${API}/question/q1`, `GET ${API}/go`])
    expect(questionText()!.textContent).toBe('Where you are')
    expect(alertText()).toBeNull()
  })

  it.each<[string, Reply]>([
    ['a server error', () => json({ message: 'Database unavailable' }, 503)],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('toasts %s and keeps the state so Next can be pressed again', async (_, r) => {
    reply(`POST ${API}/question/q1`, r)
    await render()
    await user(() => option('Beta').click())
    await user(() => nextButton().click())

    expect(toasts()).toHaveLength(1)
    expect(questionText()!.textContent).toBe('Question q1?')
    expect(option('Beta').getAttribute('aria-pressed')).toBe('true')
    expect(nextButton().disabled).toBe(false)
    expect(window.scrollTo).not.toHaveBeenCalled()

    reply(`POST ${API}/question/q1`, () => json(goResult({ question: question('q2') })))
    await user(() => nextButton().click())
    expect(requests(`POST ${API}/question/q1`).map((x) => x.body)).toEqual([{ answer: 'b' }, { answer: 'b' }])
    expect(questionText()!.textContent).toBe('Question q2?')
  })
})

describe('thank-you', () => {
  const completed = () =>
    finished('completed', ty({ title: 'Thanks a latte!', message: 'Your answers help.', payout: '0.50', currency_code: 'USD' }))

  it('shows the thank-you with the payout after the last answer and refreshes the balance', async () => {
    reply(`POST ${API}/question/q1`, () => json(completed()))
    reply('GET /api/v3/user/balance', () => json({ balance: '25.50', currency_code: 'USD' }))
    const el = await render()
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())

    expect(el.querySelector('.thank-you h2')!.textContent).toBe('Thanks a latte!')
    expect(el.querySelector('.thank-you h2')).toBe(document.activeElement)
    expect(el.textContent).toContain('Your answers help.')
    expect(el.querySelector('.payout')!.textContent).toBe('You earned $0.50.')
    expect(el.querySelector('.sb-balance')!.textContent).toBe('Balance 25.50 USD')
    expect(actions()).toEqual([{ tag: 'a', text: 'Take me back to my feed', href: '/feed' }])
    expect(requests().map((r) => r.key)).toEqual([`POST ${API}/question/q1`, 'GET /api/v3/user/balance'])
  })

  it('does not refresh the balance on a page that opens finished', async () => {
    const el = await render(props({ go: completed() }))
    expect(el.querySelector('.payout')!.textContent).toBe('You earned $0.50.')
    expect(el.querySelector('.sb-balance')!.textContent).toBe('Balance $25.00')
    expect(requests()).toEqual([])
  })

  it.each([
    ['screened', 'Thanks for your time'],
    ['quota_full', 'This survey has all the answers it needs'],
    ['expired', 'This survey has closed'],
    ['skipped', 'This survey has ended'],
  ])('titles a %s outcome without a thank-you title from the labels', async (status, title) => {
    const el = await render(props({ go: finished(status, null) }))
    expect(el.querySelector('.thank-you h2')!.textContent).toBe(title)
    expect(el.querySelector('.payout')).toBeNull()
  })

  it.each([
    ['sends the trimmed comment', '  Loved it  ', { rating: 4, comment: 'Loved it' }],
    ['omits an empty comment', '   ', { rating: 4 }],
  ])('rating %s', async (_, comment, body) => {
    reply(`POST ${API}/rating`, () => json({}))
    const el = await render(props({ go: completed(), labels: { 'survey.stars.4': '4 stars' } }))
    const send = button('Send rating')!
    expect(send.disabled).toBe(true)
    const stars = Array.from(el.querySelectorAll<HTMLInputElement>('.stars input[type=radio]'))
    expect(stars.map((s) => s.value)).toEqual(['1', '2', '3', '4', '5'])
    expect(new Set(stars.map((s) => s.name)).size).toBe(1)
    expect(stars[3].closest('label')!.textContent).toBe('★4 stars')
    expect(stars[2].closest('label')!.textContent).toBe('★3')
    await user(() => stars[3].click())
    const area = el.querySelector<HTMLTextAreaElement>('textarea[name=comment]')!
    await user(() => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, comment)
      area.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await user(() => send.click())

    expect(requests()).toEqual([{ key: `POST ${API}/rating`, body }])
    expect(el.querySelector('.thank-you [role=status]')!.textContent).toBe('Thanks for your rating!')
  })

  it('shows a rating stored earlier as the member left it, and lets them change it', async () => {
    reply(`POST ${API}/rating`, () => json({}))
    const el = await render(props({ go: completed(), rating: { rating: 2, comment: 'Too long' } }))
    const checked = el.querySelector<HTMLInputElement>('.stars input:checked')!
    expect(checked.value).toBe('2')
    expect(el.querySelector<HTMLTextAreaElement>('textarea[name=comment]')!.value).toBe('Too long')
    expect(button('Send rating')!.disabled).toBe(false)
    await user(() => el.querySelectorAll<HTMLInputElement>('.stars input')[4].click())
    await user(() => button('Send rating')!.click())
    expect(requests()).toEqual([{ key: `POST ${API}/rating`, body: { rating: 5, comment: 'Too long' } }])
  })
})

describe('competition invitation', () => {
  const invitation = (over: Partial<CompetitionInvitation> = {}): CompetitionInvitation => ({
    uuid: 'x-1',
    prize: 'A weekend in Lisbon',
    winners: 1,
    draw_at: '2026-12-31T12:00:00Z',
    terms: 'One prize per household.',
    decision: null,
    closed: false,
    ...over,
  })
  const invited = (over: Partial<CompetitionInvitation> = {}) =>
    finished('completed', ty({ kind: 'competition_invitation', title: 'Thanks for your answers!', competition: invitation(over) }))
  const leave = () => island().querySelector<HTMLAnchorElement>('.competition-invite a.button')
  const status = () => island().querySelector('.competition-invite [role=status]')?.textContent ?? null

  it('invites to the draw with the prize, date and terms, and the footer is the 57.5px spacer', async () => {
    const el = await render(props({ go: invited() }))
    const box = el.querySelector('.competition-invite')!
    expect(box.querySelector('h3')!.textContent).toBe('Enter the prize draw?')
    expect(box.textContent).toContain('Prize: A weekend in Lisbon')
    expect(box.textContent).toContain('Winners are drawn on Dec 31, 2026.')
    expect(box.querySelector('details summary')!.textContent).toBe('Terms of the draw')
    expect(button('Enter the draw')).toBeDefined()
    expect(button('No thanks')).toBeDefined()
    expect(leave()).toBeNull()
    expect(actions()).toEqual([{ tag: 'div', text: '', height: '57.5px' }])
  })

  it.each<[string, string, string, string]>([
    ['entering', 'Enter the draw', `POST ${API}/enter-competition/x-1`, "You're in the draw. Good luck!"],
    ['declining', 'No thanks', `POST ${API}/reject-competition`, "You're not in the draw."],
  ])('after %s says so and shows the way back to the feed', async (_, text, key, said) => {
    reply(key, () => json({ competition_uuid: 'x-1' }))
    await render(props({ go: invited(), leave: { href: '/onboarding', label: 'Continue' } }))
    await user(() => button(text)!.click())
    expect(requests().map((r) => r.key)).toEqual([key])
    expect(status()).toBe(said)
    expect(leave()!.getAttribute('href')).toBe('/onboarding')
    expect(leave()!.textContent).toBe('Continue')
  })

  it('lets a member who declined enter after all, once, even on a double click', async () => {
    reply(`POST ${API}/enter-competition/x-1`, () => json({ decision: 'entered' }))
    await render(props({ go: invited({ decision: 'rejected' }) }))
    expect(button('No thanks')).toBeUndefined()
    const enter = button('Enter the draw after all')!
    await user(() => {
      enter.click()
      enter.click()
    })
    expect(requests().map((r) => r.key)).toEqual([`POST ${API}/enter-competition/x-1`])
    expect(status()).toBe("You're in the draw. Good luck!")
    expect(button('Enter the draw after all')).toBeUndefined()
  })

  it('shows a refusal and keeps the choice open', async () => {
    reply(`POST ${API}/enter-competition/x-1`, () => json({ message: 'This prize draw has closed.', code: 'competition_closed' }, 409))
    await render(props({ go: invited() }))
    await user(() => button('Enter the draw')!.click())
    expect(toasts()).toContain('This prize draw has closed.')
    expect(button('Enter the draw')).toBeDefined()
    expect(status()).toBeNull()
  })

  it.each<[string, Partial<CompetitionInvitation>, string]>([
    ['entered', { decision: 'entered' }, "You're in the draw. Good luck!"],
    ['closed', { closed: true }, 'This draw has closed.'],
  ])('opened %s offers no choice, only the way back', async (_, over, said) => {
    await render(props({ go: invited(over) }))
    expect(button('Enter the draw')).toBeUndefined()
    expect(status()).toBe(said)
    expect(leave()!.getAttribute('href')).toBe('/feed')
  })

  it('framed by another site, leaves the way on to the embedding page', async () => {
    reply(`POST ${API}/reject-competition`, () => json({}))
    await render(props({ go: invited(), embed: true }))
    await user(() => button('No thanks')!.click())
    expect(leave()).toBeNull()
  })

  it('without an invitation to answer still shows the way back above the spacer', async () => {
    const el = await render(props({ go: finished('completed', ty({ kind: 'competition_invitation' })) }))
    expect(el.querySelector('.competition-invite')).toBeNull()
    expect(el.querySelector<HTMLAnchorElement>('.thank-you a.button')!.getAttribute('href')).toBe('/feed')
  })
})

describe('control loading', () => {
  it('shows Retry when the control fails to load, and Retry loads it', async () => {
    ctl.fail = 1
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const el = await render(props({ labels: { 'survey.control_failed': 'This question could not be loaded.', 'survey.retry': 'Try again' } }))

    expect(el.querySelector('.sb-failed')!.textContent).toContain('This question could not be loaded.')
    expect(el.querySelector('[data-control]')).toBeNull()
    await user(() => button('Try again')!.click())

    expect(ctl.loads).toEqual(['radio', 'radio'])
    expect(el.querySelector('.sb-failed')).toBeNull()
    expect(el.querySelector('[data-control=radio]')).not.toBeNull()
  })

  it('says a control type it does not know could not be loaded', async () => {
    const el = await render(props({ go: goResult({ question: question('q1', { control_type: 'hologram' as never }) }) }))
    expect(el.querySelector('.sb-failed')!.textContent).toContain('This question could not be loaded.')
  })

  it('loads the next question’s control when its type differs', async () => {
    reply(`POST ${API}/question/q1`, () => json(goResult({ question: question('q2', { control_type: 'checkbox' }) })))
    const el = await render()
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())
    expect(ctl.loads).toEqual(['radio', 'checkbox'])
    expect(el.querySelector('[data-control=checkbox]')).not.toBeNull()
  })
})

describe('a walk (onboarding, before membership)', () => {
  const WALK = '/panel/p-1/onboarding/campaigns/c-1'
  const walk = (over: Partial<SurveyBoxProps> = {}) =>
    props({ apiBase: WALK, walk: true, balance: '', leave: { href: '/', label: 'Continue' }, ...over })

  it('answers through the panel host API in {data} envelopes', async () => {
    reply(`POST ${WALK}/q1`, () => json({ data: goResult({ question: question('q2', { text: 'Second?' }) }) }))
    const el = await render(walk())
    expect(el.querySelector('.sb-balance')).toBeNull()
    await user(() => option('Beta').click())
    await user(() => nextButton().click())

    expect(requests()).toEqual([{ key: `POST ${WALK}/q1`, body: { data: { answer: 'b' } } }])
    expect(questionText()!.textContent).toBe('Second?')
  })

  it('reloads from the walk’s go after a 409', async () => {
    reply(`POST ${WALK}/q1`, () => json({ message: 'Conflict', details: [{ code: 'not_current_question', message: 'Conflict' }] }, 409))
    reply(`GET ${WALK}/go`, () => json({ data: goResult({ question: question('q3', { text: 'Where you are' }) }) }))
    await render(walk())
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())

    expect(requests().map((r) => r.key)).toEqual([`POST ${WALK}/q1`, `GET ${WALK}/go`])
    expect(questionText()!.textContent).toBe('Where you are')
  })

  it('ends on a thank-you without a rating or a balance, its button the server’s', async () => {
    reply(`POST ${WALK}/q1`, () => json({ data: finished('completed', ty({ title: 'Thanks! One more to go.', is_final_onboarding_campaign: false })) }))
    const el = await render(walk())
    await user(() => option('Alpha').click())
    await user(() => nextButton().click())

    expect(el.querySelector('.thank-you h2')!.textContent).toBe('Thanks! One more to go.')
    expect(el.querySelector('.thank-you .rating')).toBeNull()
    expect(actions()).toEqual([{ tag: 'a', text: 'Continue', href: '/' }])
    expect(requests().map((r) => r.key)).toEqual([`POST ${WALK}/q1`]) // no balance is asked for
  })
})
