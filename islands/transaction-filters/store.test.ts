import { describe, expect, it } from 'vitest'
import {
  assign,
  calendarDay,
  clearDates,
  createStore,
  MOST_RECENT,
  nextPage,
  pageQuery,
  prevPage,
  reset,
  setAfter,
  setBefore,
  setFilter,
  type Init,
  type TxStore,
} from './store'

const FILTERS = [MOST_RECENT, 'competitions', 'redemptions']
const store = (init: Init = {}) => createStore(init, FILTERS)

/** The state as plain values. */
const snap = (s: TxStore) => ({
  currentFilter: s.currentFilter.value,
  after: s.after.value,
  before: s.before.value,
  afterFilter: s.afterFilter.value,
  beforeFilter: s.beforeFilter.value,
  page: s.page.value,
  pageSize: s.pageSize.value,
})

const DATED = { filter: 'competitions', after: '2026-01-05', before: '2026-02-28', page: 3 }

describe('initial state', () => {
  it('starts at MOST_RECENT, page 1, 10 per page, no dates, not loading', () => {
    const s = store()
    expect(snap(s)).toEqual({
      currentFilter: MOST_RECENT,
      after: '',
      before: '',
      afterFilter: '',
      beforeFilter: '',
      page: 1,
      pageSize: 10,
    })
    expect([s.loading.value, s.error.value]).toEqual([false, ''])
  })

  it('takes filter, dates, page and page size from the props', () => {
    expect(snap(store({ ...DATED, pageSize: 25 }))).toEqual({
      currentFilter: 'competitions',
      after: '2026-01-05',
      before: '2026-02-28',
      afterFilter: '2026-01-05',
      beforeFilter: '2026-03-01',
      page: 3,
      pageSize: 25,
    })
  })

  it.each<[string, Init, Partial<ReturnType<typeof snap>>]>([
    ['an unknown filter as MOST_RECENT', { filter: 'bogus' }, { currentFilter: MOST_RECENT }],
    ['a non-string filter as MOST_RECENT', { filter: 7 }, { currentFilter: MOST_RECENT }],
    ['page 0 as page 1', { page: 0 }, { page: 1 }],
    ['a negative page as page 1', { page: -4 }, { page: 1 }],
    ['a non-numeric page as page 1', { page: 'two' }, { page: 1 }],
    ['a page given as a string', { page: '4' }, { page: 4 }],
    ['a bad page size as 10', { pageSize: 0 }, { pageSize: 10 }],
    ['invalid dates as no dates', { after: 'yesterday', before: '2026-02-30' }, { after: '', before: '', beforeFilter: '' }],
  ])('treats %s', (_, init, want) => {
    expect(snap(store(init))).toMatchObject(want)
  })

  it('allows only MOST_RECENT when the server offers no filters', () => {
    expect(createStore({ filter: 'competitions' }).currentFilter.value).toBe(MOST_RECENT)
  })
})

describe('filter', () => {
  it('changing the filter clears the dates and goes back to page 1', () => {
    const s = store(DATED)
    setFilter(s, 'redemptions')
    expect(snap(s)).toMatchObject({ currentFilter: 'redemptions', after: '', before: '', afterFilter: '', beforeFilter: '', page: 1 })
  })

  it('choosing the current filter again keeps dates and page', () => {
    const s = store(DATED)
    const was = snap(s)
    setFilter(s, 'competitions')
    expect(snap(s)).toEqual(was)
  })

  it('choosing an unknown filter means MOST_RECENT', () => {
    const s = store(DATED)
    setFilter(s, 'bogus')
    expect(snap(s)).toMatchObject({ currentFilter: MOST_RECENT, after: '', page: 1 })
  })
})

