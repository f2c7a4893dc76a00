import { beforeEach, expect, it } from 'vitest'
import { resetI18n, t } from './i18n'

beforeEach(() => {
  document.body.innerHTML =
    '<script type="application/json" id="i18n">{"survey.submit":"Send {count} answers","hi":"Hallo {name}"}</script>'
  resetI18n()
})

it('translates with placeholders and falls back to the key', () => {
  expect(t('survey.submit', { count: 3 })).toBe('Send 3 answers')
  expect(t('hi', { other: 1 })).toBe('Hallo {name}')
  expect(t('missing.key')).toBe('missing.key')
  expect(t('missing.key', undefined, 'Default')).toBe('Default')
})

it('survives a page without translations', () => {
  document.body.innerHTML = ''
  resetI18n()
  expect(t('a.b')).toBe('a.b')
})
