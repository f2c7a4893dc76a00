import { describe, expect, it } from 'vitest'
import type { GoResult, ThankYou } from './contract'
import { createStore, footerLinks, footerOffers, format, isTerminal, money, outcomeKey, setGo, translator, type FooterState } from './store'

const ty = (over: Partial<ThankYou> = {}): ThankYou => ({ open_in_new_tab: false, is_final_onboarding_campaign: false, is_welcome: false, ...over })

function go(over: Partial<GoResult> = {}): GoResult {
  return {
    campaign_status: 'started',
    thank_you: null,
    action: null,
    question: { id: 'q1', type: 'single', control_type: 'radio', text: 'Q?', answer: null },
    progress: { answered: 0, questions: 3, total: 40 },
    campaign: {
      guid: 'c',
      name: 'C',
      is_welcome: false,
      is_competition: false,
      invitation: { name: 'I', questionsLength: 3 },
      reward: '1',
      currency_code: 'USD',
      footer_links: [],
    },
    ...over,
  }
}

describe('format', () => {
  it.each([
    ['{{.Percent}}% complete', '40% complete'],
    ['{{ .Percent }}% complete', '40% complete'],
    ['{Percent}% complete', '40% complete'],
    ['{Other} and {{.Other}} stay', '{Other} and {{.Other}} stay'],
  ])('turns %j into %j', (s, want) => {
    expect(format(s, { Percent: 40 })).toBe(want)
  })

  it('leaves a text without vars as it is', () => {
    expect(format('{Percent}')).toBe('{Percent}')
  })
})

describe('translator', () => {
  it('uses the server label, then the English fallback, then the key', () => {
    const t = translator({ 'survey.next': 'Siguiente', 'survey.payout': 'Ganaste {{.Amount}}.' })
    expect(t('survey.next')).toBe('Siguiente')
    expect(t('survey.payout', { Amount: '$1' })).toBe('Ganaste $1.')
    expect(t('survey.submit')).toBe('Submit')
    expect(t('survey.percent_complete', { Percent: 5 })).toBe('5% complete')
    expect(t('control.unknown')).toBe('control.unknown')
  })
})

describe('store', () => {
  it('starts with the earlier answer of the question as the current answer', () => {
    const g = go()
    g.question!.answer = 'b'
    const s = createStore({ apiBase: '/x', go: g, balance: '1.00', lang: 'en', labels: {}, instanceKey: 'demo' })
    expect(s.currentAnswer.value).toBe('b')
    expect(s.submitAnswerInProgress.value).toBe(false)
  })

  it('takes a new go result with its answer, clears the error and counts the step', () => {
    const s = createStore({ apiBase: '/x', go: go(), balance: '', lang: 'en', labels: {}, instanceKey: 'demo' })
    s.currentAnswer.value = 'a'
    s.error.value = 'bad'
    setGo(s, go({ question: null, campaign_status: 'completed' }))
    expect(s.currentAnswer.value).toBeNull()
    expect(s.error.value).toBe('')
    expect(s.step.value).toBe(1)
  })

  it.each([
    ['completed', true],
    ['suppressed', true],
    ['disqualified', true],
    ['started', false],
    ['', false],
  ])('says whether %s is terminal (%s)', (status, want) => {
    expect(isTerminal(status)).toBe(want)
  })

  it.each([
    ['completed', 'survey.outcome_completed'],
    ['qualified', 'survey.outcome_completed'],
    ['screened', 'survey.outcome_screened'],
    ['quota_full', 'survey.outcome_quota_full'],
    ['disqualified', 'survey.outcome_disqualified'],
    ['expired', 'survey.outcome_expired'],
    ['skipped', 'survey.outcome_other'],
    ['unavailable', 'survey.outcome_other'],
  ])('titles the %s outcome with %s', (status, key) => {
    expect(outcomeKey(status)).toBe(key)
  })
})