describe('dates', () => {
  it.each([
    ['within a month', '2026-03-10', '2026-03-11'],
    ['at the end of February', '2026-02-28', '2026-03-01'],
    ['at the end of February in a leap year', '2028-02-28', '2028-02-29'],
    ['on a leap day', '2028-02-29', '2028-03-01'],
    ['at the end of a 30-day month', '2026-04-30', '2026-05-01'],
    ['at the end of the year', '2026-12-31', '2027-01-01'],
  ])('a before date %s filters before the day after it', (_, before, beforeFilter) => {
    const s = store({ page: 4 })
    setBefore(s, before)
    expect(snap(s)).toMatchObject({ before, beforeFilter, page: 1 })
  })

  it.each([
    ['as it is', '2026-03-10', '2026-03-10'],
    ['zero-padded', '2026-3-1', '2026-03-01'],
  ])('an after date is stored %s as YYYY-MM-DD and goes back to page 1', (_, after, afterFilter) => {
    const s = store({ page: 4 })
    setAfter(s, after)
    expect(snap(s)).toMatchObject({ after: afterFilter, afterFilter, page: 1 })
  })

  it.each(['2026-02-30', '2027-02-29', '2026-13-01', '2026-00-10', '2026-01-00', '26-01-01', '01/02/2026', 'soon', '2026-01-01T00:00'])(
    'ignores the invalid date %s',
    (v) => {
      const s = store(DATED)
      const was = snap(s)
      setAfter(s, v)
      setBefore(s, v)
      expect(snap(s)).toEqual(was)
    },
  )

  it('an empty value clears that date only and goes back to page 1', () => {
    const s = store(DATED)
    setBefore(s, '')
    expect(snap(s)).toMatchObject({ after: '2026-01-05', afterFilter: '2026-01-05', before: '', beforeFilter: '', page: 1 })
    setAfter(s, '')
    expect(snap(s)).toMatchObject({ after: '', afterFilter: '', currentFilter: 'competitions' })
  })

  it('clearing the dates empties all four date fields, keeps the filter and goes back to page 1', () => {
    const s = store(DATED)
    clearDates(s)
    expect(snap(s)).toMatchObject({ currentFilter: 'competitions', after: '', before: '', afterFilter: '', beforeFilter: '', page: 1 })
  })

  it('calendarDay moves by days with UTC calendar arithmetic', () => {
    expect(calendarDay('2026-03-29', 1)).toBe('2026-03-30') // a DST change in Europe
    expect(calendarDay('2026-01-01', -1)).toBe('2025-12-31')
    expect(calendarDay('')).toBe('')
    expect(calendarDay(undefined)).toBe('')
    expect(calendarDay(20260101)).toBeNull()
  })
})

describe('pages', () => {
  it('next page adds one', () => {
    const s = store({ page: 2 })
    nextPage(s)
    expect(s.page.value).toBe(3)
  })

  it('previous page subtracts one but never goes below 1', () => {
    const s = store({ page: 2 })
    prevPage(s)
    expect(s.page.value).toBe(1)
    prevPage(s)
    expect(s.page.value).toBe(1)
  })

  it('paging keeps filter and dates', () => {
    const s = store(DATED)
    nextPage(s)
    expect(snap(s)).toMatchObject({ currentFilter: 'competitions', after: '2026-01-05', before: '2026-02-28', page: 4 })
  })
})

describe('reset', () => {
  it('returns to MOST_RECENT, no dates, page 1 and keeps the page size', () => {
    const s = store({ ...DATED, pageSize: 20 })
    reset(s)
    expect(snap(s)).toEqual({
      currentFilter: MOST_RECENT,
      after: '',
      before: '',
      afterFilter: '',
      beforeFilter: '',
      page: 1,
      pageSize: 20,
    })
  })
})

describe('assign (the URL query on back/forward)', () => {
  it('takes every value from the query and defaults what is missing', () => {
    const s = store(DATED)
    assign(s, { filter: 'redemptions', page: '2' })
    expect(snap(s)).toMatchObject({ currentFilter: 'redemptions', after: '', before: '', page: 2 })
    assign(s, { before: '2026-12-31' })
    expect(snap(s)).toMatchObject({ currentFilter: MOST_RECENT, before: '2026-12-31', beforeFilter: '2027-01-01', page: 1 })
  })
})

describe('pageQuery', () => {
  it.each<[string, Init, string]>([
    ['is empty for the defaults', {}, ''],
    ['has the filter unless MOST_RECENT', { filter: 'competitions' }, 'filter=competitions'],
    ['has page unless 1', { page: 2 }, 'page=2'],
    ['has the after date', { after: '2026-01-05' }, 'after=2026-01-05'],
    ['has the member’s own before date, not the day after', { before: '2026-02-28' }, 'before=2026-02-28'],
    ['keeps the order filter, after, before, page', DATED, 'filter=competitions&after=2026-01-05&before=2026-02-28&page=3'],
  ])('%s', (_, init, want) => {
    expect(pageQuery(store(init)).toString()).toBe(want)
  })

  it('leaves out the page size', () => {
    expect(pageQuery(store({ pageSize: 50 })).has('pageSize')).toBe(false)
  })
})
