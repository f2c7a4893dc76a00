import { describe, expect, it } from 'vitest'
import { click, oneName, opts, Q, render, space, T, type } from './harness'
import Checkbox from './checkbox'
import Dropdown from './dropdown'
import Likert from './likert'
import Nps from './nps'
import NumberInput from './number'
import Radio from './radio'
import Star from './star'
import Text from './text'
import TextArea from './textarea'

describe('text', () => {
  it.each<[string, object, string[], (string | null)[]]>([
    ['reports the trimmed text, null when blank', {}, ['  hi ', '   ', 'x'], ['hi', null, 'x']],
    ['is null until min_chars', { min_chars: 3 }, ['ab', ' ab ', 'abc'], [null, null, 'abc']],
    ['counts characters, not UTF-16 units', { min_chars: 2 }, ['😀', '😀😀'], [null, '😀😀']],
  ])('%s', async (_, extra, typed, want) => {
    const r = await render(Text, Q('text', extra))
    for (const s of typed) await type(r.$('input'), s)
    expect(r.calls).toEqual(want)
  })

  it('is labelled by the question, limits to max_chars and restores the answer', async () => {
    const r = await render(Text, Q('text', { max_chars: 20 }), 'earlier')
    const i = r.$('input')
    expect([i.type, i.maxLength, i.getAttribute('aria-labelledby'), i.value]).toEqual(['text', 20, 'qt', 'earlier'])
    expect(r.calls).toEqual([])
    expect((await render(Text, Q('text'))).$('input').maxLength).toBe(1000)
  })
})

describe('textarea', () => {
  it('reports trimmed text, shows the characters left of max_chars', async () => {
    const r = await render(TextArea, Q('textarea', { max_chars: 50, min_chars: 2 }), null, T({ 'survey.characters_left': 'Noch {{.Count}} Zeichen' }))
    const a = r.$<HTMLTextAreaElement>('textarea')
    expect(a.maxLength).toBe(50)
    expect(r.$('.cv-count').textContent).toBe('Noch 50 Zeichen')
    await type(a, ' a ')
    await type(a, ' ab ')
    expect(r.calls).toEqual([null, 'ab'])
    expect(r.$('.cv-count').textContent).toBe('Noch 46 Zeichen')
    expect(a.getAttribute('aria-describedby')).toBe(r.$('.cv-count').id)
    expect(a.getAttribute('aria-labelledby')).toBe('qt')
  })

  it('restores the earlier answer, default max 5000', async () => {
    const r = await render(TextArea, Q('textarea'), 'old text')
    expect(r.$<HTMLTextAreaElement>('textarea').value).toBe('old text')
    expect(r.$<HTMLTextAreaElement>('textarea').maxLength).toBe(5000)
    expect(r.$('.cv-count').textContent).toBe('4992 characters left')
  })
})

describe('number', () => {
  it.each<[string, object, string[], (number | null)[]]>([
    ['any number', {}, ['12', '-3.5', ''], [12, -3.5, null]],
    ['within min_num..max_num', { min_num: 1, max_num: 10 }, ['0', '1', '10', '11'], [null, 1, 10, null]],
    ['on the step from min_num', { min_num: 1, step: 2 }, ['2', '3', '5'], [null, 3, 5]],
    ['decimal steps', { step: 0.1 }, ['0.3', '0.35'], [0.3, null]],
  ])('%s', async (_, extra, typed, want) => {
    const r = await render(NumberInput, Q('number', extra))
    for (const s of typed) await type(r.$('input'), s)
    expect(r.calls).toEqual(want)
  })

  it('has the bounds, inputmode=decimal, marks and explains an out-of-range number', async () => {
    const r = await render(NumberInput, Q('number', { min_num: 1, max_num: 10, step: 1 }), 4)
    const i = r.$('input')
    expect([i.type, i.inputMode, i.min, i.max, i.step, i.value]).toEqual(['number', 'decimal', '1', '10', '1', '4'])
    expect(i.getAttribute('aria-labelledby')).toBe('qt')
    await type(i, '12')
    expect(i.getAttribute('aria-invalid')).toBe('true')
    expect(r.$('#' + CSS.escape(i.getAttribute('aria-describedby')!)).textContent).toBe('1–10')
    await type(i, '7')
    expect(i.hasAttribute('aria-invalid')).toBe(false)
    expect(r.$('.cv-hint')).toBeNull()
  })
})

