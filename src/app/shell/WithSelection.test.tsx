// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { TraceModel } from '../trace/trace-model'
import { EMPTY_VIEW } from './view-state'
import { type SelectionOwner, ViewStore, ViewStoreProvider } from './view-store'
import { WithSelection } from './WithSelection'

afterEach(cleanup)

const model = (n: number) => ({ steps: Array.from({ length: n }, () => ({})) }) as unknown as TraceModel

function Shown({ store, loaded }: { store: ViewStore; loaded: SelectionOwner }) {
  return (
    <ViewStoreProvider value={store}>
      <WithSelection loaded={loaded}>
        {(s) => <p data-testid="sel">{s ? `log ${loaded.loadId} step ${s.k}.${s.i}` : `log ${loaded.loadId} none`}</p>}
      </WithSelection>
    </ViewStoreProvider>
  )
}

describe('the selection of the open log', () => {
  it("a newly opened log shows its own first selection until the store takes it; the log shown before never shows the new one's", () => {
    const store = new ViewStore(EMPTY_VIEW)
    const first: SelectionOwner = { loadId: 1, model: model(13), initial: { k: 0, i: 0 } }
    const { rerender } = render(<Shown store={store} loaded={first} />)
    expect(screen.getByTestId('sel').textContent).toBe('log 1 step 0.0')
    act(() => store.dispatch({ type: 'shown', loadId: 1, selection: first.initial }))
    act(() => store.dispatch({ type: 'select', selection: { k: 5, i: 0 } }))
    expect(screen.getByTestId('sel').textContent).toBe('log 1 step 5.0')

    // The next log is on its way (its first selection the last of its 256 steps): the
    // store is not told yet, so the log on screen keeps its step.
    const next: SelectionOwner = { loadId: 2, model: model(256), initial: { k: 255, i: 0 } }
    expect(screen.getByTestId('sel').textContent).toBe('log 1 step 5.0')
    // Shown: its own first selection at once, not the step of the log before it.
    rerender(<Shown store={store} loaded={next} />)
    expect(screen.getByTestId('sel').textContent).toBe('log 2 step 255.0')
    act(() => store.dispatch({ type: 'shown', loadId: 2, selection: next.initial }))
    expect(screen.getByTestId('sel').textContent).toBe('log 2 step 255.0')
    expect(store.view().selectionFor).toBe(2)
    // A step in it is the store's.
    act(() => store.dispatch({ type: 'select', selection: { k: 7, i: 0 } }))
    expect(screen.getByTestId('sel').textContent).toBe('log 2 step 7.0')
    expect(store.view().selectionFor).toBe(2)
  })

  it('taking the selection a log opened with is no change of the shell view', () => {
    const store = new ViewStore(EMPTY_VIEW)
    const shell = store.shellView()
    store.dispatch({ type: 'shown', loadId: 3, selection: { k: 1, i: 0 } })
    expect(store.shellView()).toBe(shell)
    expect('selectionFor' in store.shellView()).toBe(false)
    expect(store.selectedIn()).toEqual({ selection: { k: 1, i: 0 }, loadId: 3 })
  })
})
