/**
 * The competition_invitation thank-you's invitation: enter the prize draw or not
 * (POST .../enter-competition/{uuid}, .../reject-competition). The footer is the spec's
 * spacer, so once the member has chosen this is where the way back to the feed is.
 */
import { useSignal, useSignals } from '@preact/signals-react/runtime'
import { post } from '../lib/api'
import { toast } from '../lib/toast'
import type { CompetitionInvitation } from './contract'
import type { T } from './store'

export interface CompetitionProps {
  invitation: CompetitionInvitation
  apiBase: string
  lang: string
  t: T
  /** 'Take me back to my feed' (absent when framed: the parent page has its own way on). */
  leave?: { href: string; label: string }
}

export function Competition({ invitation, apiBase, lang, t, leave }: CompetitionProps) {
  useSignals()
  const decision = useSignal(invitation.decision)
  const sending = useSignal(false)

  const choose = async (enter: boolean) => {
    if (sending.value) return
    sending.value = true
    try {
      // The spec's do-not-allow-concurrent flag: a second tap while the first is in flight fails.
      await post(enter ? `${apiBase}/enter-competition/${invitation.uuid}` : `${apiBase}/reject-competition`, {}, { doNotAllowConcurrent: true })
      decision.value = enter ? 'entered' : 'rejected'
    } catch (err) {
      toast((err as Error).message, { type: 'error' })
    } finally {
      sending.value = false
    }
  }

  const entered = decision.value === 'entered'
  const open = !entered && !invitation.closed
  return (
    <section className="competition-invite" aria-labelledby="sb-competition">
      <h3 id="sb-competition">{t('survey.competition_title')}</h3>
      <p>{t('survey.competition_prize', { Prize: invitation.prize })}</p>
      {invitation.draw_at ? <p>{t('survey.competition_draw', { Date: drawDate(invitation.draw_at, lang) })}</p> : null}
      {invitation.terms ? (
        <details>
          <summary>{t('survey.competition_terms')}</summary>
          <p>{invitation.terms}</p>
        </details>
      ) : null}
      {entered || invitation.closed || decision.value === 'rejected' ? (
        <p className="notice" role="status">
          {t(entered ? 'survey.competition_entered' : invitation.closed ? 'survey.competition_closed' : 'survey.competition_rejected')}
        </p>
      ) : null}
      {open ? (
        <div className="competition-actions">
          <button className="button" type="button" aria-busy={sending.value || undefined} onClick={() => void choose(true)}>
            {t(decision.value === 'rejected' ? 'survey.competition_change' : 'survey.competition_enter')}
          </button>
          {decision.value === 'rejected' ? null : (
            <button className="button button-secondary" type="button" aria-busy={sending.value || undefined} onClick={() => void choose(false)}>
              {t('survey.competition_reject')}
            </button>
          )}
        </div>
      ) : null}
      {leave && (decision.value || invitation.closed) ? <LeaveLink to={leave} /> : null}
    </section>
  )
}

/** The draw's day in the member's language ("Dec 31, 2026"), in UTC as the server writes it. */
function drawDate(at: string, lang: string): string {
  try {
    return new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(at))
  } catch {
    return at.slice(0, 10)
  }
}

/** The way back to the feed on the competition invitation, whose footer is a spacer. */
export function LeaveLink({ to }: { to: { href: string; label: string } }) {
  return (
    <p>
      <a className="button button-secondary" href={to.href}>
        {to.label}
      </a>
    </p>
  )
}
