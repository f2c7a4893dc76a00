/** The thank-you page: title and message, payout, and a 5-star rating with an optional comment. */
import { useSignal, useSignals } from '@preact/signals-react/runtime'
import { post } from '../lib/api'
import { toast } from '../lib/toast'
import { Competition, LeaveLink } from './Competition'
import type { GoResult } from './contract'
import { money, outcomeKey, type T } from './store'

export interface ThankYouProps {
  go: GoResult
  apiBase: string
  lang: string
  t: T
  /** The rating stored earlier, shown as the member left it (they may change it). */
  stored?: { rating: number; comment: string }
  /** The way back to the feed, for the competition invitation (whose footer is a spacer). */
  leave?: { href: string; label: string }
  /** Offer the star rating (a walk, which keeps no run, has none). */
  rate?: boolean
}

/** "3 stars" from the server's labels (survey.stars.3), else the number (a probe: not reported). */
const starLabel = (t: T, i: number): string => t('survey.stars.' + i, undefined, String(i), true)

export function ThankYou({ go, apiBase, lang, t, stored, leave, rate = true }: ThankYouProps) {
  useSignals()
  const rating = useSignal(stored?.rating ?? 0)
  const comment = useSignal(stored?.comment ?? '')
  const sending = useSignal(false)
  const saved = useSignal(false)
  const ty = go.thank_you
  const title = ty?.title || t(outcomeKey(go.campaign_status))

  const send = async () => {
    if (sending.value || !rating.value) return
    sending.value = true
    const c = comment.value.trim()
    try {
      await post(apiBase + '/rating', c ? { rating: rating.value, comment: c } : { rating: rating.value })
      saved.value = true
    } catch (err) {
      toast((err as Error).message, { type: 'error' })
    } finally {
      sending.value = false
    }
  }

  return (
    <div className="thank-you">
      <h2 className="question-text" id="sb-q" tabIndex={-1}>
        {title}
      </h2>
      {ty?.message ? <p>{ty.message}</p> : null}
      {ty?.payout ? <p className="payout">{t('survey.payout', { Amount: money(ty.payout, ty.currency_code || go.campaign.currency_code, lang) })}</p> : null}
      {ty?.competition ? (
        <Competition invitation={ty.competition} apiBase={apiBase} lang={lang} t={t} leave={leave} />
      ) : ty?.kind === 'competition_invitation' && leave ? (
        // No invitation to answer (not completed, or no draw): the spacer footer has no way on.
        <LeaveLink to={leave} />
      ) : null}
      {!rate ? null : saved.value ? (
        <p className="notice" role="status">
          {t('survey.rating_saved')}
        </p>
      ) : (
        <form
          className="rating"
          onSubmit={(e) => {
            e.preventDefault()
            void send()
          }}
        >
          <fieldset>
            <legend>{t('survey.rate')}</legend>
            <div className="stars" role="radiogroup" aria-label={t('survey.rate')}>
              {[1, 2, 3, 4, 5].map((i) => (
                <label key={i} className={'star' + (i <= rating.value ? ' sb-on' : '')}>
                  <input type="radio" name="rating" value={i} checked={rating.value === i} onChange={() => (rating.value = i)} />
                  <span aria-hidden="true">★</span>
                  <span className="visually-hidden">{starLabel(t, i)}</span>
                </label>
              ))}
            </div>
            <label className="field">
              <span>{t('survey.comment')}</span>
              <textarea name="comment" rows={3} maxLength={1000} value={comment.value} onChange={(e) => (comment.value = e.target.value)} />
            </label>
            <button className="button button-secondary" type="submit" disabled={!rating.value} aria-busy={sending.value || undefined}>
              {t('survey.send_rating')}
            </button>
          </fieldset>
        </form>
      )}
    </div>
  )
}
