/**
 * The answer controls, each its own lazily loaded chunk (islands/survey-box/controls/<name>.tsx,
 * default export: a component taking ControlProps). Only the current question's control loads.
 */
import type { ComponentType } from 'react'
import type { ControlProps, ControlType } from './contract'

type Loader = () => Promise<{ default: ComponentType<ControlProps> }>

export const loaders: Record<ControlType, Loader> = {
  text: () => import('./controls/text'),
  textarea: () => import('./controls/textarea'),
  number: () => import('./controls/number'),
  spend: () => import('./controls/spend'),
  dropdown: () => import('./controls/dropdown'),
  radio: () => import('./controls/radio'),
  checkbox: () => import('./controls/checkbox'),
  click_bar: () => import('./controls/click_bar'),
  image_select: () => import('./controls/image_select'),
  multi_image: () => import('./controls/multi_image'),
  ranking: () => import('./controls/ranking'),
  most_least: () => import('./controls/most_least'),
  slider: () => import('./controls/slider'),
  stepper: () => import('./controls/stepper'),
  nps: () => import('./controls/nps'),
  like_dislike: () => import('./controls/like_dislike'),
  likert: () => import('./controls/likert'),
  star: () => import('./controls/star'),
  smiley: () => import('./controls/smiley'),
  date: () => import('./controls/date'),
  location: () => import('./controls/location'),
  frequency: () => import('./controls/frequency'),
  video: () => import('./controls/video'),
  grid: () => import('./controls/grid'),
}
