import { describe, expect, it, vi } from 'vitest'
import { click, oneName, opts, Q, render, space, T, type } from './harness'
import Frequency from './frequency'
import Grid from './grid'
import MostLeast from './most_least'
import Ranking from './ranking'
import Spend from './spend'

type R = Awaited<ReturnType<typeof render>>

describe('ranking', () => {
  const q = Q('ranking', { answers: opts('a', 'b', 'c') })
  const items = (r: R) => r.$$('li > span').map((s) => s.textContent)
  const btn = (r: R, item: string, label: string) => r.$<HTMLButtonElement>(`li[data-id=${item}] button[aria-label="${label}"]`)

  it.each<[string, [string, 'Move up' | 'Move down'][], string[], string[][]]>([
    ['down', [['a', 'Move down']], ['B', 'A', 'C'], [['b', 'a', 'c']]],
    ['up twice to the top', [['c', 'Move up'], ['c', 'Move up']], ['C', 'A', 'B'], [['a', 'c', 'b'], ['c', 'a', 'b']]],
    ['down then up again', [['b', 'Move down'], ['b', 'Move up']], ['A', 'B', 'C'], [['a', 'c', 'b'], ['a', 'b', 'c']]],
  ])('moves %s and reports the full order', async (_, moves, want, calls) => {
    const r = await render(Ranking, q)
    for (const [id, label] of moves) await click(btn(r, id, label))
    expect(items(r)).toEqual(want)
    expect(r.calls).toEqual(calls)
  })

  it('reports null-free only after a change or "Keep this order"; buttons labelled, ends disabled', async () => {
    const r = await render(Ranking, q, null, T({ 'survey.keep_order': 'So lassen', 'survey.move_up': 'Hoch' }))
    expect(r.calls).toEqual([])
    expect(btn(r, 'a', 'Hoch').disabled).toBe(true)
    expect(btn(r, 'c', 'Move down').disabled).toBe(true)
    expect(btn(r, 'b', 'Hoch').getAttribute('aria-describedby')).toBe(r.$('li[data-id=b] span').id)
    const keep = r.$$<HTMLButtonElement>('button').find((b) => b.textContent === 'So lassen')!
    expect(keep.getAttribute('aria-pressed')).toBe('false')
    await click(keep)
    expect(r.calls).toEqual([['a', 'b', 'c']])
    expect(keep.getAttribute('aria-pressed')).toBe('true')
    expect(r.$('[role=group]').getAttribute('aria-labelledby')).toBe('qt')
  })

  it('announces the move and keeps focus on the moved item', async () => {
    const r = await render(Ranking, q, null, T({ 'survey.rank': 'Platz' }))
    btn(r, 'b', 'Move up').focus()
    await click(btn(r, 'b', 'Move up'))
    expect(r.$('[aria-live=polite]').textContent).toBe('B: Platz 1 / 3')
    // At the top Move up is disabled: focus goes to the item's Move down.
    expect(document.activeElement).toBe(btn(r, 'b', 'Move down'))
    await click(btn(r, 'b', 'Move down'))
    expect(document.activeElement).toBe(btn(r, 'b', 'Move down'))
    expect(r.$('[aria-live=polite]').textContent).toBe('B: Platz 2 / 3')
  })

  it('restores the order (new options at the end) as already confirmed', async () => {
    const r = await render(Ranking, q, ['c', 'gone', 'a'])
    expect(items(r)).toEqual(['C', 'A', 'B'])
    expect(r.$('.cv-keep').getAttribute('aria-pressed')).toBe('true')
  })
})

