/**
 * The inspector's shell: the header (the open log, its verdict, the actions), the
 * drawers and the Settings dialog, the timeline beside the panels of the selected step.
 * It composes the features and holds no logic of theirs: opening a log and the page
 * address are features/log-input's (useAddressOpening, useOpenActions), the chain routes
 * and the signers come from the providers layer (providers.tsx). Features never import
 * each other.
 */
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { EditedBadge } from './features/edit/components/EditedBadge'
import { EditPanel } from './features/edit/components/EditPanel'
import { useEditSession } from './features/edit/useEditSession'
import { useAddressOpening, useStartGuard } from './features/log-input/useAddressOpening'
import { useOpenActions } from './features/log-input/useOpenActions'
import { InputErrorView } from './features/log-input/components/InputError'
import { OpenPanel } from './features/log-input/components/OpenPanel'
import { parseFragment } from './features/log-input/permalink'
import { Presenter } from './features/presenter/components/Presenter'
import { useChainRoutesContext } from './model/app-context'
import { diffStates } from './model/state-diff'
import { FetchCallout } from './features/network/components/FetchCallout'
import { FromNode } from './features/network/components/FromNode'
import { ProfilesSettings } from './features/network/components/ProfilesSettings'
import { useNetworkProfiles, useNodeFetch, type NodeFetch } from './features/network/node-fetch'
import { type FetchAddress, fetchAddressQuery, readFetchAddress } from './features/network/profiles'
import type { RemoteResult } from './features/network/remote-fetch'
import { defaultNodeUrl, useNodeUrl } from './features/settings/node-url'
import { SettingsDialog } from './features/settings/SettingsDialog'
import { ThemeToggle } from './features/settings/ThemeToggle'
import { SignersPanel } from './features/signers/components/SignersPanel'
import { Composer, type ComposeBase } from './features/compose/components/Composer'
import {
  CeilingSetting,
  FlowsPanel,
  HealthChip,
  isFlowId,
  LogLimitSetting,
  useLogLimit,
  type FlowId,
} from './features/compose/flows/FlowsPanel'
import { usePublish } from './features/network/publish'
import { handleHolder, inboxBundle, nodeClient } from './features/network/queries'
import { fetchClaimPolicy } from '../network/claim-policy'
import type { Row } from './trace/trace-model'
import { useInspector } from './trace/useInspector'
import { ErrorBoundary } from './ui/ErrorBoundary'
import { CopyButton } from './ui/CopyButton'
import { KeysHelp } from './ui/KeysHelp'
import { useDrawerFocus } from './ui/drawer-focus'
import { shortId } from './ui/format'
import { BusyBar, LogVerdict } from './shell/HeaderStatus'
import { Workspace } from './shell/Workspace'
import { isTabId, type TabId } from './shell/step-tabs'

