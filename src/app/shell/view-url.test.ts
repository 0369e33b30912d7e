import { describe, expect, it } from 'vitest'
import { formatFragment } from '../features/log-input/permalink'
import type { TraceModel } from '../trace/trace-model'
import { EMPTY_VIEW, initialView, type ViewState } from './view-state'
import { readView, withParams, writeView } from './view-url'

const model = { steps: [{ sequenceId: 1n }, { sequenceId: 2n }, { sequenceId: 7n }] } as unknown as TraceModel

describe('writeView and readView', () => {
  it('write the view into the address (step, tab, presenter mode, inbox task) and read it back', () => {
    const view: ViewState = {
      ...EMPTY_VIEW,
      selection: { k: 2, i: 1 } as ViewState['selection'],
      tab: 'signatures',
      presenting: true,
      drawers: ['signers', 'flows'],
      flow: 'recovery',
    }
    const a = writeView(view, model)
    expect(a.fragment).toEqual({ step: { sequenceId: 7n, action: 1 }, tab: 'signatures', present: true })
    const search = withParams('?node=http%3A%2F%2F127.0.0.1%3A8787&inbox=ab', a.params)
    expect(search).toBe('?node=http%3A%2F%2F127.0.0.1%3A8787&inbox=ab&flow=recovery')
    const hash = formatFragment({ example: 'valid-full-life', ...a.fragment })
    // The step is resolved by the opener once the log is open; the drawers around the view are not carried.
    expect(initialView(readView(search, hash))).toEqual({ ...view, selection: null, drawers: ['flows'] })
  })

  it('leave the source’s query alone when the view adds nothing', () => {
    expect(writeView(EMPTY_VIEW, null)).toEqual({ fragment: {}, params: [] })
    expect(withParams('?url=https%3A%2F%2Fx.example%2Fa%20b', [])).toBe('?url=https%3A%2F%2Fx.example%2Fa%20b')
    expect(withParams('', [['flow', 'health']])).toBe('?flow=health')
  })
})
