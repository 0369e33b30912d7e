/**
 * The drawers other than Open log…, in a lazy chunk of their own (./drawers.tsx registers
 * them through lazyView): the first screen shows none of them, and the idle prefetch
 * (./prefetch.ts) loads this chunk before the first click on one. The views they show are
 * lazy chunks of their own again (the live views, the signing views inside SigningGate).
 */
import { type ReactNode, Suspense, useCallback, useMemo } from 'react'
import { lazyModule } from '../ui/lazy-again'
import type { ComposeBase } from '../features/compose/components/Composer'
import { loadQueryClient, SigningGate } from '../providers'
import { useNodeService } from '../model/node-service'
import { diffStates } from '../model/state-diff'
import type { InspectRequest } from '../model/inspect-request'
import type { Loaded } from '../trace/useInspector'
import type { DrawerContext } from './drawer-context'
import type { LogSession } from './useLogSession'
import { useSelection } from './view-store'

// The live views are lazy chunks: they add nothing to the first screen's JavaScript.
const AuditView = lazyModule(
  () => import('../features/audit/components/AuditView'),
  (m) => m.AuditView,
)
const TrafficPanel = lazyModule(
  () => import('../features/traffic/components/TrafficPanel'),
  (m) => m.TrafficPanel,
)

// The signing views are lazy chunks too, inside SigningGate (../providers.tsx): wagmi, viem
// and @simplewebauthn load when the first of them opens.
const SignersPanel = lazyModule(
  () => import('../features/signers/components/SignersPanel'),
  (m) => m.SignersPanel,
)
const Composer = lazyModule(
  () => import('../features/compose/components/Composer'),
  (m) => m.Composer,
)
const EditPanel = lazyModule(
  () => import('../features/edit/components/EditPanel'),
  (m) => m.EditPanel,
)
const FlowsPanel = lazyModule(
  () => import('../features/compose/flows/FlowsPanel'),
  (m) => m.FlowsPanel,
)

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

export function AuditDrawer({ session, close }: DrawerContext) {
  const onOpen = useOpenAndClose(session, close)
  return (
    <Suspense fallback={<p className="muted">Loading the audit view…</p>}>
      <AuditView onOpen={onOpen} onClose={close} />
    </Suspense>
  )
}

export function TrafficDrawer({ session, close }: DrawerContext) {
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

export function SignersDrawer({ close }: DrawerContext) {
  return (
    <Signing>
      <SignersPanel onClose={close} />
    </Signing>
  )
}

export function SignDrawer({ session, close }: DrawerContext) {
  const { ins } = session
  const base = useHeadBase(ins.loaded)
  return (
    <Signing>
      <Composer base={base} onAppend={ins.append} localNewest={ins.newestApplied} onClose={close} />
    </Signing>
  )
}

export function EditDrawer({ session, edit, close }: DrawerContext) {
  const { loaded } = session.ins
  const selection = useSelection(loaded ?? null)
  if (!loaded) return null
  const selected = selection ? (loaded.model.steps[selection.k] ?? null) : null
  return (
    <Signing>
      <EditPanel loaded={loaded} session={edit} selected={selected} compareStates={diffStates} onClose={close} />
    </Signing>
  )
}

export function FlowsDrawer({ session, view, dispatch, close, openSettings, logLimit }: DrawerContext) {
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
