import { describe, expect, it } from 'vitest'
import { click, key, oneName, Q, render, space, T, type } from './harness'
import ClickBar from './click_bar'
import DateInput from './date'
import ImageSelect from './image_select'
import LikeDislike from './like_dislike'
import MultiImage from './multi_image'
import Slider from './slider'
import Smiley from './smiley'
import Stepper from './stepper'
import Video from './video'

describe('date', () => {
  it('reports YYYY-MM-DD, null when cleared; restores the answer', async () => {
    const r = await render(DateInput, Q('date'), '2024-02-29')
    const i = r.$('input')
    expect([i.type, i.value, i.getAttribute('aria-labelledby')]).toEqual(['date', '2024-02-29', 'qt'])
    await type(i, '2025-12-01')
    await type(i, '')
    expect(r.calls).toEqual(['2025-12-01', null])
  })
})

describe('click_bar', () => {
  it.each<[string, object, string[]]>([
    ['1..10 by default', {}, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']],
    ['min..max by step', { min_num: 0, max_num: 1, step: 0.25 }, ['0', '0.25', '0.5', '0.75', '1']],
    ['min..max by step (not reaching max)', { min_num: 5, max_num: 20, step: 10 }, ['5', '15']],
  ])('has buttons %s', async (_, extra, want) => {
    const r = await render(ClickBar, Q('click_bar', extra))
    expect(r.$$('label').map((l) => l.textContent)).toEqual(want)
  })

  it('is a native radiogroup: Space chooses, reports the number, restores', async () => {
    const r = await render(ClickBar, Q('click_bar', { min_num: 0, max_num: 1, step: 0.25 }), 0.5)
    const radios = r.$$('input[type=radio]')
    expect(oneName(radios)).toBe(true)
    expect(r.$('[role=radiogroup]').getAttribute('aria-labelledby')).toBe('qt')
    expect(radios.findIndex((i) => i.checked)).toBe(2)
    await space(radios[3])
    expect(r.calls).toEqual([0.75])
    expect(radios[3].closest('label')!.className).toContain('on')
  })
})

describe('smiley', () => {
  const scale_answers = ['Awful', 'Bad', 'OK', 'Good', 'Great'].map((text, i) => ({ id: 's' + i, text }))

  it('shows faces by position, named by their text; reports value ?? position', async () => {
    const r = await render(Smiley, Q('smiley', { scale_answers: [...scale_answers.slice(0, 4), { id: 'x', text: 'Great', value: 50 }] }))
    expect(r.$$('b').map((b) => b.textContent)).toEqual(['😞', '🙁', '😐', '🙂', '😀'])
    expect(r.$$('b').every((b) => b.getAttribute('aria-hidden') === 'true')).toBe(true)
    const radios = r.$$('input[type=radio]')
    expect(radios.map((i) => i.getAttribute('aria-label'))).toEqual(['Awful', 'Bad', 'OK', 'Good', 'Great'])
    expect(oneName(radios)).toBe(true)
    await space(radios[1])
    await space(radios[4])
    expect(r.calls).toEqual([2, 50])
  })

  it('spreads the faces over a 3-point scale and restores the answer', async () => {
    const r = await render(Smiley, Q('smiley', { scale_answers: scale_answers.slice(0, 3) }), 3)
    expect(r.$$('b').map((b) => b.textContent)).toEqual(['😞', '😐', '😀'])
    expect(r.$$('input').map((i) => i.checked)).toEqual([false, false, true])
  })
})

describe('like_dislike', () => {
  it('has two toggle buttons named by the answers; reports the id', async () => {
    const r = await render(LikeDislike, Q('like_dislike', { answers: [{ id: 'y', text: 'Like' }, { id: 'n', text: 'Dislike' }] }))
    expect(r.$('[role=group]').getAttribute('aria-labelledby')).toBe('qt')
    const [like, dislike] = r.$$<HTMLButtonElement>('button')
    expect([like.textContent, dislike.textContent]).toEqual(['👍Like', '👎Dislike'])
    expect([like.type, like.getAttribute('aria-pressed'), dislike.getAttribute('aria-pressed')]).toEqual(['button', 'false', 'false'])
    await click(dislike)
    await click(like)
    expect(r.calls).toEqual(['n', 'y'])
    expect([like.getAttribute('aria-pressed'), dislike.getAttribute('aria-pressed')]).toEqual(['true', 'false'])
  })

  it('restores the answer; Like/Dislike name answers without text', async () => {
    const r = await render(LikeDislike, Q('like_dislike', { answers: [{ id: 'y' }, { id: 'n' }] }), 'n', T({ 'survey.like': 'Mag ich' }))
    expect(r.$$('button').map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true'])
    expect(r.$$('button span').map((b) => b.textContent)).toEqual(['Mag ich', 'Dislike'])
  })
})

describe('image_select and multi_image', () => {
  const answers = [
    { id: 'a', text: 'Apple', image: { url: '/a.png' } },
    { id: 'b', image: { url: '/b.png', alt: 'A banana' } },
    { id: 'n', text: 'Neither', image: { url: '/n.png' }, exclusive: true },
  ]

  it('image_select: radio cards with alt text; reports the id and restores', async () => {
    const r = await render(ImageSelect, Q('image_select', { answers }), 'b')
    expect(r.$$('img').map((i) => [i.getAttribute('src'), i.getAttribute('alt')])).toEqual([
      ['/a.png', ''],
      ['/b.png', 'A banana'],
      ['/n.png', ''],
    ])
    const radios = r.$$('input[type=radio]')
    expect(oneName(radios)).toBe(true)
    expect(radios.map((i) => i.checked)).toEqual([false, true, false])
    await space(radios[0])
    expect(r.calls).toEqual(['a'])
  })

  it('multi_image: checkbox cards with exclusive and max_answers', async () => {
    const r = await render(MultiImage, Q('multi_image', { answers, max_answers: 1 }))
    const boxes = r.$$('input[type=checkbox]')
    await space(boxes[0])
    expect(boxes.map((b) => b.disabled)).toEqual([false, true, false])
    await space(boxes[2])
    await space(boxes[1])
    await space(boxes[1])
    expect(r.calls).toEqual([['a'], ['n'], ['b'], null])
  })
})

describe('video', () => {
  it('embeds the no-cookie player titled by the question; the checkbox reports {watched: true}', async () => {
    const r = await render(Video, Q('video', { videoid: 'dQw4w9WgXcQ', text: 'Watch this' }), null, T({ 'survey.watched': 'Gesehen' }))
    const f = r.$<HTMLIFrameElement>('iframe')
    expect([f.getAttribute('src'), f.title]).toEqual(['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'Watch this'])
    const box = r.$('input[type=checkbox]')
    expect(box.closest('label')!.textContent).toBe('Gesehen')
    await space(box)
    await space(box)
    expect(r.calls).toEqual([{ watched: true }, null])
  })

  it('restores the answer, English label', async () => {
    const r = await render(Video, Q('video', { videoid: 'x' }), { watched: true })
    expect(r.$('input').checked).toBe(true)
    expect(r.$('label').textContent).toBe('I have watched the video')
  })
})

describe('slider', () => {
  it('starts in the middle, reports nothing until moved, then the number', async () => {
    const r = await render(Slider, Q('slider', { min_num: 0, max_num: 10, step: 2, scale_labels: { min: 'Cold', max: 'Hot' } }))
    const i = r.$('input')
    expect([i.type, i.min, i.max, i.step, i.value, i.getAttribute('aria-labelledby')]).toEqual(['range', '0', '10', '2', '6', 'qt'])
    expect(r.$('output').textContent).toBe('6')
    expect(r.$('.scale-ends').textContent).toBe('0 ColdHot 10')
    expect(r.calls).toEqual([])
    await type(i, '8')
    expect(r.calls).toEqual([8])
    expect(r.$('output').textContent).toBe('8')
  })

  it('a key press (other than Tab) reports the value even when it stays the same', async () => {
    const r = await render(Slider, Q('slider'))
    await key(r.$('input'), 'Tab')
    expect(r.calls).toEqual([])
    await key(r.$('input'), 'Home')
    expect(r.calls).toEqual([50])
    await key(r.$('input'), 'End')
    expect(r.calls).toEqual([50])
  })

  it('restores the answer', async () => {
    const r = await render(Slider, Q('slider', { min_num: 1, max_num: 7 }), 2)
    expect(r.$('input').value).toBe('2')
    await type(r.$('input'), '3')
    expect(r.calls).toEqual([3])
  })
})

describe('stepper', () => {
  it.each<[string, object, (string | 'type')[], (number | null)[]]>([
    ['+ from empty starts at min_num, then steps (disabled at max_num)', { min_num: 2, max_num: 5 }, ['+', '+', '+', '+', '+'], [2, 3, 4, 5]],
    ['− is disabled at min_num', { min_num: 0, step: 0.5 }, ['+', '+', '−', '−', '−'], [0, 0.5, 0]],
    ['typing within bounds', { min_num: 0, max_num: 3 }, ['type:2', 'type:9', 'type:'], [2, null, null]],
  ])('%s', async (_, extra, acts, want) => {
    const r = await render(Stepper, Q('stepper', extra))
    const [minus, plus] = r.$$<HTMLButtonElement>('button')
    for (const a of acts) {
      if (a.startsWith('type:')) await type(r.$('input'), a.slice(5))
      else await click(a === '+' ? plus : minus)
    }
    expect(r.calls).toEqual(want)
  })

  it('labels the buttons, disables them at the bounds, restores the answer', async () => {
    const r = await render(Stepper, Q('stepper', { min_num: 1, max_num: 3 }), 3, T({ 'survey.increase': 'Mehr' }))
    const [minus, plus] = r.$$<HTMLButtonElement>('button')
    expect([minus.getAttribute('aria-label'), plus.getAttribute('aria-label')]).toEqual(['Decrease', 'Mehr'])
    expect([r.$('input').value, minus.disabled, plus.disabled]).toEqual(['3', false, true])
    await click(minus)
    await click(minus)
    expect([r.$('input').value, minus.disabled, plus.disabled]).toEqual(['1', true, false])
    expect(r.calls).toEqual([2, 1])
    expect(r.$('[role=group]').getAttribute('aria-labelledby')).toBe('qt')
  })
})