describe('dropdown', () => {
  it('has a placeholder and reports the option id', async () => {
    const r = await render(Dropdown, Q('dropdown', { answers: opts('a', 'b') }), null, T({ 'survey.choose': 'Wähle…' }))
    const s = r.$<HTMLSelectElement>('select')
    expect(r.$$<HTMLOptionElement>('option').map((o) => [o.value, o.textContent])).toEqual([['', 'Wähle…'], ['a', 'A'], ['b', 'B']])
    expect(s.value).toBe('')
    expect(s.getAttribute('aria-labelledby')).toBe('qt')
    await type(s, 'b')
    await type(s, 'a')
    expect(r.calls).toEqual(['b', 'a'])
  })

  it('falls back to English and restores the answer (ignoring unknown ids)', async () => {
    const r = await render(Dropdown, Q('dropdown', { answers: opts('a', 'b') }), 'b')
    expect(r.$<HTMLSelectElement>('select').value).toBe('b')
    expect(r.$('option').textContent).toBe('Choose…')
    const s = await render(Dropdown, Q('dropdown', { answers: opts('a') }), 'gone')
    expect(s.$$<HTMLSelectElement>('select')[0].value).toBe('')
  })
})

describe('radio', () => {
  it('is a native radiogroup labelled by the question; Space chooses, reports the id', async () => {
    const r = await render(Radio, Q('radio', { answers: [...opts('a', 'b'), { id: 'c', text: 'Cat', image: { url: '/c.png' } }] }))
    const g = r.$('[role=radiogroup]')
    expect(g.getAttribute('aria-labelledby')).toBe('qt')
    const radios = r.$$('input[type=radio]')
    expect(oneName(radios)).toBe(true)
    expect(radios.map((i) => i.closest('label')!.textContent)).toEqual(['A', 'B', 'Cat'])
    expect(r.$('img').getAttribute('alt')).toBe('')
    await space(radios[1])
    await click(radios[2])
    expect(r.calls).toEqual(['b', 'c'])
    expect(radios.map((i) => i.checked)).toEqual([false, false, true])
    expect(radios[2].closest('label')!.classList.contains('on')).toBe(true)
  })

  it('restores the answer', async () => {
    const r = await render(Radio, Q('radio', { answers: opts('a', 'b') }), 'b')
    expect(r.$$('input').map((i) => i.checked)).toEqual([false, true])
  })
})

describe('checkbox', () => {
  const answers = [...opts('a', 'b', 'c'), { id: 'none', text: 'None', exclusive: true }]
  const ids = (r: { $$: (s: string) => HTMLInputElement[] }) => r.$$('input').filter((i) => i.checked).map((i) => i.value)

  it.each<[string, object, string[], (string[] | null)[]]>([
    ['adds and removes, in option order', {}, ['c', 'a', 'c', 'a'], [['c'], ['a', 'c'], ['a'], null]],
    ['exclusive clears the others, another clears it', {}, ['a', 'b', 'none', 'c'], [['a'], ['a', 'b'], ['none'], ['c']]],
    ['null until min_answers', { min_answers: 2 }, ['a', 'b', 'b'], [null, ['a', 'b'], null]],
  ])('%s', async (_, extra, clicks, want) => {
    const r = await render(Checkbox, Q('checkbox', { answers, ...extra }))
    for (const id of clicks) await space(r.$(`input[value=${id}]`))
    expect(r.calls).toEqual(want)
  })

  it('disables further choices at max_answers (not the exclusive one)', async () => {
    const r = await render(Checkbox, Q('checkbox', { answers, max_answers: 2 }))
    await click(r.$('input[value=a]'))
    await click(r.$('input[value=c]'))
    expect(r.$$('input').map((i) => i.disabled)).toEqual([false, true, false, false])
    await click(r.$('input[value=none]'))
    expect(ids(r)).toEqual(['none'])
    expect(r.$$('input').some((i) => i.disabled)).toBe(false)
    await click(r.$('input[value=a]'))
    await click(r.$('input[value=c]'))
    await click(r.$('input[value=c]'))
    await click(r.$('input[value=b]'))
    expect(r.calls).toEqual([['a'], ['a', 'c'], ['none'], ['a'], ['a', 'c'], ['a'], ['a', 'b']])
  })

  it('is a labelled group of checkboxes and restores the answer', async () => {
    const r = await render(Checkbox, Q('checkbox', { answers }), ['b', 'x', 'c'])
    expect(r.$('[role=group]').getAttribute('aria-labelledby')).toBe('qt')
    expect(r.$$('input').every((i) => i.type === 'checkbox')).toBe(true)
    expect(ids(r)).toEqual(['b', 'c'])
    await click(r.$('input[value=a]'))
    expect(r.last()).toEqual(['a', 'b', 'c'])
  })
})

