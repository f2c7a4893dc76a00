import { describe, expect, it } from 'vitest'
import src from './controls.ts?raw'

// Read as text: importing the registry must not need the control modules (written separately).
const TYPES = [
  'text', 'textarea', 'number', 'spend', 'dropdown', 'radio', 'checkbox', 'click_bar', 'image_select', 'multi_image', 'ranking',
  'most_least', 'slider', 'stepper', 'nps', 'like_dislike', 'likert', 'star', 'smiley', 'date', 'location', 'frequency', 'video', 'grid',
]

describe('the control registry', () => {
  it('lazily imports controls/<type> for each of the 24 control types, and nothing else', () => {
    const entries = [...src.matchAll(/^\s+(\w+): \(\) => import\('\.\/controls\/(\w+)'\),$/gm)].map((m) => [m[1], m[2]])
    expect(entries).toEqual(TYPES.map((t) => [t, t]))
    expect(src).not.toMatch(/^import (?!type).*controls\//m)
  })
})
