/**
 * The drawers, as data: one entry per drawer (its header button, what an error in it is
 * called, whether it needs an open log, and the component it shows). The drawer stack
 * (./DrawerStack.tsx) renders the open ones, newest on top, gives each the focus and
 * gives it back when it closes, adds each one's key to the keymap (ui/keymap.ts, so the
 * `?` overlay lists it) and closes the newest on Escape; the header makes a button of each.
 * A new drawer is one id in view-state.ts and one entry here. Every drawer is a lazy
 * chunk (Open log… is ./open-drawer.tsx, the others ./drawer-views.tsx), prefetched once
 * the page is idle after the first log shows; the stack renders each inside a Suspense boundary.
 */
import type { ComponentType } from 'react'
import { lazyView } from '../ui/lazy-view'
import type { DrawerContext } from './drawer-context'
import type { DrawerId } from './view-state'

export interface DrawerSpec {
  /** The header button that opens and closes it. */
  readonly title: string
  /** The key that opens and closes it, as KeyboardEvent.key (the keymap and the `?` overlay are generated from it). */
  readonly key: string
  /** What an error inside it is called ("The signers panel failed…"). */
  readonly label: string
  /** Shown (with its button) only while a log is open. */
  readonly needsLog: boolean
  readonly component: ComponentType<DrawerContext>
  /** A wide drawer (the tables of the live views). */
  readonly wide?: boolean
}

/** The Open panel with its list of examples and From a node: a lazy chunk (./open-drawer.tsx), prefetched with the others. */
const OpenDrawer = lazyView(
  () => import('./open-drawer'),
  (m) => m.OpenDrawer,
)

/**
 * The other drawers: one lazy chunk (./drawer-views.tsx, the one module they all import),
 * prefetched once the page is idle after the first log shows. After a failed load their
 * retries are one too, the page's for the chunk's URL (../../worker/import-again.ts).
 */
const fromViews = <P extends object>(pick: (m: typeof import('./drawer-views')) => ComponentType<P>) =>
  lazyView(() => import('./drawer-views'), pick)
const SignersDrawer = fromViews((m) => m.SignersDrawer)
const SignDrawer = fromViews((m) => m.SignDrawer)
const AuditDrawer = fromViews((m) => m.AuditDrawer)
const TrafficDrawer = fromViews((m) => m.TrafficDrawer)
const EditDrawer = fromViews((m) => m.EditDrawer)
const FlowsDrawer = fromViews((m) => m.FlowsDrawer)

/** Loads the lazy drawers' chunks (./prefetch.ts). */
export function preloadDrawers(): Promise<unknown> {
  return Promise.all(
    [OpenDrawer, SignersDrawer, SignDrawer, AuditDrawer, TrafficDrawer, EditDrawer, FlowsDrawer].map((v) =>
      v.preload(),
    ),
  )
}

/** The registry, in the order of the header's buttons. */
export const DRAWERS: Readonly<Record<DrawerId, DrawerSpec>> = {
  open: { title: 'Open log…', key: 'o', label: 'The open panel', needsLog: false, component: OpenDrawer.View },
  signers: { title: 'Signers…', key: 's', label: 'The signers panel', needsLog: false, component: SignersDrawer.View },
  sign: { title: 'Sign…', key: 'n', label: 'The signing playground', needsLog: false, component: SignDrawer.View },
  audit: {
    title: 'Audit…',
    key: 'a',
    label: 'The audit view',
    needsLog: false,
    component: AuditDrawer.View,
    wide: true,
  },
  traffic: {
    title: 'Node traffic…',
    key: 't',
    label: 'The node traffic panel',
    needsLog: false,
    component: TrafficDrawer.View,
    wide: true,
  },
  edit: { title: 'Edit…', key: 'e', label: 'Edit mode', needsLog: true, component: EditDrawer.View },
  flows: { title: 'Inbox tasks…', key: 'i', label: 'The inbox tasks', needsLog: true, component: FlowsDrawer.View },
}