describe('nps', () => {
  it('is 0..10 as a native radiogroup with the scale labels, reports the number', async () => {
    const r = await render(Nps, Q('nps', { scale_labels: { min: 'Not likely', max: 'Very likely' } }))
    const radios = r.$$('input[type=radio]')
    expect(radios.map((i) => i.closest('label')!.textContent)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])
    expect(oneName(radios)).toBe(true)
    const g = r.$('[role=radiogroup]')
    expect(g.getAttribute('aria-labelledby')).toBe('qt')
    expect(r.$('#' + CSS.escape(g.getAttribute('aria-describedby')!)).textContent).toBe('Not likelyVery likely')
    await space(radios[0])
    await space(radios[10])
    expect(r.calls).toEqual([0, 10])
  })

  it('restores the answer, no ends without labels', async () => {
    const r = await render(Nps, Q('nps'), 7)
    expect(r.$$('input').findIndex((i) => i.checked)).toBe(7)
    expect(r.$('.scale-ends')).toBeNull()
  })
})

describe('likert', () => {
  it('reports option.value, else the position from 1', async () => {
    const scale_answers = [{ id: 'sd', text: 'Disagree' }, { id: 'n', text: 'Neutral', value: 10 }, { id: 'sa', text: 'Agree' }]
    const r = await render(Likert, Q('likert', { scale_answers }))
    const radios = r.$$('input[type=radio]')
    expect(radios.map((i) => i.closest('label')!.textContent)).toEqual(['Disagree', 'Neutral', 'Agree'])
    expect(oneName(radios)).toBe(true)
    for (const i of [0, 1, 2]) await space(radios[i])
    expect(r.calls).toEqual([1, 10, 3])
  })

  it('restores the answer by value', async () => {
    const r = await render(Likert, Q('likert', { scale_answers: [{ id: 'a', text: 'A', value: 5 }, { id: 'b', text: 'B', value: 9 }] }), 9)
    expect(r.$$('input').map((i) => i.checked)).toEqual([false, true])
  })
})

describe('star', () => {
  it('is 1..5 stars named via survey.stars, filling up to the choice', async () => {
    const r = await render(Star, Q('star'), null, T({ 'survey.stars': '{Count} Sterne' }))
    const radios = r.$$('input[type=radio]')
    expect(radios.map((i) => i.getAttribute('aria-label'))).toEqual(['1 Sterne', '2 Sterne', '3 Sterne', '4 Sterne', '5 Sterne'])
    expect(oneName(radios)).toBe(true)
    await space(radios[3])
    expect(r.calls).toEqual([4])
    expect(r.$$('label').map((l) => l.classList.contains('fill'))).toEqual([true, true, true, true, false])
  })

  it("prefers the box's pluralised survey.stars.N labels", async () => {
    const r = await render(Star, Q('star', { max_num: 6 }), null, T({ 'survey.stars.1': '1 звезда', 'survey.stars.5': '5 звёзд', 'survey.stars': '{Count} зв.' }))
    expect(r.$$('input').map((i) => i.getAttribute('aria-label'))).toEqual(['1 звезда', '2 зв.', '3 зв.', '4 зв.', '5 звёзд', '6 зв.'])
  })

  it('uses max_num, English names without translation, restores the answer', async () => {
    const r = await render(Star, Q('star', { max_num: 3 }), 2)
    const radios = r.$$('input')
    expect(radios.map((i) => i.getAttribute('aria-label'))).toEqual(['1 star', '2 stars', '3 stars'])
    expect(radios.map((i) => i.checked)).toEqual([false, true, false])
    await click(radios[2])
    expect(r.calls).toEqual([3])
  })
})