describe('footerOffers', () => {
  const base: FooterState = { go: go(), currentAnswer: null, submitting: false }
  const done = (status: string, t: ThankYou | null) => go({ campaign_status: status, thank_you: t, question: null })

  it.each<[string, Partial<FooterState>, unknown[]]>([
    ['a question without an answer offers a disabled Next', {}, [{ kind: 'next', submit: false, disabled: true, loading: false }]],
    ['an answered question offers an enabled Next', { currentAnswer: 'a' }, [{ kind: 'next', submit: false, disabled: false, loading: false }]],
    ['a submitting answer shows the loading state', { currentAnswer: 'a', submitting: true }, [{ kind: 'next', submit: false, disabled: false, loading: true }]],
    ['a widget of a one-question invitation offers Submit', { widget: true, go: go({ campaign: { ...go().campaign, invitation: { name: 'I', questionsLength: 1 } } }) }, [{ kind: 'next', submit: true, disabled: true, loading: false }]],
    ['a widget of a longer invitation offers Next', { widget: true }, [{ kind: 'next', submit: false, disabled: true, loading: false }]],
    ['a one-question invitation outside a widget offers Next', { go: go({ campaign: { ...go().campaign, invitation: { name: 'I', questionsLength: 1 } } }) }, [{ kind: 'next', submit: false, disabled: true, loading: false }]],
    ['a dobblk action offers Go to Homepage', { go: go({ action: { type: 'dobblk' } }) }, [{ kind: 'home' }]],
    ['a grid question without an answer offers no button', { go: go({ question: { ...go().question!, control_type: 'grid' } }) }, []],
    ['an answered grid question offers Next', { currentAnswer: { r1: 'c1' }, go: go({ question: { ...go().question!, control_type: 'grid' } }) }, [{ kind: 'next', submit: false, disabled: false, loading: false }]],
    ['a finished campaign without addresses offers the feed', { go: done('completed', ty()) }, [{ kind: 'feed' }]],
    ['a finished campaign without a thank-you offers the feed', { go: done('expired', null) }, [{ kind: 'feed' }]],
    [
      'a completion address comes before the feed',
      { go: done('completed', ty({ completion_url: 'https://a.example/done' })) },
      [{ kind: 'continue', url: 'https://a.example/done' }, { kind: 'feed' }],
    ],
    [
      'the redirect address serves when there is no completion address',
      { go: done('screened', ty({ redirect_url: 'https://a.example/r' })) },
      [{ kind: 'continue', url: 'https://a.example/r' }, { kind: 'feed' }],
    ],
    [
      'open in new tab comes once per address, in order',
      { go: done('completed', ty({ completion_url: 'https://a.example/done', redirect_url: 'https://a.example/r', open_in_new_tab: true })) },
      [
        { kind: 'continue', url: 'https://a.example/done' },
        { kind: 'new_tab', url: 'https://a.example/done' },
        { kind: 'new_tab', url: 'https://a.example/r' },
        { kind: 'feed' },
      ],
    ],
    [
      'the same address twice opens in a new tab once',
      { go: done('completed', ty({ completion_url: 'https://a.example/x', redirect_url: 'https://a.example/x', open_in_new_tab: true })) },
      [{ kind: 'continue', url: 'https://a.example/x' }, { kind: 'new_tab', url: 'https://a.example/x' }, { kind: 'feed' }],
    ],
    [
      'disqualified uses nothing from the thank-you',
      { go: done('disqualified', ty({ completion_url: 'https://a.example/done', open_in_new_tab: true })) },
      [{ kind: 'feed' }],
    ],
    [
      'preview mode offers Close preview instead of the feed',
      { previewMode: 'campaign-preview', go: done('completed', ty({ redirect_url: 'https://a.example/r' })) },
      [{ kind: 'continue', url: 'https://a.example/r' }, { kind: 'close_preview' }],
    ],
    [
      'framed by another site, the custom Close takes the place of the feed',
      { embed: true, go: done('completed', ty({ redirect_url: 'https://a.example/r' })) },
      [{ kind: 'continue', url: 'https://a.example/r' }, { kind: 'close' }],
    ],
    [
      'a competition invitation shows only the spacer',
      { go: done('completed', ty({ kind: 'competition_invitation', completion_url: 'https://a.example/done' })) },
      [{ kind: 'spacer' }],
    ],
  ])('%s', (_, over, want) => {
    expect(footerOffers({ ...base, ...over })).toEqual(want)
  })
})

describe('footerLinks', () => {
  it('keeps at most 4 links that have a text and a url', () => {
    const l = (label: string, text: string, url: string) => ({ label, text, url })
    const g = go()
    g.campaign.footer_links = [l('A', 'a', '/a'), l('B', '', '/b'), l('C', 'c', ''), l('', 'd', '/d'), l('E', 'e', '/e'), l('F', 'f', '/f'), l('G', 'g', '/g')]
    expect(footerLinks(g).map((x) => x.text)).toEqual(['a', 'd', 'e', 'f'])
  })
})

describe('money', () => {
  it.each([
    ['0.50', 'USD', 'en', '$0.50'],
    ['25', 'EUR', 'en', '€25.00'],
    ['1.00', undefined, 'en', '1.00'],
    ['1.00', 'NOPE!', 'en', '1.00 NOPE!'],
  ])('formats %s %s in %s as %s', (amount, currency, lang, want) => {
    expect(money(amount, currency, lang)).toBe(want)
  })
})
