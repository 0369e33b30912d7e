/**
 * The inspector's one view state: what the user chose to look at, as data. One reducer
 * with typed actions (as Redux DevTools' inspector monitor keeps its tabs as data), and
 * one function pair (./view-url.ts) that projects it into the address and reads it back,
 * so every view is a permalink and nothing the user chose is dropped.
 *
 * Adding a view field (a new feature's mode): one field here, one action, and its
 * projection in view-url.ts.
 */
import { isFlowId, type FlowId } from '../features/compose/flows/flow-ids'
import type { Row, Selection } from '../trace/trace-model'
import { isTabId, type TabId } from './step-tabs'

/** The drawers, in the order of their header buttons (./drawers.tsx holds what each one shows). */
export const DRAWER_IDS = ['open', 'signers', 'sign', 'audit', 'traffic', 'edit', 'flows'] as const
export type DrawerId = (typeof DRAWER_IDS)[number]

export interface ViewState {
  /** The selected row of the timeline (an update, or one of its actions). */
  readonly selection: Selection | null
  /**
   * The log the selection was made in (its loadId; 0 before the first): a newly opened
   * log is shown with its own first selection until the store takes it (./view-store.ts).
   */
  readonly selectionFor: number
  /** The step range's start: the Diff tab's base, pinned in the log `loadId` (null: the previous step). */
  readonly base: { readonly loadId: number; readonly row: Row } | null
  /** The step's tab the user chose, kept from step to step (null: each step's default). */
  readonly tab: TabId | null
  /** The open drawers, the newest last: Escape closes the last one that is shown. */
  readonly drawers: readonly DrawerId[]
  /** The inbox task in the Inbox tasks drawer; set exactly while that drawer is open. */
  readonly flow: FlowId | null
  /** Presenter mode: one step per screen instead of the workspace. */
  readonly presenting: boolean
  /** The Settings dialog (modal; not in the address). */
  readonly settings: boolean
  /** Follow (features/follow): a log read from a node follows it, unless the user turned it off. */
  readonly follow: boolean
}

/**
 * The view without the selection: what the shell (header, drawers, workspace frame)
 * renders from. The selection changes on every step and is read by the views that show
 * it (./view-store.ts), so a step does not re-render the shell.
 */
export type ShellView = Omit<ViewState, 'selection' | 'selectionFor'>

export type ViewAction =
  | { readonly type: 'select'; readonly selection: Selection | null }
  /** A newly opened log is shown (`loadId`), with `selection` selected. */
  | { readonly type: 'shown'; readonly loadId: number; readonly selection: Selection | null }
  | { readonly type: 'pin'; readonly loadId: number; readonly row: Row | null }
  | { readonly type: 'tab'; readonly tab: TabId | null }
  | { readonly type: 'open'; readonly drawer: DrawerId }
  | { readonly type: 'close'; readonly drawer: DrawerId }
  | { readonly type: 'toggle'; readonly drawer: DrawerId }
  | { readonly type: 'flow'; readonly flow: FlowId | null }
  | { readonly type: 'present'; readonly on: boolean }
  | { readonly type: 'settings'; readonly open: boolean }
  | { readonly type: 'follow'; readonly on: boolean }

export const EMPTY_VIEW: ViewState = {
  selection: null,
  selectionFor: 0,
  base: null,
  tab: null,
  drawers: [],
  flow: null,
  presenting: false,
  settings: false,
  follow: true,
}

const without = (ds: readonly DrawerId[], d: DrawerId) => ds.filter((x) => x !== d)

export function viewReducer(s: ViewState, a: ViewAction): ViewState {
  switch (a.type) {
    case 'select':
      return s.selection === a.selection ? s : { ...s, selection: a.selection }
    case 'shown':
      return s.selection === a.selection && s.selectionFor === a.loadId
        ? s
        : { ...s, selection: a.selection, selectionFor: a.loadId }
    case 'pin':
      return { ...s, base: a.row ? { loadId: a.loadId, row: a.row } : null }
    case 'tab':
      return s.tab === a.tab ? s : { ...s, tab: a.tab }
    case 'open':
      // The Inbox tasks drawer opens on its first task.
      return {
        ...s,
        drawers: [...without(s.drawers, a.drawer), a.drawer],
        flow: a.drawer === 'flows' ? (s.flow ?? 'health') : s.flow,
      }
    case 'close':
      if (!s.drawers.includes(a.drawer)) return s
      return { ...s, drawers: without(s.drawers, a.drawer), flow: a.drawer === 'flows' ? null : s.flow }
    case 'toggle':
      return viewReducer(s, { type: s.drawers.includes(a.drawer) ? 'close' : 'open', drawer: a.drawer })
    case 'flow':
      if (a.flow === null) return viewReducer(s, { type: 'close', drawer: 'flows' })
      return { ...s, flow: a.flow, drawers: s.drawers.includes('flows') ? s.drawers : [...s.drawers, 'flows'] }
    case 'present':
      return s.presenting === a.on ? s : { ...s, presenting: a.on }
    case 'settings':
      return s.settings === a.open ? s : { ...s, settings: a.open }
    case 'follow':
      return s.follow === a.on ? s : { ...s, follow: a.on }
  }
}

/** The Diff tab's base in the open log (a base pinned in another log, or past its end, is none). */
export function baseIn(s: ShellView, loadId: number, steps: number): Row | null {
  return s.base && s.base.loadId === loadId && s.base.row.k < steps ? s.base.row : null
}

/** The drawer Escape closes: the newest open one that is shown (`shown` says which are). */
export function topDrawer(s: ShellView, shown: (d: DrawerId) => boolean): DrawerId | null {
  for (let i = s.drawers.length - 1; i >= 0; i--) if (shown(s.drawers[i]!)) return s.drawers[i]!
  return null
}

/** What the address holds of the view (./view-url.ts reads it). */
export interface AddressView {
  readonly tab?: string
  readonly present?: boolean
  readonly flow?: string | null
  readonly follow?: boolean
}

/** The view a page starts with, from what its address says (unknown names are ignored). */
export function initialView(a: AddressView): ViewState {
  const flow = isFlowId(a.flow ?? null) ? (a.flow as FlowId) : null
  return {
    ...EMPTY_VIEW,
    tab: isTabId(a.tab) ? a.tab : null,
    presenting: a.present === true,
    follow: a.follow !== false,
    flow,
    drawers: flow ? ['flows'] : [],
  }
}
