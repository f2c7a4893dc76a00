/**
 * The survey box on /survey/:uuid: header bar (balance, progress), the current question with its
 * answer control (each control is its own lazy chunk, see ./controls.ts), the footer, and the
 * thank-you page. Replaces the server's no-JS survey box. Spec "Survey box"; contract.ts.
 */
import { useSignals } from '@preact/signals-react/runtime'
import { useEffect } from 'react'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import { ApiError, get, post } from '../lib/api'
import { toast } from '../lib/toast'
import type { ControlType, EmbedMessage, GoResult, SurveyBoxProps } from './contract'
import { loaders } from './controls'
import { Footer } from './Footer'
import * as S from './store'
import { ThankYou } from './ThankYou'
import './survey-box.css'

/** Pixels kept above the box when the window scrolls to it (the sticky top bar). */
export const SCROLL_OFFSET = 65
const Q_ID = 'sb-q'

/** Imports a control; a failed chunk whose URL the error names is tried once more, cache-busted. */
async function importControl(type: ControlType) {
  try {
    return (await loaders[type]()).default
  } catch (err) {
    const url = /(https?:\/\/[^\s'"]+?\.m?js)\b/.exec(String((err as Error)?.message))?.[1]
    if (!url) throw err
    return ((await import(/* @vite-ignore */ url + '?v=' + Date.now())) as Awaited<ReturnType<(typeof loaders)[ControlType]>>).default
  }
}

/** Loads the control for type unless it is loaded (or loading); after a failure, tries again. */
function loadControl(s: S.SurveyStore, type: ControlType, loading: Set<string>): void {
  const have = s.controlsLoaded.value[type]
  if ((have !== undefined && have !== S.FAILED) || loading.has(type)) return
  const set = (v?: S.SurveyStore['controlsLoaded']['value'][string]) => {
    const next = { ...s.controlsLoaded.value }
    if (v === undefined) delete next[type]
    else next[type] = v
    s.controlsLoaded.value = next
  }
  if (!loaders[type]) return set(S.FAILED) // a control type this build does not know
  loading.add(type)
  if (have === S.FAILED) set() // loading again: the spinner instead of Retry
  importControl(type)
    .then(set, (err) => {
      console.error(`[survey-box] control ${type}: load failed`, err)
      set(S.FAILED)
    })
    .finally(() => loading.delete(type))
}

interface ViewProps {
  s: S.SurveyStore
  p: SurveyBoxProps
  t: S.T
  submit(): void
  load(type: ControlType): void
  back(): void
}

function Question({ s, t, load, previewMode, instanceKey }: Pick<ViewProps, 's' | 't' | 'load'> & { previewMode?: string; instanceKey: string }) {
  useSignals()
  const q = s.go.value.question!
  const Control = s.controlsLoaded.value[q.control_type]

  useEffect(() => load(q.control_type), [q.control_type, load])

  const error = s.error.value
  return (
    <div className="survey-question">
      <h2 className="question-text" id={Q_ID} tabIndex={-1}>
        {q.text}
      </h2>
      {q.descr ? <p className="question-descr">{q.descr}</p> : null}
      {/* Sanitised by the server (campaigns.SanitizeHTML): formatting, links, images only. */}
      {q.html ? <div className="question-html" dangerouslySetInnerHTML={{ __html: q.html }} /> : null}
      {q.image?.url ? <img className="question-image" src={q.image.url} alt={q.image.alt || ''} /> : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {Control === S.FAILED ? (
        <p className="form-error sb-failed" role="alert">
          {t('survey.control_failed')}{' '}
          <button type="button" className="button button-secondary" onClick={() => load(q.control_type)}>
            {t('survey.retry')}
          </button>
        </p>
      ) : Control ? (
        <Control
          key={q.id}
          question={q}
          value={s.currentAnswer.value}
          onChange={(v) => (s.currentAnswer.value = v)}
          labelledBy={Q_ID}
          t={t}
          instanceKey={instanceKey}
          disabled={s.submitAnswerInProgress.value || previewMode === 'preview-question'}
        />
      ) : (
        <span className="spinner" role="status">
          <span className="dot" />
          <span className="dot" />
          <span className="dot" />
          <span className="visually-hidden">{t('common.loading')}</span>
        </span>
      )}
    </div>
  )
}

function SurveyBox({ s, p, t, submit, load, back, close }: ViewProps & { close(): void }) {
  useSignals()
  const go = s.go.value
  const total = Math.max(0, Math.min(100, Math.round(go.progress?.total ?? 0)))
  const terminal = S.isTerminal(go.campaign_status)
  const step = s.step.value
  // Each new question (or the thank-you page) takes the focus, not the first one on the page.
  useEffect(() => {
    if (step > 0) document.getElementById(Q_ID)?.focus({ preventScroll: true })
  }, [step])
  return (
    <section
      className={'survey-box sb' + (p.widget ? ' sb-widget' : '')}
      aria-labelledby="sb-h"
      ref={(el) => {
        s.container = el
      }}
    >
      <header className="survey-head sb-head">
        <div className="sb-bar">
          <h1 id="sb-h">{go.campaign.name}</h1>
          {s.balance.value ? (
            <span className="sb-balance">
              {t('survey.balance')} <strong>{s.balance.value}</strong>
            </span>
          ) : null}
        </div>
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={total} aria-label={t('survey.progress')}>
          <span className="progress-bar" style={{ width: total + '%' }} />
        </div>
      </header>
      {terminal ? (
        <ThankYou
          go={go}
          apiBase={p.apiBase}
          lang={p.lang}
          t={t}
          stored={p.rating}
          leave={p.embed ? undefined : S.leaveLink(p.leave, t)}
          rate={!p.walk}
        />
      ) : go.question ? (
        <Question s={s} t={t} load={load} previewMode={p.previewMode} instanceKey={p.instanceKey} />
      ) : go.action?.type === 'dobblk' && p.blocked ? (
        <p className="notice" role="status">
          {p.blocked}
        </p>
      ) : null}
      <Footer
        s={s}
        t={t}
        previewMode={p.previewMode}
        lang={p.lang}
        widget={p.widget}
        embed={p.embed}
        leave={p.leave}
        submit={submit}
        back={back}
        close={close}
      />
    </section>
  )
}

/** The embedding page's origin (from the referrer), so only it hears the box; '*' when unknown. */
function parentOrigin(): string {
  try {
    return new URL(document.referrer).origin
  } catch {
    return '*'
  }
}

/** After an answer: the box's own scroll to the top, body scrolling back, the window to the box. */
function scrollToBox(s: S.SurveyStore): void {
  const el = s.container
  if (!el) return
  el.scrollTop = 0
  document.body.style.overflow = ''
  window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - SCROLL_OFFSET })
}

export function mount(el: HTMLElement, props: unknown): () => void {
  const p = props as SurveyBoxProps
  if (!p?.go?.campaign) throw new Error('survey-box: props without a go result') // the fallback stays
  const s = S.createStore(p)
  const t = S.translator(p.labels)
  const loading = new Set<string>()
  const load = (type: ControlType) => loadControl(s, type, loading)
  let alive = true

  // Framed by another site: the parent page hears each status and the custom Close.
  const tell = (type: EmbedMessage['type']) => {
    if (!p.embed || window.parent === window) return
    const msg: EmbedMessage = { type, campaign: s.go.value.campaign.guid, status: s.go.value.campaign_status }
    window.parent.postMessage(msg, parentOrigin())
  }

  const show = (go: GoResult) => {
    if (!alive) return
    const wasDone = S.isTerminal(s.go.value.campaign_status)
    const was = s.go.value.campaign_status
    S.setGo(s, go)
    if (go.campaign_status !== was) tell('canvass:status')
    if (go.campaign_status === 'completed' && !wasDone && !p.walk) void refreshBalance()
  }

  // A walk's API (the panel host's onboarding calls) wraps bodies and replies in {data}.
  const goURL = p.apiBase + '/go'
  const answerURL = (qid: string) => (p.walk ? `${p.apiBase}/${encodeURIComponent(qid)}` : `${p.apiBase}/question/${encodeURIComponent(qid)}`)
  const unwrap = (r: GoResult | { data: GoResult }): GoResult => (p.walk ? (r as { data: GoResult }).data : (r as GoResult))

  const refreshBalance = async () => {
    try {
      const b = await get<{ balance: string; currency_code: string; formatted?: string }>('/api/v3/user/balance')
      if (alive && b?.balance) {
        s.balance.value = b.formatted || b.balance + (b.currency_code ? ' ' + b.currency_code : '')
        // The page's top bar shows the same balance.
        if (b.formatted) document.querySelectorAll('[data-balance]').forEach((el) => (el.textContent = b.formatted!))
      }
    } catch {
      // The header keeps the old balance.
    }
  }

  const reload = async () => {
    try {
      show(unwrap(await get<GoResult | { data: GoResult }>(goURL)))
    } catch (err) {
      toast((err as Error).message, { type: 'error' })
    }
  }

  const submit = async () => {
    const q = s.go.value.question
    const answer = s.currentAnswer.value
    if (p.previewMode === 'preview-question' || s.submitAnswerInProgress.value || !q || answer === null) return
    s.submitAnswerInProgress.value = true
    let scroll = true
    const preview = p.previewMode === 'campaign-preview'
    try {
      // A preview sends the answers so far: the server keeps none.
      const body = preview ? { answer, answers: s.answers } : p.walk ? { data: { answer } } : { answer }
      const before = s.go.value
      const next = unwrap(await post<GoResult | { data: GoResult }>(answerURL(q.id), body, { doNotAllowConcurrent: true }))
      if (preview) {
        s.history.value = [...s.history.value, { go: { ...before, question: { ...q, answer } }, answers: { ...s.answers } }]
        s.answers = { ...s.answers, [q.id]: answer }
      }
      show(next)
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 400) s.error.value = err.message
      else if (err instanceof ApiError && err.statusCode === 409) await reload()
      else {
        scroll = false
        toast((err as Error).message, { type: 'error' })
      }
    } finally {
      s.submitAnswerInProgress.value = false
    }
    if (scroll && alive) scrollToBox(s)
  }

  // Campaign preview: Back shows the previous question again with its answer.
  const back = () => {
    const h = s.history.value
    const last = h[h.length - 1]
    if (!last || s.submitAnswerInProgress.value) return
    s.history.value = h.slice(0, -1)
    s.answers = last.answers
    show(last.go)
  }

  const root = createRoot(el)
  const draw = () => root.render(<SurveyBox s={s} p={p} t={t} submit={() => void submit()} load={load} back={back} close={() => tell('canvass:close')} />)
  flushSync(draw)
  // Labels the box missed arrive once lib/i18n has reported them and reloaded the language.
  document.addEventListener('i18n:loaded', draw)
  tell('canvass:status')
  return () => {
    alive = false
    document.removeEventListener('i18n:loaded', draw)
    root.unmount()
  }
}
