import { describe, expect, it } from 'vitest'
import campaignSchema from '../../modules/campaigns/schema/campaign.schema.json'
import { completionsAt, containerPath, placeAt, type Schema } from './schema'

const schema = campaignSchema as Schema

/** The text with the cursor where | is, and the cursor's offset. */
function at(marked: string): [string, number] {
  const pos = marked.indexOf('|')
  return [marked.slice(0, pos) + marked.slice(pos + 1), pos]
}

describe('where the cursor stands in a YAML document', () => {
  it.each([
    ['a key of the root', 'uuid: x\nty|', [], 'key', 'ty'],
    ['a key of a block', 'thank_you:\n  ti|', ['thank_you'], 'key', 'ti'],
    ['the first key of a list item', 'questions:\n  - i|', ['questions', '*'], 'key', 'i'],
    ['a later key of a list item', 'questions:\n  - id: q1\n    control_type: radio\n    te|', ['questions', '*'], 'key', 'te'],
    [
      'a key of an item of a nested list, after a sibling item',
      'questions:\n  - id: q1\n    answers:\n      - id: a\n        text: A\n      - id: b\n        te|',
      ['questions', '*', 'answers', '*'],
      'key',
      'te',
    ],
    ['a list written at its key\'s column', 'quotas:\n- id: all\n  li|', ['quotas', '*'], 'key', 'li'],
    ['back at the root after a list', 'questions:\n  - id: q1\n    text: Hi\nrew|', [], 'key', 'rew'],
  ])('%s', (_, marked, path, kind, prefix) => {
    const [text, pos] = at(marked)
    const place = placeAt(text, pos)
    expect(place).toMatchObject({ path, kind, prefix, from: pos - prefix.length })
  })

  it('reads a value after its key', () => {
    const [text, pos] = at('questions:\n  - id: q1\n    control_type: ra|')
    expect(placeAt(text, pos)).toMatchObject({ path: ['questions', '*'], kind: 'value', key: 'control_type', prefix: 'ra' })
  })

  it('offers nothing inside a flow collection or a comment', () => {
    for (const marked of ['name: {en: "Hi", es|', '# a note about ty|']) {
      const [text, pos] = at(marked)
      expect(placeAt(text, pos)).toBeNull()
    }
  })

  it('skips comments and blank lines above the cursor', () => {
    const lines = ['questions:', '  # the first one', '', '  - id: q1', '']
    expect(containerPath(lines, 4, 4, [])).toEqual(['questions', '*'])
  })
})

describe('completions from the campaign schema', () => {
  const labels = (marked: string) => {
    const [text, pos] = at(marked)
    return completionsAt(schema, text, pos)?.options.map((o) => o.label) ?? []
  }

  it('offers the root properties that start with what is typed', () => {
    expect(labels('uuid: x\nre|')).toEqual(['reward'])
    expect(labels('qu|')).toEqual(expect.arrayContaining(['quotas', 'questions']))
  })

  it("offers a question's properties inside a question", () => {
    const got = labels('questions:\n  - id: q1\n    con|')
    expect(got).toContain('control_type')
  })

  it('offers the enum values of a key, as typed', () => {
    expect(labels('type: po|')).toEqual(['poll'])
    expect(labels('questions:\n  - id: q1\n    control_type: ra|')).toEqual(expect.arrayContaining(['radio', 'ranking']))
  })

  it('offers true and false for a boolean', () => {
    expect(labels('is_welcome: |')).toEqual(['true', 'false'])
  })

  it('tells each property what the schema says of it', () => {
    const [text, pos] = at('typ|')
    const opt = completionsAt(schema, text, pos)?.options.find((o) => o.label === 'type')
    expect(opt?.info).toMatch(/survey/)
    expect(opt?.apply).toBe('type: ')
  })

  it('offers nothing the schema does not know', () => {
    expect(labels('questions:\n  - id: q1\n    zz|')).toEqual([])
  })
})
