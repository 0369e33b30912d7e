import { describe, expect, it, vi } from 'vitest'
import { EMPTY_VIEW } from './view-state'
import type { TraceModel } from '../trace/trace-model'
import { fitSelection, ViewStore } from './view-store'

describe('ViewStore (the view outside React state)', () => {
  it('a step changes the selection and leaves the shell view (what the header and drawers render) the same object', () => {
    const store = new ViewStore(EMPTY_VIEW)
    const shell = store.shellView()
    const heard = vi.fn()
    store.subscribe(heard)
    store.dispatch({ type: 'select', selection: { k: 3, i: 0 } })
    store.dispatch({ type: 'select', selection: { k: 4, i: 1 } })
    expect(store.selection()).toEqual({ k: 4, i: 1 })
    expect(store.view().selection).toEqual({ k: 4, i: 1 })
    expect(store.shellView()).toBe(shell)
    expect(heard).toHaveBeenCalledTimes(2)
    expect('selection' in store.shellView()).toBe(false)
  })

  it('any other change gives a new shell view and keeps the selection', () => {
    const store = new ViewStore(EMPTY_VIEW)
    store.dispatch({ type: 'select', selection: { k: 1, i: 0 } })
    const shell = store.shellView()
    store.dispatch({ type: 'tab', tab: 'diff' })
    expect(store.shellView()).not.toBe(shell)
    expect(store.shellView().tab).toBe('diff')
    store.dispatch({ type: 'open', drawer: 'signers' })
    expect(store.shellView().drawers).toEqual(['signers'])
    expect(store.selection()).toEqual({ k: 1, i: 0 })
  })

  it('an action that changes nothing notifies no one; an unsubscribed listener hears nothing', () => {
    const store = new ViewStore(EMPTY_VIEW)
    const heard = vi.fn()
    const off = store.subscribe(heard)
    store.dispatch({ type: 'close', drawer: 'audit' })
    store.dispatch({ type: 'select', selection: null })
    expect(heard).not.toHaveBeenCalled()
    off()
    store.dispatch({ type: 'present', on: true })
    expect(heard).not.toHaveBeenCalled()
    expect(store.shellView().presenting).toBe(true)
  })

  it('a selection past the end of the model rendered is no selection (a shorter log replacing a longer one)', () => {
    const model = { steps: [{}, {}, {}] } as unknown as TraceModel
    expect(fitSelection({ k: 2, i: 0 }, model)).toEqual({ k: 2, i: 0 })
    expect(fitSelection({ k: 3, i: 0 }, model)).toBeNull()
    expect(fitSelection({ k: 0, i: 0 }, null)).toBeNull()
    expect(fitSelection(null, model)).toBeNull()
  })
})
