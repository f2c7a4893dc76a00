/**
 * The survey box's labels come from the server (SurveyBoxProps.labels). A label the box needs and
 * the page lacks is reported through lib/i18n like any island's miss (spec sections 4 and 9):
 * once per key, all together 5 s after the last, then the language reloads and the box shows it.
 * Keys probed on purpose (the star names) are not reported.
 */
import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REPORT_DEBOUNCE_MS, resetI18n } from '../lib/i18n'
import type { GoResult } from './contract'
import Spend from './controls/spend'
import Star from './controls/star'
import { Q, render } from './controls/harness'
import { mount } from '.'
import { translator } from './store'
import { ThankYou } from './ThankYou'

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true })

type Call = { method: string; path: string; body?: unknown }

const CAMPAIGN: GoResult['campaign'] = {
  guid: 'c-1',
  name: 'Tea',
  is_welcome: false,
  is_competition: false,
  invitation: { name: 'Tea', questionsLength: 1 },
  reward: '0.50',
  currency_code: 'USD',
  footer_links: [],
}

/** The network edge: reports answer 204, loads answer `loaded`. */
function fakeServer(loaded: Record<string, string> = {}) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET'
      calls.push({ method, path: String(url), body: init?.body ? JSON.parse(String(init.body)) : undefined })
      return method === 'POST' ? new Response(null, { status: 204 }) : new Response(JSON.stringify(loaded), { status: 200 })
    }),
  )
  return calls
}

const reports = (calls: Call[]) => calls.filter((c) => c.method === 'POST')

beforeEach(() => {
  vi.useFakeTimers()
  document.documentElement.lang = 'es'
  resetI18n()
})

afterEach(() => {
  resetI18n()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('a label the page lacks', () => {
  it('is reported once, 5 s after the last miss, with the text shown instead; then the language reloads', async () => {
    const calls = fakeServer()
    const t = translator({ 'survey.next': 'Siguiente', 'survey.amount': 'Importe', 'survey.period': 'Por', 'survey.per_week': 'semana' })
    expect(t('survey.next')).toBe('Siguiente')
    expect(t('survey.submit')).toBe('Submit') // English from the box's own table
    // A period the server has no label for: the control shows the English and reports it.
    const r = await render(Spend, Q('spend', { spend_period: ['week', 'fortnight'] }), null, t)
    expect(r.$$('option').map((o) => o.textContent)).toEqual(['semana', 'fortnight'])
    await vi.advanceTimersByTimeAsync(REPORT_DEBOUNCE_MS - 1000)
    expect(t('survey.submit')).toBe('Submit') // seen again: no new report, and the wait starts over
    t('survey.retry')
    await vi.advanceTimersByTimeAsync(REPORT_DEBOUNCE_MS - 1)
    expect(calls).toEqual([])

    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(calls).toHaveLength(2))
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/api/v1/translations/add/translation/es',
      body: { 'survey.submit': 'Submit', 'survey.per_fortnight': 'fortnight', 'survey.retry': 'Retry' },
    })
    expect(calls[1]).toMatchObject({ method: 'GET', path: '/api/v1/translations/load/translation/es' })

    t('survey.submit')
    t('survey.per_fortnight', undefined, 'fortnight')
    await vi.advanceTimersByTimeAsync(3 * REPORT_DEBOUNCE_MS)
    expect(calls).toHaveLength(2) // each key once per page
  })

  it('shows in the box once the reloaded language has it', async () => {
    const calls = fakeServer({ 'survey.next': 'Siguiente', 'survey.percent_complete': '{Percent}% hecho' })
    const go: GoResult = {
      campaign_status: 'started',
      thank_you: null,
      action: null,
      question: { id: 'q1', type: 'single', control_type: 'radio', text: 'Tea?', answers: [{ id: 'a', text: 'Yes' }], answer: null },
      progress: { answered: 1, questions: 4, total: 25 },
      campaign: CAMPAIGN,
    }
    const el = document.body.appendChild(document.createElement('div'))
    let unmount = () => {}
    act(() => {
      unmount = mount(el, { apiBase: '/api/v1/demo/campaigns/c-1', go, balance: '', lang: 'es', instanceKey: 'demo', labels: {} })
    })
    const next = () => el.querySelector('button.sb-next')!.textContent
    expect(next()).toBe('Next')

    await act(() => vi.advanceTimersByTimeAsync(REPORT_DEBOUNCE_MS))
    await vi.waitFor(() => expect(calls.map((c) => c.method)).toEqual(['POST', 'GET']))
    expect(Object.keys(reports(calls)[0].body as object)).toEqual(expect.arrayContaining(['survey.next', 'survey.percent_complete']))
    await act(async () => {})
    expect(next()).toBe('Siguiente')
    expect(el.textContent).toContain('25% hecho')
    act(() => unmount())
  })
})

describe('a key probed on purpose', () => {
  it.each<[string, (t: ReturnType<typeof translator>) => Promise<string[]> | string[]]>([
    [
      'the star control names 7 stars (survey.stars.N, then survey.stars)',
      async (t) => (await render(Star, Q('star', { max_num: 7 }), null, t)).$$('input').map((i) => i.getAttribute('aria-label') || i.labels?.[0]?.textContent || ''),
    ],
    ['a direct probe', (t) => [t('survey.stars.9', undefined, '9', true)]],
  ])('is not reported: %s', async (_, use) => {
    const calls = fakeServer()
    const names = await use(translator({ 'survey.stars.1': '1 estrella', 'survey.stars.2': '2 estrellas' }))
    expect(names.length).toBeGreaterThan(0)
    await vi.advanceTimersByTimeAsync(3 * REPORT_DEBOUNCE_MS)
    expect(calls).toEqual([])
  })

  it('is not reported on the thank-you page either (survey.stars.N for the rating)', async () => {
    const calls = fakeServer()
    const el = document.body.appendChild(document.createElement('div'))
    const go: GoResult = {
      campaign_status: 'completed',
      thank_you: { kind: '', open_in_new_tab: false, is_final_onboarding_campaign: false, is_welcome: false, title: 'Gracias' },
      action: null,
      question: null,
      progress: { answered: 1, questions: 1, total: 100 },
      campaign: CAMPAIGN,
    }
    const labels = { 'survey.rate': 'Valora', 'survey.comment': 'Comentario', 'survey.send_rating': 'Enviar' }
    const { createRoot } = await import('react-dom/client')
    const root = createRoot(el)
    act(() => root.render(<ThankYou go={go} apiBase="/x" lang="es" t={translator(labels)} />))
    // The number stands in for each missing star name.
    expect(Array.from(el.querySelectorAll('.stars .visually-hidden'), (s) => s.textContent)).toEqual(['1', '2', '3', '4', '5'])
    await vi.advanceTimersByTimeAsync(3 * REPORT_DEBOUNCE_MS)
    expect(calls).toEqual([])
    act(() => root.unmount())
  })
})
