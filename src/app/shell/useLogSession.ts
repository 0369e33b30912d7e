/**
 * The log session: the open log (trace/useInspector), how it was opened (paste, file, URL,
 * example, a node fetch: features/log-input and features/network) and the page address
 * that names it and the view (./view-url.ts). What the user started always wins over what
 * the app started by itself (features/log-input/start-guard.ts): the demo log, the address's
 * fetch and the log a reload restores are tagged as the app's own, and every user intent
 * (opening the Open panel, a paste, a file, a selection, a fetch or open they asked for)
 * goes through the guard here, so what the app began before it gives way.
 */
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react'
import type { UserIntent } from '../features/log-input/start-guard'
import { useAddressOpening, usePendingAutoLoads, useStartGuard } from '../features/log-input/useAddressOpening'
import { useOpenActions } from '../features/log-input/useOpenActions'
import { type NodeFetch, useNetworkProfiles, useNodeFetch } from '../features/network/node-fetch'
import { type FetchAddress, fetchAddressQuery, readFetchAddress } from '../features/network/profiles'
import type { RemoteResult } from '../features/network/remote-fetch'
import { useNodeUrl } from '../features/settings/node-url'
import type { InspectRequest } from '../model/inspect-request'
import type { Selection } from '../trace/trace-model'
import { type OpenOptions, type Source, useInspector } from '../trace/useInspector'
import { isTabId } from './step-tabs'
import type { DrawerId, ShellView } from './view-state'
import type { ViewStore } from './view-store'
import { stepRefOf, withParams, writeView } from './view-url'

