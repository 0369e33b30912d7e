/**
 * The drawers, as data: one entry per drawer (its header button, what an error in it is
 * called, whether it needs an open log, and the component it shows). The drawer stack
 * (./DrawerStack.tsx) renders the open ones, newest on top, gives each the focus and
 * gives it back when it closes, adds each one's key to the keymap (ui/keymap.ts, so the
 * `?` overlay lists it) and closes the newest on Escape; the header makes a button of each.
 * A new drawer is one id in view-state.ts and one entry here.
 */
import { type ComponentType, type Dispatch, lazy, type ReactNode, Suspense, useCallback, useMemo } from 'react'
import type { ComposeBase } from '../features/compose/components/Composer'
import type { useEditSession } from '../features/edit/useEditSession'
import { OpenPanel } from '../features/log-input/components/OpenPanel'
import { FromNode } from '../features/network/components/FromNode'
import { loadQueryClient, SigningGate } from '../providers'
import { useNodeService } from '../model/node-service'
import { diffStates } from '../model/state-diff'
import type { InspectRequest } from '../model/inspect-request'
import type { Loaded } from '../trace/useInspector'
import type { LogSession } from './useLogSession'
import type { DrawerId, ShellView, ViewAction } from './view-state'
import { useSelection } from './view-store'

/** What every drawer component is given. */
export interface DrawerContext {
  readonly session: LogSession
  readonly view: ShellView
  readonly dispatch: Dispatch<ViewAction>
  /** Closes this drawer. */
  readonly close: () => void
  readonly openSettings: () => void
  readonly edit: ReturnType<typeof useEditSession>
  readonly logLimit: number
}

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

// The live views are lazy chunks: they add nothing to the first screen's JavaScript.
const AuditView = lazy(() => import('../features/audit/components/AuditView').then((m) => ({ default: m.AuditView })))
const TrafficPanel = lazy(() =>
  import('../features/traffic/components/TrafficPanel').then((m) => ({ default: m.TrafficPanel })),
)

// The signing views are lazy chunks too, inside SigningGate (../providers.tsx): wagmi, viem
// and @simplewebauthn load when the first of them opens.
const SignersPanel = lazy(() =>
  import('../features/signers/components/SignersPanel').then((m) => ({ default: m.SignersPanel })),
)
const Composer = lazy(() => import('../features/compose/components/Composer').then((m) => ({ default: m.Composer })))
const EditPanel = lazy(() => import('../features/edit/components/EditPanel').then((m) => ({ default: m.EditPanel })))
const FlowsPanel = lazy(() => import('../features/compose/flows/FlowsPanel').then((m) => ({ default: m.FlowsPanel })))

function Signing({ children }: { children: ReactNode }) {
  return (
    <SigningGate>
      <Suspense fallback={<p className="muted">Loading…</p>}>{children}</Suspense>
    </SigningGate>
  )
}

/** Opens a live view's request in the inspector, closing the drawer once it opened. */
function useOpenAndClose(session: LogSession, close: () => void) {
  const openRequest = session.openRequest
  return useCallback(
    async (r: InspectRequest) => {
      const ok = await openRequest(r)
      if (ok) close()
      return ok
    },
    [openRequest, close],
  )
}

function AuditDrawer({ session, close }: DrawerContext) {
  const onOpen = useOpenAndClose(session, close)
  return (
    <Suspense fallback={<p className="muted">Loading the audit view…</p>}>
      <AuditView onOpen={onOpen} onClose={close} />
    </Suspense>
  )
}

function TrafficDrawer({ session, close }: DrawerContext) {
  const onOpen = useOpenAndClose(session, close)
  return (
    <Suspense fallback={<p className="muted">Loading the node traffic panel…</p>}>
      <TrafficPanel nodeUrl={session.nodeUrl} onOpen={onOpen} onClose={close} />
    </Suspense>
  )
}

/**
 * The open log's head state, for composing on it; only while a composing drawer is
 * mounted (the head state of a long log costs a rebuild from its checkpoints).
 */
function useHeadBase(loaded: Loaded | null): ComposeBase {
  return useMemo((): ComposeBase => {
    if (!loaded) return { state: null, label: null, blocked: null }
    const stop = loaded.model.stopIndex()
    const state = loaded.model.stateAfter(loaded.model.steps.length - 1)
    const blocked =
      stop >= 0
        ? `The open log stops at sequence id ${loaded.model.steps[stop]!.sequenceId} (${loaded.model.steps[stop]!.status}), so an update appended to it would not be applied.`
        : null
    return { state, label: loaded.source.label, blocked }
  }, [loaded])
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

function SignersDrawer({ close }: DrawerContext) {
  return (
    <Signing>
      <SignersPanel onClose={close} />
    </Signing>
  )
}

function SignDrawer({ session, close }: DrawerContext) {
  const { ins } = session
  const base = useHeadBase(ins.loaded)
  return (
    <Signing>
      <Composer base={base} onAppend={ins.append} localNewest={ins.newestApplied} onClose={close} />
    </Signing>
  )
}

function EditDrawer({ session, edit, close }: DrawerContext) {
  const { loaded } = session.ins
  const selection = useSelection(loaded?.model ?? null)
  if (!loaded) return null
  const selected = selection ? (loaded.model.steps[selection.k] ?? null) : null
  return (
    <Signing>
      <EditPanel loaded={loaded} session={edit} selected={selected} compareStates={diffStates} onClose={close} />
    </Signing>
  )
}

function FlowsDrawer({ session, view, dispatch, close, openSettings, logLimit }: DrawerContext) {
  const { ins, openNodeLog } = session
  const base = useHeadBase(ins.loaded)
  const node = useNodeService()
  if (!ins.loaded || view.flow === null) return null
  // The inbox tasks re-fetch an inbox that changed on the node, then re-run their dry run on it.
  const refetch = async (inboxId: string) =>
    openNodeLog({
      inboxId,
      bundle: await (await loadQueryClient()).fetchQuery(node.inboxBundle(inboxId)),
      label: `node ${node.url}: inbox ${inboxId.slice(0, 10)}…`,
    })
  return (
    <Signing>
      <FlowsPanel
        state={base.state}
        blocked={base.blocked}
        logEntries={ins.loaded.model.steps.length}
        logLimit={logLimit}
        onSettings={openSettings}
        flow={view.flow}
        onFlow={(flow) => dispatch({ type: 'flow', flow })}
        onAppend={ins.append}
        refetch={refetch}
        onClose={close}
      />
    </Signing>
  )
}

/** The registry, in the order of the header's buttons. */
export const DRAWERS: Readonly<Record<DrawerId, DrawerSpec>> = {
  open: { title: 'Open log…', key: 'o', label: 'The open panel', needsLog: false, component: OpenDrawer },
  signers: { title: 'Signers…', key: 's', label: 'The signers panel', needsLog: false, component: SignersDrawer },
  sign: { title: 'Sign…', key: 'n', label: 'The signing playground', needsLog: false, component: SignDrawer },
  audit: {
    title: 'Audit…',
    key: 'a',
    label: 'The audit view',
    needsLog: false,
    component: AuditDrawer,
    wide: true,
  },
  traffic: {
    title: 'Node traffic…',
    key: 't',
    label: 'The node traffic panel',
    needsLog: false,
    component: TrafficDrawer,
    wide: true,
  },
  edit: { title: 'Edit…', key: 'e', label: 'Edit mode', needsLog: true, component: EditDrawer },
  flows: { title: 'Inbox tasks…', key: 'i', label: 'The inbox tasks', needsLog: true, component: FlowsDrawer },
}
