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

const SHELL_KEYS = (Object.keys(EMPTY_VIEW) as (keyof ViewState)[]).filter(
  (k) => k !== 'selection' && k !== 'selectionFor',
)

function shellOf(s: ViewState): ShellView {
  const { selection, selectionFor, ...shell } = s
  void selection
  void selectionFor
  return shell
}

/** The selection with the log it was made in (ViewState.selectionFor). */
interface Selected {
  readonly selection: Selection | null
  readonly loadId: number
}

/** What useSelection needs of the open log (src/app/trace/useInspector.ts Loaded). */
export interface SelectionOwner {
  readonly loadId: number
  readonly model: TraceModel
  /** The selection the log opened with. */
  readonly initial: Selection | null
}

export class ViewStore {
  private state: ViewState
  /** The view without the selection: a new object only when one of its own fields changes. */
  private shell: ShellView
  /** The selection and its log: a new object only when either changes. */
  private selected: Selected
  private readonly listeners = new Set<() => void>()

  constructor(init: ViewState) {
    this.state = init
    this.shell = shellOf(init)
    this.selected = { selection: init.selection, loadId: init.selectionFor }
  }

  readonly dispatch = (a: ViewAction): void => {
    const prev = this.state
    const next = viewReducer(prev, a)
    if (next === prev) return
    this.state = next
    if (SHELL_KEYS.some((k) => next[k] !== prev[k])) this.shell = shellOf(next)
    if (next.selection !== prev.selection || next.selectionFor !== prev.selectionFor)
      this.selected = { selection: next.selection, loadId: next.selectionFor }
    for (const l of [...this.listeners]) l()
  }

  readonly view = (): ViewState => this.state
  readonly shellView = (): ShellView => this.shell
  readonly selection = (): Selection | null => this.state.selection
  readonly selectedIn = (): Selected => this.selected

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
 * The selected row of the open log; re-renders on each step. A newly opened log is shown
 * with the selection it opened with (`initial`) until the store takes it (the shell
 * dispatches 'shown' in the commit that shows the log): setting the store's selection
 * while the log opened in a transition re-rendered the log shown before with the new
 * log's selection, a few frames before the new log replaced it. A selection past the
 * model's end is no selection.
 */
export function useSelection(loaded: SelectionOwner | null): Selection | null {
  const store = useViewStore()
  const { selection, loadId } = useSyncExternalStore(store.subscribe, store.selectedIn)
  return fitSelection(loaded && loadId !== loaded.loadId ? loaded.initial : selection, loaded?.model ?? null)
}

/** `selection` if it names an update of `model`, else null. */
export function fitSelection(selection: Selection | null, model: TraceModel | null): Selection | null {
  return selection && model && selection.k < model.steps.length ? selection : null
}
