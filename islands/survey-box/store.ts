/**
 * Survey box state (spec "Survey state") and its rules as plain functions over the signals:
 * labels, which footer offers to show, the thank-you texts. index.tsx does the fetching.
 */
import { batch, signal, type Signal } from '@preact/signals-react'
import type { ComponentType } from 'react'
import { lookup, reportMissing } from '../lib/i18n'
import { TERMINAL, type AnswerValue, type ControlProps, type GoResult, type SurveyBoxProps } from './contract'

/** A control module that could not be loaded. */
export const FAILED = 0

export interface SurveyStore {
  go: Signal<GoResult>
  /** null: not answered (Next stays disabled). */
  currentAnswer: Signal<AnswerValue | null>
  submitAnswerInProgress: Signal<boolean>
  /** A refused answer's message (400), shown under the question. */
  error: Signal<string>
  /** Loaded control components by control type; FAILED when the import failed. */
  controlsLoaded: Signal<Record<string, ComponentType<ControlProps> | typeof FAILED>>
  /** The balance shown in the header bar. */
  balance: Signal<string>
  /** How many go results arrived after mount: focus moves to each new question. */
  step: Signal<number>
  /** The survey box element (scrolled to the top after each answer). */
  container: HTMLElement | null
  /**
   * Campaign preview keeps the path on the client (the server records nothing): the go
   * results before the current one, for Back, and the answers given on the way.
   */
  history: Signal<{ go: GoResult; answers: Record<string, AnswerValue> }[]>
  answers: Record<string, AnswerValue>
}

export function createStore(p: SurveyBoxProps): SurveyStore {
  return {
    go: signal(p.go),
    currentAnswer: signal(p.go.question?.answer ?? null),
    submitAnswerInProgress: signal(false),
    error: signal(''),
    controlsLoaded: signal({}),
    balance: signal(p.balance || ''),
    step: signal(0),
    container: null,
    history: signal([]),
    answers: {},
  }
}

/** Shows a new go result: its question's earlier answer becomes the current answer. */
export function setGo(s: SurveyStore, go: GoResult): void {
  batch(() => {
    s.go.value = go
    s.currentAnswer.value = go.question?.answer ?? null
    s.error.value = ''
    s.step.value++
  })
}

export const isTerminal = (status: string): boolean => (TERMINAL as readonly string[]).includes(status)

/** English texts for every key the box uses, when the server's labels lack one. */
export const EN: Record<string, string> = {
  'survey.next': 'Next',
  'survey.submit': 'Submit',
  'survey.percent_complete': '{Percent}% complete',
  'survey.progress': 'Progress',
  'survey.preview_only': 'Preview only',
  'survey.back': 'Back',
  'survey.restart': 'Restart',
  'survey.close_preview': 'Close preview',
  'survey.go_to_homepage': 'Go to Homepage',
  'embed.close': 'Close',
  'survey.continue_website': 'Continue to the website',
  'survey.open_new_tab': 'Open in a new tab',
  'error.default_button': 'Take me back to my feed',
  'survey.payout': 'You earned {Amount}.',
  'survey.rate': 'How was this survey?',
  'survey.comment': 'Comment (optional)',
  'survey.send_rating': 'Send rating',
  'survey.rating_saved': 'Thanks for your rating!',
  'survey.control_failed': 'This question could not be loaded.',
  'survey.retry': 'Retry',
  'common.loading': 'Loading',
  'survey.balance': 'Balance',
  'survey.outcome_completed': 'Thank you!',
  'survey.outcome_screened': 'Thanks for your time',
  'survey.outcome_quota_full': 'This survey has all the answers it needs',
  'survey.outcome_disqualified': 'Thanks for your time',
  'survey.outcome_expired': 'This survey has closed',
  'survey.outcome_other': 'This survey has ended',
  'survey.competition_title': 'Enter the prize draw?',
  'survey.competition_prize': 'Prize: {Prize}',
  'survey.competition_draw': 'Winners are drawn on {Date}.',
  'survey.competition_terms': 'Terms of the draw',
  'survey.competition_enter': 'Enter the draw',
  'survey.competition_reject': 'No thanks',
  'survey.competition_entered': "You're in the draw. Good luck!",
  'survey.competition_rejected': "You're not in the draw.",
  'survey.competition_change': 'Enter the draw after all',
  'survey.competition_closed': 'This draw has closed.',
}

export type Vars = Record<string, string | number>
/**
 * t(key, vars, fallback, probe): fallback is the English a control shows while the key has no
 * translation; probe looks a key up whose absence is a normal fallback (survey.stars.N), so a
 * miss is not reported.
 */