export function App() {
  const ins = useInspector()
  const inspectorRetry = ins.retry
  const retry = useCallback(() => void inspectorRetry(), [inspectorRetry])
  // The chain routes' verifier (the providers layer's): the handle check of the inbox tasks judges smart wallets with it.
  const routesVerifier = useChainRoutesContext().verifier
  const [signersOpen, setSignersOpen] = useState(false)
  const { loaded, selection, busy, problem, open, setProblem } = ins
  const [nodeUrl, setNodeUrl] = useNodeUrl()
  // Settings (network profiles, chain routes, the log limit and installation ceiling): one modal dialog.
  const [settingsOpen, setSettingsOpen] = useState(false)
  const openSettings = useCallback(() => setSettingsOpen(true), [])
  const [panelOpen, setPanelOpen] = useState(false)
  // The step's tab the user chose: kept from step to step and in the permalink (null: each step's default).
  const [tab, setTab] = useState<TabId | null>(() => {
    const t = parseFragment(location.hash).tab
    return isTabId(t) ? t : null
  })
  const setTabFromAddress = useCallback((t: string | undefined) => isTabId(t) && setTab(t), [])
  const filterInput = useRef<HTMLInputElement>(null)
  // What the user started always wins over what the app started on its own (features/log-input).
  const guard = useStartGuard()
  const userActed = guard.userActed
  // Presenter mode (workshops): one step per screen instead of the workspace; `#…&present` in the address.
  const [presenting, setPresenting] = useState(() => parseFragment(location.hash).present === true)
  const presentButton = useRef<HTMLButtonElement>(null)
  const leavePresenter = useCallback(() => {
    setPresenting(false)
    presentButton.current?.focus()
  }, [])
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
      ).then((ok) => ok && setPanelOpen(false))
    },
    [open, guard],
  )
  const nodeFetch = useNodeFetch(onFetched)
  const chooseProfileFor = net.chooseFor
  // A fetch the user started from the Open drawer.
  const runFetch = nodeFetch.run
  const userFetch: NodeFetch = {
    ...nodeFetch,
    run: (a) => {
      guard.userFetchStarted()
      return runFetch(a)
    },
  }
  const selectedStep = loaded && selection ? loaded.model.steps[selection.k]! : null
  // The page address (features/log-input): opened at first load and on hashchange, kept as the selection moves.
  const {
    fragment,
    compressed: z,
    openExample,
    openUrl,
  } = useAddressOpening<FetchAddress>({
    guard,
    open,
    problem: setProblem,
    openPanel: setPanelOpen,
    fetchAddress: {
      read: readFetchAddress,
      start: (a) => {
        chooseProfileFor(a)
        void runFetch(a)
      },
    },
    loaded,
    select: ins.select,
    step: selectedStep && selection ? { sequenceId: selectedStep.sequenceId, action: selection.i } : undefined,
    tab,
    presenting,
    setTab: setTabFromAddress,
    setPresenting,
  })

  const closePanel = useCallback(() => setPanelOpen(false), [])
  // Paste, file (or a drop on the page), URL, example: the user's own opens (features/log-input).
  const { onPaste, onFile, onUrl, onExample, onDrop } = useOpenActions({
    guard,
    open,
    problem: setProblem,
    closePanel,
    openExample,
    openUrl,
  })
  // Edit mode (features/edit): edited copies of the open log, replayed like any log.
  const [editOpen, setEditOpen] = useState(false)
  const edit = useEditSession({ loaded, open, openExample })
  // The signing playground (features/compose): the open log's head state, append, publish.
  const [playgroundOpen, setPlaygroundOpen] = useState(false)
  // The guided inbox tasks (issue 15), opened by URL with ?flow=health|cleanup|claim|recovery.
  const [flow, setFlowState] = useState<FlowId | null>(() => {
    const f = new URLSearchParams(location.search).get('flow')
    return isFlowId(f) ? f : null
  })
  const [logLimit, setLogLimit] = useLogLimit()
  const setFlow = useCallback((f: FlowId | null) => {
    setFlowState(f)
    const url = new URL(location.href)
    if (f) url.searchParams.set('flow', f)
    else url.searchParams.delete('flow')
    history.replaceState(history.state, '', url)
  }, [])
  const { publish } = usePublish(nodeUrl)
  const queryNewest = useCallback(
    async (inboxId: string) => (await nodeClient(nodeUrl).queryNewest([inboxId]))[0]?.sequenceId ?? null,
    [nodeUrl],
  )
  const lookupHandle = useCallback(
    async (handle: string) =>
      (await nodeClient(nodeUrl).getInboxIds([{ identifier: handle, kind: 'handle' }]))[0]?.inboxId || null,
    [nodeUrl],
  )
  const composeBase = useMemo((): ComposeBase => {
    // Only while the playground is open: the head state of a long log costs a rebuild from its checkpoints.
    if (!loaded || (!playgroundOpen && flow === null)) return { state: null, label: null, blocked: null }
    const stop = loaded.model.stopIndex()
    const state = loaded.model.stateAfter(loaded.model.steps.length - 1)
    const blocked =
      stop >= 0
        ? `The open log stops at sequence id ${loaded.model.steps[stop]!.sequenceId} (${loaded.model.steps[stop]!.status}), so an update appended to it would not be applied.`
        : null
    return { state, label: loaded.source.label, blocked }
  }, [loaded, playgroundOpen, flow])
  const claimPolicyOfNode = useCallback(() => fetchClaimPolicy(nodeUrl), [nodeUrl])
  const handleHolderOnNode = useCallback(
    (handle: string) => handleHolder(nodeUrl, handle, routesVerifier),
    [nodeUrl, routesVerifier],
  )
  // A log fetched from the node opens at its head: the node's answer is about the newest state.
  const onNodeLog = useCallback(
    (l: { inboxId: string; bundle: string; label: string }) => {
      userActed()
      void open(
        { kind: 'paste', label: l.label, name: `node-${l.inboxId}`, input: l.bundle, verifier: 'none' },
        { at: 'head' },
      )
    },
    [open, userActed],
  )
  // The inbox tasks re-fetch an inbox that changed on the node, then re-run their dry run on it.
  const refetchInbox = useCallback(
    async (inboxId: string) =>
      onNodeLog({
        inboxId,
        bundle: await inboxBundle(nodeUrl, inboxId),
        label: `node ${nodeUrl}: inbox ${inboxId.slice(0, 10)}…`,
      }),
    [nodeUrl, onNodeLog],
  )
  const showPanel = panelOpen || (!loaded && !busy)
  // The drawers (Open, Signers, Sign) sit under the header: its height (it wraps on a
  // narrow screen) is kept in --topbar-h.
  const topbar = useRef<HTMLElement>(null)
  useEffect(() => {
    const el = topbar.current
    if (!el) return
    const set = () => document.documentElement.style.setProperty('--topbar-h', `${el.offsetHeight}px`)
    const ro = new ResizeObserver(set)
    ro.observe(el)
    set()
    return () => ro.disconnect()
  }, [])

  // Escape closes the panel on top (signing playground, signers, open log), then leaves presenter mode, unless
  // something inside handled it first (a dialog, the timeline filter).
  const panels = useRef({
    playgroundOpen,
    signersOpen,
    editOpen,
    flowOpen: flow !== null,
    panelOpen: panelOpen && !!loaded,
  })
  panels.current = { playgroundOpen, signersOpen, editOpen, flowOpen: flow !== null, panelOpen: panelOpen && !!loaded }
  const presentingNow = useRef(presenting)
  presentingNow.current = presenting
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      if (e.target instanceof HTMLInputElement && e.target.type === 'search') return
      const p = panels.current
      if (p.playgroundOpen) setPlaygroundOpen(false)
      else if (p.flowOpen) setFlow(null)
      else if (p.editOpen) setEditOpen(false)
      else if (p.signersOpen) setSignersOpen(false)
      else if (p.panelOpen) setPanelOpen(false)
      else if (presentingNow.current) leavePresenter()
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [setFlow, leavePresenter])
  const select: (r: Row) => void = ins.select
  useDrawerFocus(panelOpen && !!loaded, 'open')
  useDrawerFocus(signersOpen, 'signers')
  useDrawerFocus(playgroundOpen, 'sign')
  useDrawerFocus(flow !== null && !!loaded, 'flows')
  useDrawerFocus(editOpen && !!loaded, 'edit')
  // Presenter mode's "what changed": the same diff as the Diff tab.
  const diffOf = useCallback(
    (k: number, i: number) => {
      const v = loaded?.model.actionView(k, i)
      return v ? diffStates(v.before, v.after, v.touched) : diffStates(null, null)
    },
    [loaded],
  )

  return (
    <div className="app" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <a className="skip-link" href="#step-details">
        Skip to the selected step
      </a>
      <header className="topbar" ref={topbar}>
        <div className="topbar-id">
          <h1>Inbox Inspector</h1>
          {loaded && (
            <div className={loaded.source.edited ? 'source edited' : 'source'} aria-label="Open log">
              <span className="muted source-label" title={loaded.source.label}>
                {loaded.source.label}
              </span>
              {loaded.source.edited && (
                <EditedBadge
                  mark={loaded.source.edited}
                  restorable={edit.restorable}
                  onRestore={() => void edit.restore()}
                />
              )}
              {loaded.logs.length > 1 && (
                <select
                  aria-label="Inbox log of the input"
                  value={loaded.logIndex}
                  onChange={(e) => {
                    userActed()
                    void open(loaded.source, { logIndex: Number(e.target.value) })
                  }}
                >
                  {loaded.logs.map((l) => (
                    <option key={l.index} value={l.index}>
                      {`log ${l.index + 1} of ${loaded.logs.length}: inbox ${l.inboxId ? shortId(l.inboxId) : '?'} (${l.entries} update${l.entries === 1 ? '' : 's'})`}
                    </option>
                  ))}
                </select>
              )}
              <LogVerdict loaded={loaded} />
              <HealthChip entries={loaded.model.steps.length} limit={logLimit} onOpen={() => setFlow('health')} />
            </div>
          )}
        </div>
        {busy && <BusyBar busy={busy} progress={ins.progress} onCancel={ins.cancel} />}
        {/* On a phone this is one row that scrolls sideways (styles.css), so the header keeps two rows. */}
        <div className="topbar-actions" role="group" aria-label="Inspector actions">
          <DrawerToggle open={showPanel} onClick={() => setPanelOpen(!panelOpen)}>
            Open log…
          </DrawerToggle>
          <DrawerToggle open={signersOpen} onClick={() => setSignersOpen(!signersOpen)}>
            Signers…
          </DrawerToggle>
          <DrawerToggle open={playgroundOpen} onClick={() => setPlaygroundOpen(!playgroundOpen)}>
            Sign…
          </DrawerToggle>
          {loaded && (
            <button
              type="button"
              ref={presentButton}
              className={presenting ? 'active' : ''}
              aria-pressed={presenting}
              title="Presenter mode: one step per screen, in large type"
              onClick={() => (presenting ? leavePresenter() : setPresenting(true))}
            >
              Present
            </button>
          )}
          {loaded && (
            <DrawerToggle open={editOpen} onClick={() => setEditOpen(!editOpen)}>
              Edit…
            </DrawerToggle>
          )}
          {loaded && (
            <DrawerToggle open={flow !== null} onClick={() => setFlow(flow === null ? 'health' : null)}>
              Inbox tasks…
            </DrawerToggle>
          )}
          {loaded &&
            fragment &&
            (fragment.linkable ? (
              <CopyButton
                text={`${location.origin}${location.pathname}${fragment.search}${fragment.hash}`}
                what="permalink to this step"
                label="Copy link"
              />
            ) : (
              <span className="muted small" title={z?.why ?? 'preparing the link'}>
                no permalink
              </span>
            ))}
          <button
            type="button"
            className={settingsOpen ? 'active' : ''}
            aria-haspopup="dialog"
            onClick={() => setSettingsOpen(true)}
          >
            Settings…
          </button>
          <ThemeToggle />
        </div>
      </header>
      <KeysHelp />
      {settingsOpen && (
        <ErrorBoundary label="The settings">
          <SettingsDialog
            onClose={() => setSettingsOpen(false)}
            profiles={
              <ProfilesSettings
                net={net}
                localUrl={nodeUrl}
                defaultLocalUrl={defaultNodeUrl()}
                onLocalUrl={setNodeUrl}
              />
            }
            limits={
              <>
                <LogLimitSetting limit={logLimit} onChange={setLogLimit} />
                <CeilingSetting />
              </>
            }
          />
        </ErrorBoundary>
      )}
      {nodeFetch.status.kind === 'done' &&
        !presenting &&
        loaded?.source.kind === 'node' &&
        loaded.source.fetch === fetchAddressQuery(nodeFetch.status.result.address) && (
          <ErrorBoundary label="The fetch call-out">
            <FetchCallout result={nodeFetch.status.result} profiles={net.profiles} onDismiss={nodeFetch.dismiss} />
          </ErrorBoundary>
        )}
      {ins.notice && (
        <p className="notice" role="status">
          {ins.notice}{' '}
          <button type="button" className="link" onClick={() => ins.setNotice(null)} aria-label="Dismiss notice">
            dismiss
          </button>
        </p>
      )}
      {problem && (
        <div className="problem-wrap">
          <InputErrorView
            label={problem.label}
            problem={problem.problem}
            message={problem.message}
            json={problem.json ?? false}
          />
          <button type="button" onClick={() => ins.setProblem(null)} aria-label="Dismiss the error">
            Dismiss
          </button>
        </div>
      )}
      {signersOpen && (
        <div className="drawer" data-drawer="signers">
          <ErrorBoundary label="The signers panel">
            <SignersPanel onClose={() => setSignersOpen(false)} />
          </ErrorBoundary>
        </div>
      )}
      {playgroundOpen && (
        <div className="drawer" data-drawer="sign">
          <ErrorBoundary label="The signing playground">
            <Composer
              base={composeBase}
              onAppend={ins.append}
              localNewest={ins.newestApplied}
              nodeUrl={nodeUrl}
              publish={publish}
              queryNewest={queryNewest}
              lookupHandle={lookupHandle}
              onClose={() => setPlaygroundOpen(false)}
            />
          </ErrorBoundary>
        </div>
      )}
      {flow !== null && loaded && (
        <div className="drawer" data-drawer="flows">
          <ErrorBoundary label="The inbox tasks">
            <FlowsPanel
              state={composeBase.state}
              blocked={composeBase.blocked}
              logEntries={loaded.model.steps.length}
              logLimit={logLimit}
              onSettings={openSettings}
              flow={flow}
              onFlow={setFlow}
              onAppend={ins.append}
              publish={publish}
              nodeUrl={nodeUrl}
              lookupHandle={lookupHandle}
              handleHolder={handleHolderOnNode}
              claimPolicy={claimPolicyOfNode}
              queryNewest={queryNewest}
              refetch={refetchInbox}
              onClose={() => setFlow(null)}
            />
          </ErrorBoundary>
        </div>
      )}
      {editOpen && loaded && (
        <div className="drawer" data-drawer="edit">
          <ErrorBoundary label="Edit mode">
            <EditPanel
              loaded={loaded}
              session={edit}
              selected={selectedStep}
              compareStates={diffStates}
              onClose={() => setEditOpen(false)}
            />
          </ErrorBoundary>
        </div>
      )}
      {showPanel && (
        <div className={loaded ? 'drawer' : 'drawer-inline'} data-drawer="open">
          <ErrorBoundary label="The open panel">
            <OpenPanel
              onPaste={onPaste}
              onFile={onFile}
              onUrl={onUrl}
              onExample={onExample}
              current={loaded?.source.example}
              onClose={loaded ? closePanel : undefined}
              fromNode={<FromNode net={net} fetch={userFetch} localUrl={nodeUrl} onSettings={openSettings} />}
            />
          </ErrorBoundary>
        </div>
      )}
      {loaded && presenting && (
        <ErrorBoundary label="Presenter mode" resetKey={loaded.loadId}>
          <Presenter
            model={loaded.model}
            rows={loaded.rows}
            selection={selection}
            onSelect={select}
            diffOf={diffOf}
            title={loaded.source.label}
            onLeave={leavePresenter}
          />
        </ErrorBoundary>
      )}
      {loaded && !presenting && (
        <Workspace
          loaded={loaded}
          selection={selection}
          onSelect={select}
          filterInput={filterInput}
          onRetry={retry}
          retrying={busy !== null}
          tab={tab}
          onTab={setTab}
        />
      )}
    </div>
  )
}

/** A header button that opens and closes a drawer or panel: pressed-looking while it is open. */
function DrawerToggle({ open, onClick, children }: { open: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={open ? 'active' : ''} aria-expanded={open} onClick={onClick}>
      {children}
    </button>
  )
}
