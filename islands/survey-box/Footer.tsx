/** The survey footer: percent complete, the one action (Next, or the outcome's offers), preview tools, links. */
import { useSignals } from '@preact/signals-react/runtime'
import { footerLinks, footerOffers, leaveLink, type Offer, type SurveyStore, type T } from './store'

export interface FooterProps {
  s: SurveyStore
  t: T
  previewMode?: string
  lang: string
  widget?: boolean
  embed?: boolean
  /** The thank-you button's address and label (SurveyBoxProps.leave). */
  leave?: { href: string; label: string }
  /** Framed: tells the parent page the member closed the survey. */
  close?(): void
  submit(): void
  /** Campaign preview: back to the previous question. */
  back?(): void
}

const ARROW = (
  <svg viewBox="0 0 48 16" width="48" height="16" aria-hidden="true" focusable="false">
    <path d="M0 8h44M37 1l8 7-8 7" fill="none" stroke="currentColor" strokeWidth="2.5" />
  </svg>
)

function offer(o: Offer, i: number, { t, submit, widget, embed, leave, close }: FooterProps) {
  // Framed: links that leave the survey replace the embedding page, not the frame.
  const top = embed ? '_top' : undefined
  switch (o.kind) {
    case 'next': {
      const text = t(o.submit ? 'survey.submit' : 'survey.next')
      return (
        <button
          key={i}
          type="button"
          className={'button sb-next' + (widget ? ' sb-next-wide' : '') + (o.loading ? ' sb-loading' : '')}
          disabled={o.disabled}
          aria-disabled={o.loading || undefined}
          aria-busy={o.loading || undefined}
          onClick={submit}
        >
          {widget ? (
            <>
              {ARROW}
              <span className="visually-hidden">{text}</span>
            </>
          ) : (
            text
          )}
        </button>
      )
    }
    case 'home':
      return (
        <a key={i} className="button" href="/" target={top}>
          {t('survey.go_to_homepage')}
        </a>
      )
    case 'continue':
      return (
        <a key={i} className="button" href={o.url} target={top}>
          {t('survey.continue_website')}
        </a>
      )
    case 'new_tab':
      return (
        <a key={i} className="button button-secondary" href={o.url} target="_blank" rel="noopener">
          {t('survey.open_new_tab')}
        </a>
      )
    case 'close_preview':
      return (
        <button key={i} type="button" className="button" onClick={() => window.close()}>
          {t('survey.close_preview')}
        </button>
      )
    case 'close':
      return (
        <button key={i} type="button" className="button" onClick={close}>
          {t('embed.close')}
        </button>
      )
    case 'feed': {
      const to = leaveLink(leave, t)
      return (
        <a key={i} className="button" href={to.href}>
          {to.label}
        </a>
      )
    }
    case 'spacer':
      return <div key={i} className="sb-spacer" style={{ height: '57.5px' }} />
  }
}

export function Footer(p: FooterProps) {
  useSignals()
  const { s, t, previewMode, lang } = p
  if (previewMode === 'preview-question') return null
  const go = s.go.value
  const offers = footerOffers({ go, currentAnswer: s.currentAnswer.value, submitting: s.submitAnswerInProgress.value, previewMode, widget: p.widget, embed: p.embed })
  const links = footerLinks(go)
  const preview = previewMode === 'campaign-preview'
  return (
    <footer className="survey-footer sb-footer">
      <span className="survey-percent">{t('survey.percent_complete', { Percent: go.progress?.total ?? 0 })}</span>
      {preview ? (
        <span className="sb-preview">
          {t('survey.preview_only') + (lang && lang !== 'en' ? ` (${lang})` : '')}
          <button type="button" className="button-link" disabled={!s.history.value.length || !p.back} onClick={p.back}>
            {t('survey.back')}
          </button>
          <button type="button" className="button-link" onClick={() => location.reload()}>
            {t('survey.restart')}
          </button>
        </span>
      ) : null}
      {offers.map((o, i) => offer(o, i, p))}
      {links.length ? (
        <ul className="footer-links">
          {links.map((l, i) => (
            <li key={i}>
              {l.label ? <span>{l.label} </span> : null}
              <a href={l.url} rel="noopener" target="_blank">
                {l.text}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </footer>
  )
}
