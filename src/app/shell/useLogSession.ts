/**
 * The log session: the open log (trace/useInspector), how it was opened (paste, file, URL,
 * example, a node fetch: features/log-input and features/network) and the page address
 * that names it and the view (./view-url.ts). What the user started always wins over what
 * the app started by itself (the StartGuard).
 */
import { useCallback, useMemo } from 'react'
import { useAddressOpening, useStartGuard } from '../features/log-input/useAddressOpening'
import { useOpenActions } from '../features/log-input/useOpenActions'
import { type NodeFetch, useNetworkProfiles, useNodeFetch } from '../features/network/node-fetch'
import { type FetchAddress, fetchAddressQuery, readFetchAddress } from '../features/network/profiles'
import type { RemoteResult } from '../features/network/remote-fetch'
import { useNodeUrl } from '../features/settings/node-url'
import type { InspectRequest } from '../model/inspect-request'
import type { Selection } from '../trace/trace-model'
import { useInspector } from '../trace/useInspector'
import { isTabId } from './step-tabs'
import type { ShellView } from './view-state'
import type { ViewStore } from './view-store'
import { stepRefOf, withParams, writeView } from './view-url'

export function useLogSession(view: ShellView, store: ViewStore) {
  const dispatch = store.dispatch
  const select = useCallback((selection: Selection | null) => dispatch({ type: 'select', selection }), [dispatch])
  const ins = useInspector({ selection: store.selection, select })
  const { loaded, open, setProblem } = ins
  const [nodeUrl, setNodeUrl] = useNodeUrl()
  const guard = useStartGuard()
  const openPanel = useCallback((on: boolean) => dispatch({ type: on ? 'open' : 'close', drawer: 'open' }), [dispatch])
  const net = useNetworkProfiles(nodeUrl)

  // A fetch named by the page address is the app's own start: it gives way to what the user did since (and may name a step).
  const onFetched = useCallback(
    (r: RemoteResult) => {
      const claim = guard.claimFetch()
      if (claim.kind === 'stale') return
      const head = r.headSequenceId === null ? {} : { step: { sequenceId: r.headSequenceId, action: 0 } }
      void open(
        {
          kind: 'node',
          label: `${r.address.url} (${r.address.api} over ${r.address.transport}): inbox ${r.log.inboxId.slice(0, 10)}…`,
          name: `remote-${r.log.inboxId}`,
          input: r.bundle,
          fetch: fetchAddressQuery(r.address),
          verifier: 'none',
        },
        claim.kind === 'boot' && claim.step ? { step: claim.step } : head,
      ).then((ok) => ok && openPanel(false))
    },
    [open, guard, openPanel],
  )
  const nodeFetch = useNodeFetch(onFetched)
  const runFetch = nodeFetch.run
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
      start: (a) => {
        chooseProfileFor(a)
        void runFetch(a)
      },
    },
    loaded,
    select,
    view: { fragment: address.fragment, search, step },
    setTab: useCallback((t: string | undefined) => isTabId(t) && dispatch({ type: 'tab', tab: t }), [dispatch]),
    setPresenting: useCallback((on: boolean) => dispatch({ type: 'present', on }), [dispatch]),
  })

  const closePanel = useCallback(() => openPanel(false), [openPanel])
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
  const userActed = guard.userActed
  const openNodeLog = useCallback(
    (l: { inboxId: string; bundle: string; label: string }) => {
      userActed()
      void open(
        { kind: 'paste', label: l.label, name: `node-${l.inboxId}`, input: l.bundle, verifier: 'none' },
        { at: 'head' },
      )
    },
    [open, userActed],
  )

  /**
   * Opens what a live view asks for (model/inspect-request.ts): the audit's and the node
   * traffic's opens are the user's (`user`); Follow's are the app's own, at the place
   * the user is.
   */
  const openRequest = useCallback(
    (r: InspectRequest, user = true) => {
      if (user) userActed()
      return open(
        {
          kind: r.kind,
          label: r.label,
          name: r.name,
          input: r.input,
          ...(r.fetch ? { fetch: r.fetch } : {}),
          verifier: 'none',
        },
        {
          ...(r.logIndex !== undefined ? { logIndex: r.logIndex } : {}),
          ...(r.step ? { step: r.step } : { at: 'head' as const }),
        },
      )
    },
    [open, userActed],
  )

  return { ins, nodeUrl, setNodeUrl, net, nodeFetch, userFetch, page, actions, userActed, openNodeLog, openRequest }
}

export type LogSession = ReturnType<typeof useLogSession>
