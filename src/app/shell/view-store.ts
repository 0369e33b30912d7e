/**
 * The live view state (./view-state.ts) outside React's state: one store, read with
 * useSyncExternalStore. The shell subscribes to the view without the selection
 * (useShellView), the views of the selected step to the selection (useSelection), so a
 * step (a key press) re-renders the timeline and the step's views, not the header, the
 * drawers or the page address's owner.
 */
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { Selection, TraceModel } from '../trace/trace-model'
import { EMPTY_VIEW, type ShellView, type ViewAction, type ViewState, viewReducer } from './view-state'

const SHELL_KEYS = (Object.keys(EMPTY_VIEW) as (keyof ViewState)[]).filter((k) => k !== 'selection')

function shellOf(s: ViewState): ShellView {
  const { selection, ...shell } = s
  void selection
  return shell
}

export class ViewStore {
  private state: ViewState
  /** The view without the selection: a new object only when one of its own fields changes. */
  private shell: ShellView
  private readonly listeners = new Set<() => void>()

  constructor(init: ViewState) {
    this.state = init
    this.shell = shellOf(init)
  }

  readonly dispatch = (a: ViewAction): void => {
    const prev = this.state
    const next = viewReducer(prev, a)
    if (next === prev) return
    this.state = next
    if (SHELL_KEYS.some((k) => next[k] !== prev[k])) this.shell = shellOf(next)
    for (const l of [...this.listeners]) l()
  }

  readonly view = (): ViewState => this.state
  readonly shellView = (): ShellView => this.shell
  readonly selection = (): Selection | null => this.state.selection

  readonly subscribe = (onChange: () => void): (() => void) => {
    this.listeners.add(onChange)
    return () => {
      this.listeners.delete(onChange)
    }
  }
}

const ViewStoreContext = createContext<ViewStore | null>(null)

/** Gives the page's view store to the views below (App). */
export const ViewStoreProvider = ViewStoreContext.Provider

/** The page's view store (inside ViewStoreProvider). */
function useViewStore(): ViewStore {
  const store = useContext(ViewStoreContext)
  if (!store) throw new Error('useViewStore: no ViewStoreProvider above this component')
  return store
}

/** The view without the selection; re-renders only when one of its fields changes. */
export function useShellView(store: ViewStore): ShellView {
  return useSyncExternalStore(store.subscribe, store.shellView)
}

/**
 * The selected row of `model`; re-renders on each step. The store and the open log change
 * in separate renders: when a log with fewer updates replaces one (an edited copy, a newly
 * opened log), one render may see the new model with the old selection before the
 * inspector selects in the new log. A selection past the model's end is no selection.
 */
export function useSelection(model: TraceModel | null): Selection | null {
  const store = useViewStore()
  return fitSelection(useSyncExternalStore(store.subscribe, store.selection), model)
}

/** `selection` if it names an update of `model`, else null. */
export function fitSelection(selection: Selection | null, model: TraceModel | null): Selection | null {
  return selection && model && selection.k < model.steps.length ? selection : null
}