describe('most_least', () => {
  const q = Q('most_least', { answers: opts('a', 'b', 'c') })
  const radio = (r: R, col: 'Most' | 'Least', id: string) => r.$(`input[aria-label="${col}: ${id.toUpperCase()}"]`)

  it.each<[string, [('Most' | 'Least'), string][], unknown[]]>([
    ['null until both, then {most, least}', [['Most', 'a'], ['Least', 'c']], [null, { most: 'a', least: 'c' }]],
    ['the same option as the other clears the other', [['Most', 'a'], ['Least', 'b'], ['Least', 'a'], ['Most', 'c']], [null, { most: 'a', least: 'b' }, null, { most: 'c', least: 'a' }]],
  ])('%s', async (_, picks, want) => {
    const r = await render(MostLeast, q)
    for (const [col, id] of picks) await space(radio(r, col, id))
    expect(r.calls).toEqual(want)
  })

  it('two native radio columns, labelled "Most: X"; restores the answer', async () => {
    const r = await render(MostLeast, q, { most: 'b', least: 'c' }, T({ 'survey.most': 'Am meisten' }))
    expect(r.$('table').getAttribute('aria-labelledby')).toBe('qt')
    expect(r.$$('th[scope=col]').map((t) => t.textContent)).toEqual(['Am meisten', 'Least'])
    const most = r.$$('input').filter((i) => i.getAttribute('aria-label')!.startsWith('Am meisten'))
    expect(most).toHaveLength(3)
    expect(oneName(most)).toBe(true)
    expect(most.map((i) => i.checked)).toEqual([false, true, false])
    expect(radio(r, 'Least', 'c').checked).toBe(true)
    await space(radio(r, 'Least', 'b'))
    expect(r.calls).toEqual([null])
    expect(most[1].checked).toBe(false)
  })
})

describe('grid', () => {
  const rows = [{ id: 'r1', text: 'Price' }, { id: 'r2', text: 'Taste' }]
  const columns = [{ id: 'c1', text: 'Bad' }, { id: 'c2', text: 'Good' }]
  const cell = (r: R, row: string, col: string) => r.$(`input[aria-label="${row}: ${col}"]`)
  const phone = (matches: boolean) => vi.stubGlobal('matchMedia', () => ({ matches, addEventListener() {}, removeEventListener() {} }))

  it('a table with row and column headers, a radio group per row; null until every row', async () => {
    const r = await render(Grid, Q('grid', { rows, columns }))
    expect(r.$('table').getAttribute('aria-labelledby')).toBe('qt')
    expect(r.$$('th[scope=col]').map((t) => t.textContent)).toEqual(['Bad', 'Good'])
    expect(r.$$('th[scope=row]').map((t) => t.textContent)).toEqual(['Price', 'Taste'])
    expect(oneName([cell(r, 'Price', 'Bad'), cell(r, 'Price', 'Good')])).toBe(true)
    expect(cell(r, 'Price', 'Bad').name).not.toBe(cell(r, 'Taste', 'Bad').name)
    await space(cell(r, 'Price', 'Good'))
    await space(cell(r, 'Price', 'Bad'))
    await space(cell(r, 'Taste', 'Good'))
    expect(r.calls).toEqual([null, null, { r1: 'c1', r2: 'c2' }])
  })

  it('multiple: checkboxes, column ids per row in column order; an emptied row is incomplete', async () => {
    const r = await render(Grid, Q('grid', { rows, columns, multiple: true }))
    expect(cell(r, 'Price', 'Bad').type).toBe('checkbox')
    await click(cell(r, 'Price', 'Good'))
    await click(cell(r, 'Price', 'Bad'))
    await click(cell(r, 'Taste', 'Bad'))
    await click(cell(r, 'Taste', 'Bad'))
    expect(r.calls).toEqual([null, null, { r1: ['c1', 'c2'], r2: ['c1'] }, null])
  })

  it('on phones each row is a fieldset with the row as legend', async () => {
    phone(true)
    const r = await render(Grid, Q('grid', { rows, columns }), { r1: 'c2', r2: 'gone' })
    expect(r.$('table')).toBeNull()
    expect(r.$$('fieldset > legend').map((l) => l.textContent)).toEqual(['Price', 'Taste'])
    expect(r.$$('fieldset')[0].querySelectorAll('label')[1].textContent).toBe('Good')
    expect(r.$('[role=group]').getAttribute('aria-labelledby')).toBe('qt')
    expect(cell(r, 'Price', 'Good').checked).toBe(true)
    expect(cell(r, 'Taste', 'Good').checked).toBe(false)
    await space(cell(r, 'Taste', 'Bad'))
    expect(r.calls).toEqual([{ r1: 'c2', r2: 'c1' }])
  })

  it('restores a multiple answer on a wide screen', async () => {
    phone(false)
    const r = await render(Grid, Q('grid', { rows, columns, multiple: true }), { r1: ['c2'], r2: ['c1', 'c2'] })
    expect(r.$('table')).not.toBeNull()
    expect(r.$$('input').map((i) => i.checked)).toEqual([false, true, true, true])
  })
})

