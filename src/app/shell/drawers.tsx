/**
 * The drawers, as data: one entry per drawer (its header button, what an error in it is
 * called, whether it needs an open log, and the component it shows). The drawer stack
 * (./DrawerStack.tsx) renders the open ones, newest on top, gives each the focus and
 * gives it back when it closes, adds each one's key to the keymap (ui/keymap.ts, so the
 * `?` overlay lists it) and closes the newest on Escape; the header makes a button of each.
 * A new drawer is one id in view-state.ts and one entry here. Every drawer but Open log…
 * is in ./drawer-views.tsx, a lazy chunk; the stack renders each inside a Suspense boundary.
 */
import { type ComponentType, useCallback } from 'react'
import { OpenPanel } from '../features/log-input/components/OpenPanel'
import { FromNode } from '../features/network/components/FromNode'
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

function OpenDrawer({ session, close, openSettings }: DrawerContext) {
  const { loaded } = session.ins
  const a = session.actions
  const userActed = session.userActed
  // Typing or picking a file in the panel (the page itself before a log opens) is the user's intent to open one.
  const onIntent = useCallback(() => userActed('panel'), [userActed])
  return (
    <OpenPanel
      onPaste={a.onPaste}
      onFile={a.onFile}
      onUrl={a.onUrl}
      onExample={a.onExample}
      current={loaded?.source.example}
      onClose={loaded ? close : undefined}
      onIntent={onIntent}
      fromNode={<FromNode net={session.net} fetch={session.userFetch} onSettings={openSettings} />}
    />
  )
}

/** The other drawers: one lazy chunk (./drawer-views.tsx), prefetched once the page is idle after the first log shows. */
const views = () => import('./drawer-views')
const SignersDrawer = lazyView(() => views().then((m) => m.SignersDrawer))
const SignDrawer = lazyView(() => views().then((m) => m.SignDrawer))
const AuditDrawer = lazyView(() => views().then((m) => m.AuditDrawer))
const TrafficDrawer = lazyView(() => views().then((m) => m.TrafficDrawer))
const EditDrawer = lazyView(() => views().then((m) => m.EditDrawer))
const FlowsDrawer = lazyView(() => views().then((m) => m.FlowsDrawer))

/** Loads the lazy drawers' chunk (./prefetch.ts). */
export function preloadDrawers(): Promise<unknown> {
  return Promise.all(
    [SignersDrawer, SignDrawer, AuditDrawer, TrafficDrawer, EditDrawer, FlowsDrawer].map((v) => v.preload()),
  )
}

/** The registry, in the order of the header's buttons. */
export const DRAWERS: Readonly<Record<DrawerId, DrawerSpec>> = {
  open: { title: 'Open log…', key: 'o', label: 'The open panel', needsLog: false, component: OpenDrawer },
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