export function useLogSession(view: ShellView, store: ViewStore) {
  const dispatch = store.dispatch
  const select = useCallback((selection: Selection | null) => dispatch({ type: 'select', selection }), [dispatch])
  const ins = useInspector({ selection: store.selection })
  const { loaded, open, setProblem } = ins
  // The view store takes a newly shown log's first selection in the commit that shows it
  // (before the paint; until then useSelection shows Loaded.initial).
  const shownId = loaded?.loadId
  const shownWith = loaded?.initial ?? null
  // The Open panel a successful open closes: closed in the commit that shows that log (a
  // store update in a layout effect is rendered before the paint), not a frame before it.
  // A frame of its own would paint the log shown before, uncovered for a moment, on the
  // cores the next one is still being drawn with.
  const closeAt = useRef<number | null>(null)
  const shownRef = useRef<number | undefined>(undefined)
  useLayoutEffect(() => {
    shownRef.current = shownId
    if (shownId === undefined) return
    dispatch({ type: 'shown', loadId: shownId, selection: shownWith })
    if (closeAt.current !== null && shownId >= closeAt.current) {
      closeAt.current = null
      dispatch({ type: 'close', drawer: 'open' })
    }
  }, [shownId, shownWith, dispatch])
  const [nodeUrl, setNodeUrl] = useNodeUrl()
  const guard = useStartGuard(ins.cancel)
  const pendingAuto = usePendingAutoLoads(guard)
  const openPanel = useCallback((on: boolean) => dispatch({ type: on ? 'open' : 'close', drawer: 'open' }), [dispatch])
  const net = useNetworkProfiles(nodeUrl)

  /** The user's intent that is no open of its own (the Open panel's first keystroke, say). */
  const userActed = guard.userActed
  /** Opens a log the user asked for: what the app is loading by itself gives way. */
  const openByUser = useCallback(
    (source: Source, options?: OpenOptions, intent: UserIntent = 'log') =>
      guard.userOpen(intent, () => open(source, options)),
    [guard, open],
  )
  /** The user moves the selection (the timeline, presenter mode, Follow's jump). */
  const userSelect = useCallback(
    (selection: Selection) => {
      userActed('select')
      select(selection)
    },
    [userActed, select],
  )
  /** A header button or key toggles a drawer; opening the Open panel is the user's intent to open a log. */
  const drawerOpen = view.drawers.includes('open')
  const toggleDrawer = useCallback(
    (d: DrawerId) => {
      if (d === 'open' && !drawerOpen) userActed('panel')
      dispatch({ type: 'toggle', drawer: d })
    },
    [dispatch, userActed, drawerOpen],
  )

  // A fetch named by the page address is the app's own load: it gives way to what the user did since (and may name a step).
  const onFetched = useCallback(
    (r: RemoteResult) => {
      const claim = guard.claimFetch()
      if (claim.kind === 'stale') return
      const head = r.headSequenceId === null ? {} : { step: { sequenceId: r.headSequenceId, action: 0 } }
      const source: Source = {
        kind: 'node',
        label: `${r.address.url} (${r.address.api} over ${r.address.transport}): inbox ${r.log.inboxId.slice(0, 10)}…`,
        name: `remote-${r.log.inboxId}`,
        input: r.bundle,
        fetch: fetchAddressQuery(r.address),
        verifier: 'none',
      }
      const options = claim.step ? { step: claim.step } : head
      if (claim.kind === 'auto') void guard.autoOpen(claim.load, (wanted) => open(source, { ...options, wanted }))
      else void guard.userOpen('fetch', () => open(source, options)).then((ok) => ok && openPanel(false))
    },
    [open, guard, openPanel],
  )
  const nodeFetch = useNodeFetch(onFetched)
  const runFetch = nodeFetch.run
  const dismissFetch = nodeFetch.dismiss
  // A fetch the user started from the Open drawer.
  const userFetch: NodeFetch = {
    ...nodeFetch,
    run: (a) => {
      guard.userFetchStarted()
      return runFetch(a)
    },
  }

  // The page address: opened at first load and on hashchange, kept as the view changes. The
  // selected step is read from the store when the address is written, not rendered here.
  const address = writeView(view, loaded?.model ?? null, loaded?.source.kind === 'node' && !!loaded.source.fetch)
  const model = loaded?.model ?? null
  const step = useMemo(
    () => ({ get: () => stepRefOf(store.selection(), model), subscribe: store.subscribe }),
    [store, model],
  )
  const paramsKey = JSON.stringify(address.params)
  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsKey stands for address.params
  const search = useMemo(() => (s: string) => withParams(s, address.params), [paramsKey])
  const chooseProfileFor = net.chooseFor
  const page = useAddressOpening<FetchAddress>({
    guard,
    open,
    problem: setProblem,
    openPanel,
    fetchAddress: {
      read: readFetchAddress,
      start: (a, load) => {
        chooseProfileFor(a)
        // The app's own fetch stops when the user acts, and is over once it ran (its result, if any, claimed meanwhile).
        const stop = () => dismissFetch()
        load?.signal.addEventListener('abort', stop, { once: true })
        void runFetch(a).finally(() => {
          load?.signal.removeEventListener('abort', stop)
          if (load) guard.end(load)
        })
      },
    },
    loaded,
    select,
    view: { fragment: address.fragment, search, step },
    setTab: useCallback((t: string | undefined) => isTabId(t) && dispatch({ type: 'tab', tab: t }), [dispatch]),
    setPresenting: useCallback((on: boolean) => dispatch({ type: 'present', on }), [dispatch]),
  })

  const { lastLoadId } = ins
  /** After a successful open: the panel closes as the log shows (at once if it already has). */
  const closePanel = useCallback(() => {
    const want = lastLoadId()
    if (shownRef.current !== undefined && shownRef.current >= want) openPanel(false)
    else closeAt.current = want
  }, [lastLoadId, openPanel])
  // Paste, file (or a drop on the page), URL, example: the user's own opens.
  const actions = useOpenActions({
    guard,
    open,
    problem: setProblem,
    closePanel,
    openExample: page.openExample,
    openUrl: page.openUrl,
  })

  // A log fetched from the node by a drawer opens at its head: the node's answer is about the newest state.
  const openNodeLog = useCallback(
    (l: { inboxId: string; bundle: string; label: string }) =>
      void openByUser(
        { kind: 'paste', label: l.label, name: `node-${l.inboxId}`, input: l.bundle, verifier: 'none' },
        { at: 'head' },
      ),
    [openByUser],
  )

  /**
   * Opens what a live view asks for (model/inspect-request.ts): the audit's and the node
   * traffic's opens are the user's (`user`); Follow's are the app's own, at the place
   * the user is.
   */
  const openRequest = useCallback(
    (r: InspectRequest, user = true) => {
      const source: Source = {
        kind: r.kind,
        label: r.label,
        name: r.name,
        input: r.input,
        ...(r.fetch ? { fetch: r.fetch } : {}),
        verifier: 'none',
      }
      const options: OpenOptions = {
        ...(r.logIndex !== undefined ? { logIndex: r.logIndex } : {}),
        ...(r.step ? { step: r.step } : { at: 'head' as const }),
      }
      return user ? openByUser(source, options) : open(source, options)
    },
    [open, openByUser],
  )

  return {
    ins,
    nodeUrl,
    setNodeUrl,
    net,
    nodeFetch,
    userFetch,
    page,
    actions,
    userActed,
    openByUser,
    userSelect,
    toggleDrawer,
    pendingAuto,
    openNodeLog,
    openRequest,
  }
}

export type LogSession = ReturnType<typeof useLogSession>