describe('spend and frequency', () => {
  it.each<[string, object, [string, string][], unknown[]]>([
    ['amount per the first period by default', {}, [['amount', '12.5']], [{ amount: 12.5, period: 'day' }]],
    ['then another period', {}, [['amount', '3'], ['period', 'year']], [{ amount: 3, period: 'day' }, { amount: 3, period: 'year' }]],
    ['within spend_min..spend_max', { spend_min: 5, spend_max: 100 }, [['amount', '4'], ['amount', '101'], ['amount', '100']], [null, null, { amount: 100, period: 'day' }]],
    ['no negative amounts without spend_min; empty is null', {}, [['amount', '-1'], ['amount', '']], [null, null]],
    ['the periods offered', { spend_period: ['week', 'month'] }, [['period', 'month'], ['amount', '7']], [null, { amount: 7, period: 'month' }]],
  ])('spend: %s', async (_, extra, acts, want) => {
    const r = await render(Spend, Q('spend', extra))
    for (const [what, v] of acts) await type(what === 'amount' ? r.$('input') : r.$<HTMLSelectElement>('select'), v)
    expect(r.calls).toEqual(want)
  })

  it('spend: labelled fields, translated periods, restores the answer', async () => {
    const r = await render(Spend, Q('spend'), { amount: 20, period: 'month' }, T({ 'survey.per_month': 'Monat', 'survey.amount': 'Betrag' }))
    expect(r.$('[role=group]').getAttribute('aria-labelledby')).toBe('qt')
    expect(r.$$('label > span').map((s) => s.textContent)).toEqual(['Betrag', 'Per'])
    expect(r.$$('option').map((o) => o.textContent)).toEqual(['day', 'week', 'Monat', 'year'])
    expect([r.$('input').value, r.$<HTMLSelectElement>('select').value]).toEqual(['20', 'month'])
    expect(r.$('input').inputMode).toBe('decimal')
  })

  it.each<[string, object, [string, string][], unknown[]]>([
    ['whole numbers only', {}, [['count', '2.5'], ['count', '3']], [null, { count: 3, period: 'day' }]],
    ['within freq_min..freq_max, per period', { freq_min: 1, freq_max: 7, freq_period: ['week'] }, [['count', '0'], ['count', '8'], ['count', '7']], [null, null, { count: 7, period: 'week' }]],
  ])('frequency: %s', async (_, extra, acts, want) => {
    const r = await render(Frequency, Q('frequency', extra))
    for (const [what, v] of acts) await type(what === 'count' ? r.$('input') : r.$<HTMLSelectElement>('select'), v)
    expect(r.calls).toEqual(want)
  })

  it('frequency: restores the answer, marks an invalid count', async () => {
    const r = await render(Frequency, Q('frequency', { freq_max: 10 }), { count: 4, period: 'week' })
    expect([r.$('input').value, r.$<HTMLSelectElement>('select').value, r.$('label > span').textContent]).toEqual(['4', 'week', 'How many times'])
    await type(r.$('input'), '11')
    expect(r.$('input').getAttribute('aria-invalid')).toBe('true')
    expect(r.$('.cv-hint').textContent).toBe('0–10')
  })
})
