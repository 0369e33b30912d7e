import { describe, expect, it } from 'vitest'
import type { Row } from '../trace/trace-model'
import { baseIn, EMPTY_VIEW, initialView, topDrawer, type ViewAction, viewReducer, type ViewState } from './view-state'

const run = (...actions: ViewAction[]): ViewState => actions.reduce(viewReducer, EMPTY_VIEW)
const row = (k: number, i = 0): Row => ({ k, i }) as Row

describe('viewReducer', () => {
  it('keeps the open drawers as a stack: reopening one moves it on top, closing removes it', () => {
    const v = run(
      { type: 'open', drawer: 'open' },
      { type: 'open', drawer: 'signers' },
      { type: 'open', drawer: 'sign' },
      { type: 'open', drawer: 'signers' },
    )
    expect(v.drawers).toEqual(['open', 'sign', 'signers'])
    expect(viewReducer(v, { type: 'close', drawer: 'sign' }).drawers).toEqual(['open', 'signers'])
    expect(viewReducer(v, { type: 'close', drawer: 'edit' })).toBe(v)
    expect(viewReducer(v, { type: 'toggle', drawer: 'open' }).drawers).toEqual(['sign', 'signers'])
    expect(viewReducer(v, { type: 'toggle', drawer: 'edit' }).drawers).toEqual(['open', 'sign', 'signers', 'edit'])
  })

  it('ties the inbox task to the Inbox tasks drawer: a task opens it, closing it drops the task', () => {
    const v = run({ type: 'open', drawer: 'signers' }, { type: 'flow', flow: 'claim' })
    expect(v).toMatchObject({ flow: 'claim', drawers: ['signers', 'flows'] })
    expect(viewReducer(v, { type: 'flow', flow: 'recovery' })).toMatchObject({
      flow: 'recovery',
      drawers: ['signers', 'flows'],
    })
    expect(viewReducer(v, { type: 'close', drawer: 'flows' })).toMatchObject({ flow: null, drawers: ['signers'] })
    expect(viewReducer(v, { type: 'flow', flow: null })).toMatchObject({ flow: null, drawers: ['signers'] })
    // The drawer's button opens it on the first task.
    expect(run({ type: 'toggle', drawer: 'flows' })).toMatchObject({ flow: 'health', drawers: ['flows'] })
  })

  it('keeps a selection, a tab and presenter mode, returning the same state when nothing changes', () => {
    const r = row(2, 1)
    const v = run({ type: 'select', selection: r }, { type: 'tab', tab: 'diff' }, { type: 'present', on: true })
    expect(v).toMatchObject({ selection: r, tab: 'diff', presenting: true })
    expect(viewReducer(v, { type: 'select', selection: r })).toBe(v)
    expect(viewReducer(v, { type: 'tab', tab: 'diff' })).toBe(v)
    expect(viewReducer(v, { type: 'present', on: true })).toBe(v)
    expect(viewReducer(v, { type: 'settings', open: true }).settings).toBe(true)
  })
})

describe('baseIn', () => {
  it('is the pinned row only in the log it was pinned in and while that log has the step', () => {
    const v = run({ type: 'pin', loadId: 3, row: row(5) })
    expect(baseIn(v, 3, 10)).toEqual(row(5))
    expect(baseIn(v, 4, 10)).toBeNull()
    expect(baseIn(v, 3, 5)).toBeNull()
    expect(baseIn(viewReducer(v, { type: 'pin', loadId: 3, row: null }), 3, 10)).toBeNull()
  })
})

describe('topDrawer', () => {
  it('is the newest open drawer that is shown', () => {
    const v = run({ type: 'open', drawer: 'signers' }, { type: 'open', drawer: 'edit' })
    expect(topDrawer(v, () => true)).toBe('edit')
    expect(topDrawer(v, (d) => d !== 'edit')).toBe('signers')
    expect(topDrawer(EMPTY_VIEW, () => true)).toBeNull()
  })
})

describe('initialView', () => {
  it('reads what the address names and ignores names it does not know', () => {
    expect(initialView({ tab: 'text', present: true, flow: 'claim' })).toEqual({
      ...EMPTY_VIEW,
      tab: 'text',
      presenting: true,
      flow: 'claim',
      drawers: ['flows'],
    })
    expect(initialView({ tab: 'bogus', flow: 'steal' })).toEqual(EMPTY_VIEW)
  })
})
