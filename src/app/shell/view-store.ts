/**
 * The live view state (./view-state.ts) outside React's state: one store, read with
 * useSyncExternalStore. The shell subscribes to the view without the selection
 * (useShellView), the views of the selected step to the selection (useSelection), so a
 * step (a key press) re-renders the timeline and the step's views, not the header, the
 * drawers or the page address's owner.
 */
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { Selection } from '../trace/trace-model'
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

/** The selected row; re-renders on each step. */
export function useSelection(): Selection | null {
  const store = useViewStore()
  return useSyncExternalStore(store.subscribe, store.selection)
}
