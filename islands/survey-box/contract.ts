/**
 * The survey box's contract with the server (modules/campaigns/engine_api.go) and between the
 * box and its answer controls. Types only: no code, so it costs no bytes.
 */

/** An answer option, grid row or column, or scale point, in the member's language. */
export interface Option {
  id: string
  text?: string
  image?: { url: string; alt?: string }
  value?: number
  exclusive?: boolean
}

/** The spec's Question, as GET .../go returns it (texts in the member's language). */
export interface Question {
  id: string
  type: string
  control_type: ControlType
  text: string
  descr?: string
  html?: string
  image?: { url: string; alt?: string }
  videoid?: string
  answers?: Option[]
  rows?: Option[]
  columns?: Option[]
  multiple?: boolean
  max_fields?: number
  min_chars?: number
  max_chars?: number
  min_answers?: number
  max_answers?: number
  min_num?: number
  max_num?: number
  step?: number
  spend_min?: number
  spend_max?: number
  spend_period?: string[]
  freq_min?: number
  freq_max?: number
  freq_type?: string
  freq_period?: string[]
  scale_answers?: Option[]
  scale_labels?: { min?: string; mid?: string; max?: string }
  /** The member's earlier answer VALUE, or null. */
  answer: AnswerValue | null
}

export type ControlType =
  | 'text' | 'textarea' | 'number' | 'spend' | 'dropdown' | 'radio' | 'checkbox' | 'click_bar'
  | 'image_select' | 'multi_image' | 'ranking' | 'most_least' | 'slider' | 'stepper' | 'nps'
  | 'like_dislike' | 'likert' | 'star' | 'smiley' | 'date' | 'location' | 'frequency' | 'video' | 'grid'

/**
 * Answer VALUE by control (ARCHITECTURE.md "Answers"): text, textarea, date -> string; number,
 * slider, stepper, nps, likert, star, smiley, click_bar -> number; radio, dropdown,
 * like_dislike, image_select -> option id; checkbox, multi_image, ranking -> option ids;
 * most_least -> {most, least}; grid -> {rowId: columnId | columnIds}; spend -> {amount, period};
 * frequency -> {count, period}; location -> {postcode, id}; video -> {watched: true}.
 */
export type AnswerValue =
  | string
  | number
  | string[]
  | { most: string; least: string }
  | Record<string, string | string[]>
  | { amount: number; period: string }
  | { count: number; period: string }
  | { postcode: string; id: string }
  | { watched: true }

/** The spec's thank-you object, with what the page says and pays. */
export interface ThankYou {
  kind?: string // '' or 'competition_invitation'
  title?: string
  message?: string
  completion_url?: string
  redirect_url?: string
  open_in_new_tab: boolean
  is_final_onboarding_campaign: boolean
  is_welcome: boolean
  payout?: string // "0.50", on completed only
  currency_code?: string
  /** A completed competition campaign's invitation into its prize draw. */
  competition?: CompetitionInvitation
}

/** thank_you.competition: the prize draw and the member's decision (null until they choose). */
export interface CompetitionInvitation {
  uuid: string
  prize: string
  prize_amount?: string
  currency_code?: string
  winners: number
  draw_at?: string
  terms?: string
  decision: 'entered' | 'rejected' | null
  closed: boolean
}

/** The spec's campaign go result (GET .../go and POST .../question/{qid}). */
export interface GoResult {
  campaign_status: string
  thank_you: ThankYou | null
  action: { type: string } | null // type 'dobblk': show Go to Homepage
  question: Question | null
  progress: { answered: number; questions: number; total: number }
  campaign: {
    guid: string
    name: string
    is_welcome: boolean
    is_competition: boolean
    invitation: { name: string; questionsLength: number }
    reward: string
    currency_code: string
    footer_links: { label: string; text: string; url: string }[]
  }
}

/** Terminal campaign statuses (spec section 4). */
export const TERMINAL = ['completed', 'screened', 'quota_full', 'qualified', 'disqualified', 'skipped', 'unavailable', 'expired', 'suppressed'] as const

/**
 * Every answer control is its own lazily loaded module islands/survey-box/controls/<name>.tsx
 * whose default export is a React component with these props. It reports the answer VALUE
 * as the member gives it, or null while there is no complete answer (the footer's Next stays
 * disabled while the value is null). It must be keyboard-operable and labelled for screen
 * readers (the question text labels the group: aria-labelledby={labelledBy}).
 */
export interface ControlProps {
  question: Question
  value: AnswerValue | null
  onChange: (value: AnswerValue | null) => void
  /** id of the element holding the question text. */
  labelledBy: string
  /**
   * Translated labels the controls need (surveyLabelKeys on the server). fallback: the English
   * shown (and reported) while a key has none; probe: a miss is normal and not reported.
   */
  t: (key: string, vars?: Record<string, string | number>, fallback?: string, probe?: boolean) => string
  disabled?: boolean
  /** The panel instance's key: the location control passes it to info/postcode-lookup. */
  instanceKey: string
}

/** Props the server gives the survey-box island (views/campaigns/survey.templ). */
export interface SurveyBoxProps {
  /** e.g. /api/v1/demo/campaigns/<uuid> */
  apiBase: string
  /** The go result the page was rendered with. */
  go: GoResult
  /** The member's balance, formatted, for the header bar. */
  balance: string
  /** 'campaign-preview' | 'preview-question' | '' */
  previewMode?: string
  /** The member's language code, for the preview note. */
  lang: string
  /** The panel instance's key (info/postcode-lookup's instanceKey). */
  instanceKey: string
  /** Translated texts, by key. */
  labels: Record<string, string>
  /** The widget variant: 250px high with the wide image button. */
  widget?: boolean
  /** Framed by another site (/embed/): a custom Close button tells the parent page. */
  embed?: boolean
  /** The thank-you button: where 'Take me back to my feed' goes (the server decides) and its label. */
  leave?: { href: string; label: string }
  /** Why the dobblk action holds the member back. */
  blocked?: string
  /** The member's stored rating of a finished campaign, so a reload shows it as left. */
  rating?: { rating: number; comment: string }
  /**
   * A walk another module keeps (onboarding: a visitor who is not a member yet). The box talks
   * to the panel host's onboarding API: GET apiBase/go and POST apiBase/{questionId}, both in
   * {data} envelopes; there is no balance and no rating.
   */
  walk?: boolean
}

/** What the box posts to the parent window when framed (/embed/): each status, and Close. */
export interface EmbedMessage {
  type: 'canvass:status' | 'canvass:close'
  campaign: string
  status: string
}