export type T = (key: string, vars?: Vars, fallback?: string, probe?: boolean) => string

/** Replaces {{.Name}} (the server's Go-template style) and {Name} with vars; unknown names stay. */
export function format(s: string, vars?: Vars): string {
  return vars
    ? s.replace(/\{\{\s*\.(\w+)\s*\}\}|\{(\w+)\}/g, (m, a: string | undefined, b: string | undefined) => {
        const k = (a ?? b)!
        return k in vars ? String(vars[k]) : m
      })
    : s
}

/**
 * t(key, vars) over the server's labels, then the page's messages (lib/i18n: the language
 * reloaded after a report), falling back to English, then to the key. A key found in neither is
 * reported as missing through lib/i18n (debounced, each key once per page) unless probed.
 */
export function translator(labels: Record<string, string> | undefined): T {
  return (key, vars, fallback, probe) => {
    let s = labels?.[key] ?? lookup(key)
    if (s == null) {
      s = EN[key] ?? fallback ?? key
      if (!probe) reportMissing(key, s)
    }
    return format(s, vars)
  }
}

/** The thank-you title label for a terminal status. */
export function outcomeKey(status: string): string {
  if (status === 'qualified') status = 'completed'
  return ['completed', 'screened', 'quota_full', 'disqualified', 'expired'].includes(status)
    ? 'survey.outcome_' + status
    : 'survey.outcome_other'
}

/** One thing the footer offers. */
export type Offer =
  | { kind: 'next'; submit: boolean; disabled: boolean; loading: boolean }
  | { kind: 'home' } // dobblk: Go to Homepage (href '/')
  | { kind: 'continue'; url: string } // continue to the campaign's website
  | { kind: 'new_tab'; url: string } // open an address in a new tab
  | { kind: 'close_preview' }
  | { kind: 'close' } // framed by another site: the custom close, which tells the parent page
  | { kind: 'feed' } // 'Take me back to my feed' (the server's leave address)
  | { kind: 'spacer' } // competition invitation: 57.5px of nothing

export interface FooterState {
  go: GoResult
  currentAnswer: AnswerValue | null
  submitting: boolean
  previewMode?: string
  widget?: boolean
  embed?: boolean
}

/** The footer's buttons, in order (spec "Footer"). */
export function footerOffers({ go, currentAnswer, submitting, previewMode, widget, embed }: FooterState): Offer[] {
  const preview = previewMode === 'campaign-preview'
  if (isTerminal(go.campaign_status)) {
    if (go.thank_you?.kind === 'competition_invitation') return [{ kind: 'spacer' }]
    const ty = go.campaign_status === 'disqualified' ? null : go.thank_you
    const out: Offer[] = []
    const urls = [ty?.completion_url, ty?.redirect_url].filter((u): u is string => !!u)
    if (urls.length) out.push({ kind: 'continue', url: urls[0] })
    if (ty?.open_in_new_tab) new Set(urls).forEach((url) => out.push({ kind: 'new_tab', url }))
    out.push({ kind: embed ? 'close' : preview ? 'close_preview' : 'feed' })
    return out
  }
  if (go.action?.type === 'dobblk') return [{ kind: 'home' }]
  if (go.question?.control_type === 'grid' && currentAnswer === null) return []
  return [
    {
      kind: 'next',
      submit: !!widget && go.campaign.invitation?.questionsLength === 1,
      disabled: currentAnswer === null,
      loading: submitting,
    },
  ]
}

/** Footer links with both text and url, at most 4. */
export function footerLinks(go: GoResult): GoResult['campaign']['footer_links'] {
  return (go.campaign.footer_links || []).filter((l) => l && l.text && l.url).slice(0, 4)
}

/** "$0.50" from "0.50" and "USD" in the member's language ("0.50 XYZ" if Intl does not know it). */
export function money(amount: string, currency: string | undefined, lang: string): string {
  if (currency) {
    try {
      return new Intl.NumberFormat(lang || undefined, { style: 'currency', currency }).format(Number(amount))
    } catch {
      return amount + ' ' + currency
    }
  }
  return amount
}

/** 'Take me back to my feed': the server's choice of address and label (SurveyBoxProps.leave), else the feed. */
export function leaveLink(leave: { href: string; label: string } | undefined, t: T): { href: string; label: string } {
  return { href: leave?.href || '/feed', label: leave?.label || t('error.default_button') }
}
