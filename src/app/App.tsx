/**
 * The inspector's shell: opening a log (every source), the URL (log and step in the
 * fragment), the timeline beside the panels of the selected step, and the header
 * with progress, exports and the theme. Features never import each other; this file
 * composes them.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type DragEvent } from 'react'
import { utf8 } from '../crypto/bytes'
import { Exports } from './features/exports/Exports'
import { EditedBadge } from './features/edit/components/EditedBadge'
import { EditPanel } from './features/edit/components/EditPanel'
import { useEditSession } from './features/edit/useEditSession'
import { fetchLog, FetchLogError } from './features/log-input/fetch-url'
import { DEFAULT_EXAMPLE, findExample, loadExample, type Example } from './features/log-input/gallery'
import { InputErrorView } from './features/log-input/components/InputError'
import { OpenPanel } from './features/log-input/components/OpenPanel'
import {
  compressLog,
  decompressLog,
  formatFragment,
  MAX_FRAGMENT,
  parseFragment,
  PermalinkError,
  type Fragment,
} from './features/log-input/permalink'
import { RawView } from './features/raw/components/RawView'
import { NetworkPanel, type OpenNodeLog } from './features/network/components/NetworkPanel'
import { RemotePanel, type OpenRemoteLog } from './features/network/components/RemotePanel'
import { readFetchAddress } from './features/network/profiles'
import { ChainRoutesField } from './features/settings/ChainRoutesField'
import { routeSpec, useChainRoutes } from './features/settings/chain-routes'
import { NodeUrlField } from './features/settings/NodeUrlField'
import { useNodeUrl } from './features/settings/node-url'
import { ThemeToggle } from './features/settings/ThemeToggle'
import { Rejection } from './features/signature-text/components/Rejection'
import { Signatures } from './features/signature-text/components/Signatures'
import { SignatureText } from './features/signature-text/components/SignatureText'
import { AdderTree } from './features/state/components/AdderTree'
import { DiffPanel } from './features/state/components/DiffPanel'
import { StatePanel } from './features/state/components/StatePanel'
import { diffStates } from './features/state/diff'
import { Timeline } from './features/timeline/Timeline'
import { SignersPanel } from './features/signers/components/SignersPanel'
import { Composer, type ComposeBase } from './features/compose/components/Composer'
import { FlowsPanel, HealthChip, isFlowId, useLogLimit, type FlowId } from './features/compose/flows/FlowsPanel'
import { usePublish } from './features/network/publish'
import { handleHolder, inboxBundle, nodeClient } from './features/network/queries'
import { fetchClaimPolicy } from '../network/claim-policy'
import { useSignerRegistry } from './features/signers/useSignerRegistry'
import type { ChainRouteWire } from '../worker/protocol'
import type { Row } from './trace/trace-model'
import {
  useInspector,
  type Busy,
  type Loaded,
  type ProgressStore,
  type Source,
  type StepWish,
} from './trace/useInspector'
import { ErrorBoundary } from './ui/ErrorBoundary'
import { CopyButton } from './ui/CopyButton'
import { KeysHelp } from './ui/KeysHelp'
import { clientTime, KIND_LABEL, shortId, STATUS_LABEL } from './ui/format'

const MAX_FILE = 64 * 1024 * 1024

function exampleSource(ex: Example, text: string): Source {
  return {
    kind: 'example',
    label: `example ${ex.name}`,
    name: ex.file,
    input: text,
    example: ex.name,
    verifier: ex.verifier,
  }
}

function baseName(s: Source): string {
  return (s.example ?? s.name).replace(/\.[a-z0-9]+$/i, '').replace(/[^a-zA-Z0-9._-]+/g, '-') || 'log'
}

export function App() {
  const [chainRoutes, setChainRoutes] = useChainRoutes()
  const ins = useInspector({ chainRoutes })
  const inspectorRetry = ins.retry
  const retry = useCallback(() => void inspectorRetry(), [inspectorRetry])
  // Every signer of this browser (wallets, passkeys, local keys, smart wallets on the chain routes); the composer gets it as `signerRegistry`.
  const signerRegistry = useSignerRegistry({ chainRoutes })
  // The network panel judges fetched logs' smart-wallet signatures on the same routes.
  const routesVerifier = signerRegistry.smartWallets.verifyContext.smartWallets
  const routesKey = chainRoutes.map(routeSpec).join(',')
  const networkChain = useMemo(
    () => (routesVerifier && chainRoutes.length > 0 ? { verifier: routesVerifier, key: routesKey } : undefined),
    [routesVerifier, routesKey, chainRoutes.length],
  )
  const [signersOpen, setSignersOpen] = useState(false)
  const { loaded, selection, busy, problem, open, setProblem } = ins
  const [panelOpen, setPanelOpen] = useState(false)
  const [z, setZ] = useState<{ loadId: number; value: string | null; why?: string } | null>(null)
  const filterInput = useRef<HTMLInputElement>(null)
  const booted = useRef(false)
  // What the user started always wins over what the app started on its own (the demo log
  // at first load): every user action bumps this, and the boot open gives way when it moved.
  const userActs = useRef(0)
  const userActed = useCallback(() => void userActs.current++, [])

  const openExample = useCallback(
    async (ex: Example, step?: StepWish, auto?: number) => {
      try {
        const text = await loadExample(ex)
        // Started by the app (auto: the user-action count then): give way to anything the user did since.
        if (auto !== undefined && auto !== userActs.current) return
        if ((await open(exampleSource(ex, text), step ? { step } : {})) && auto === undefined) setPanelOpen(false)
      } catch (e) {
        setProblem({ label: `example ${ex.name}`, message: e instanceof Error ? e.message : String(e) })
      }
    },
    [open, setProblem],
  )

  const openFragment = useCallback(
    async (f: Fragment, search: URLSearchParams, auto?: number) => {
      const url = search.get('url')
      const step = f.step
      const opts = { ...(step ? { step } : {}), ...(f.inbox !== undefined ? { logIndex: f.inbox } : {}) }
      if (url) {
        try {
          const bytes = await fetchLog(url)
          if (auto !== undefined && auto !== userActs.current) return
          await open({ kind: 'url', label: `URL ${url}`, name: url, input: bytes, url, verifier: 'none' }, opts)
        } catch (e) {
          setPanelOpen(true)
          setProblem({
            label: `URL ${url}`,
            message:
              e instanceof FetchLogError
                ? e.message
                : `could not open ${url}: ${e instanceof Error ? e.message : String(e)}`,
          })
        }
        return
      }
      if (f.log) {
        try {
          const bytes = await decompressLog(f.log)
          if (auto !== undefined && auto !== userActs.current) return
          const ed = f.edited
          const source: Source = ed
            ? {
                kind: 'permalink',
                label: `edited copy of ${ed.label}`,
                name: `${ed.example ?? 'permalink'}-edited`,
                input: bytes,
                verifier: 'none',
                edited: {
                  originalLabel: ed.label,
                  edits: ed.edits,
                  ...(ed.example ? { originalExample: ed.example } : {}),
                },
              }
            : { kind: 'permalink', label: 'the permalink', name: 'permalink', input: bytes, verifier: 'none' }
          if (!(await open(source, opts))) setPanelOpen(true)
        } catch (e) {
          setPanelOpen(true)
          setProblem({ label: 'The permalink', message: e instanceof PermalinkError ? e.message : String(e) })
        }
        return
      }
      if (f.example === undefined && readFetchAddress(search.toString()) !== null) return // RemotePanel opens it
      const name = f.example ?? DEFAULT_EXAMPLE
      const ex = findExample(name)
      if (!ex) {
        setPanelOpen(true)
        setProblem({
          label: `example ${name}`,
          message: `there is no built-in example named ${JSON.stringify(name)}; pick one from the gallery`,
        })
        return
      }
      await openExample(ex, step, auto)
    },
    [open, setProblem, openExample],
  )

  // First load: the address bar says what to open.
  useEffect(() => {
    if (booted.current) return
    booted.current = true
    void openFragment(parseFragment(location.hash), new URLSearchParams(location.search), userActs.current)
  }, [openFragment])

  // A permalink pasted into the address bar of an open page.
  useEffect(() => {
    const onHash = () => {
      const f = parseFragment(location.hash)
      const cur = loadedRef.current
      const sameLog =
        cur &&
        ((f.example && f.example === cur.source.example) ||
          (f.log && z?.value === f.log) ||
          (!f.example && !f.log && cur.source.kind === 'url'))
      if (sameLog && f.step && cur) {
        const k = cur.model.steps.findIndex((s) => s.sequenceId === f.step!.sequenceId)
        const r = cur.rows.find((x) => x.k === k && x.i === f.step!.action) ?? cur.rows.find((x) => x.k === k)
        if (r) ins.select(r)
      } else if (!sameLog) void openFragment(f, new URLSearchParams(location.search))
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  })
  const loadedRef = useRef<Loaded | null>(null)
  loadedRef.current = loaded

  // The compressed log for the permalink (pasted, file and permalink sources).
  useEffect(() => {
    if (!loaded) return
    const s = loaded.source
    if (s.kind === 'example' || s.kind === 'url') {
      setZ({ loadId: loaded.loadId, value: null })
      return
    }
    const bytes = typeof s.input === 'string' ? utf8(s.input) : s.input
    if (bytes.length > 8 * MAX_FRAGMENT) {
      setZ({ loadId: loaded.loadId, value: null, why: 'the log is too large to carry in a link' })
      return
    }
    let live = true
    compressLog(bytes, MAX_FRAGMENT).then(
      (value) => {
        if (!live) return
        if (value === null)
          setZ({
            loadId: loaded.loadId,
            value: null,
            why: `the log is too large to carry in a link (over ${MAX_FRAGMENT / 1024} KiB compressed)`,
          })
        else setZ({ loadId: loaded.loadId, value })
      },
      () => live && setZ({ loadId: loaded.loadId, value: null, why: 'the log could not be compressed' }),
    )
    return () => {
      live = false
    }
  }, [loaded])

  const selectedStep = loaded && selection ? loaded.model.steps[selection.k]! : null

  // Keep the address bar in step (replaceState: no history entry per keypress).
  const fragment = useMemo(() => {
    if (!loaded) return null
    const s = loaded.source
    const step = selectedStep && selection ? { sequenceId: selectedStep.sequenceId, action: selection.i } : undefined
    const f: Fragment = {
      ...(s.kind === 'example' ? { example: s.example! } : {}),
      ...((s.kind === 'paste' || s.kind === 'file' || s.kind === 'permalink') && z?.loadId === loaded.loadId && z.value
        ? { log: z.value, binary: typeof s.input !== 'string' && !isText(s.input) }
        : {}),
      ...(loaded.logIndex > 0 ? { inbox: loaded.logIndex } : {}),
      ...(step ? { step } : {}),
      ...(s.edited
        ? {
            edited: {
              edits: s.edited.edits,
              label: s.edited.originalLabel,
              ...(s.edited.originalExample ? { example: s.edited.originalExample } : {}),
            },
          }
        : {}),
    }
    const linkable = s.kind === 'example' || s.kind === 'url' || !!f.log
    return {
      hash: linkable ? formatFragment(f) : '',
      search: s.kind === 'url' ? `?url=${encodeURIComponent(s.url!)}` : '',
      linkable,
    }
  }, [loaded, selectedStep, selection, z])

  useEffect(() => {
    if (!fragment) return
    const t = setTimeout(() => {
      const next = `${location.pathname}${fragment.search}${fragment.hash}`
      if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', next)
    }, 250)
    return () => clearTimeout(t)
  }, [fragment])

  const onPaste = useCallback(
    (text: string) => {
      userActed()
      void open({ kind: 'paste', label: 'The pasted text', name: 'pasted', input: text, verifier: 'none' }).then(
        (ok) => ok && setPanelOpen(false),
      )
    },
    [open, userActed],
  )
  const onFile = useCallback(
    async (file: File) => {
      userActed()
      if (file.size > MAX_FILE) {
        setProblem({
          label: `file ${file.name}`,
          message: `${file.name} is ${file.size} bytes; the inspector opens files up to ${MAX_FILE} bytes`,
        })
        return
      }
      let bytes: Uint8Array
      try {
        bytes = new Uint8Array(await file.arrayBuffer())
      } catch (e) {
        setProblem({
          label: `file ${file.name}`,
          message: `${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}`,
        })
        return
      }
      if (await open({ kind: 'file', label: `file ${file.name}`, name: file.name, input: bytes, verifier: 'none' }))
        setPanelOpen(false)
    },
    [open, setProblem, userActed],
  )
  const onFileVoid = useCallback((f: File) => void onFile(f), [onFile])
  const onUrl = useCallback(
    (url: string) => {
      userActed()
      history.replaceState(null, '', `${location.pathname}?url=${encodeURIComponent(url)}`)
      void openFragment({}, new URLSearchParams({ url }))
    },
    [openFragment, userActed],
  )
  const onExample = useCallback(
    (ex: Example) => {
      userActed()
      void openExample(ex)
    },
    [openExample, userActed],
  )
  // Edit mode (features/edit): edited copies of the open log, replayed like any log.
  const [editOpen, setEditOpen] = useState(false)
  const openExampleNamed = useCallback(
    (name: string) => {
      const ex = findExample(name)
      if (ex) void openExample(ex)
    },
    [openExample],
  )
  const edit = useEditSession({ loaded, open, openExample: openExampleNamed })
  const [nodeUrl, setNodeUrl] = useNodeUrl()
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
    (handle: string) => handleHolder(nodeUrl, handle, signerRegistry.smartWallets.verifyContext.smartWallets),
    [nodeUrl, signerRegistry.smartWallets.verifyContext.smartWallets],
  )
  // A log fetched from the node opens at its head: the node's answer is about the newest state.
  const onNodeLog = useCallback(
    (l: OpenNodeLog) => {
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
  const onRemoteLog = useCallback(
    (l: OpenRemoteLog) =>
      void open(
        { kind: 'paste', label: l.label, name: `remote-${l.inboxId}`, input: l.bundle, verifier: 'none' },
        l.headSequenceId === null ? {} : { step: { sequenceId: l.headSequenceId, action: 0 } },
      ),
    [open],
  )
  const closePanel = useCallback(() => setPanelOpen(false), [])
  const onDrop = (e: DragEvent) => {
    if (e.defaultPrevented) return
    const f = e.dataTransfer.files[0]
    if (f) {
      e.preventDefault()
      void onFile(f)
    }
  }

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

  // Escape closes the panel on top (signing playground, signers, open log), unless
  // something inside handled it first (a dialog, the timeline filter).
  const panels = useRef({
    playgroundOpen,
    signersOpen,
    editOpen,
    flowOpen: flow !== null,
    panelOpen: panelOpen && !!loaded,
  })
  panels.current = { playgroundOpen, signersOpen, editOpen, flowOpen: flow !== null, panelOpen: panelOpen && !!loaded }
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
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [setFlow])
  const select: (r: Row) => void = ins.select

  return (
    <div className="app" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <a className="skip-link" href="#step-details">
        Skip to the selected step
      </a>
      <header className="topbar" ref={topbar}>
        <h1>Inbox Inspector</h1>
        {loaded && (
          <div className={loaded.source.edited ? 'source edited' : 'source'} aria-label="Open log">
            <span className="muted">{loaded.source.label}</span>
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
        <div className="spacer" />
        {busy && <BusyBar busy={busy} progress={ins.progress} onCancel={ins.cancel} />}
        <button
          type="button"
          className={showPanel ? 'active' : ''}
          aria-expanded={showPanel}
          onClick={() => setPanelOpen(!panelOpen)}
        >
          Open log…
        </button>
        <button
          type="button"
          className={signersOpen ? 'active' : ''}
          aria-expanded={signersOpen}
          onClick={() => setSignersOpen(!signersOpen)}
        >
          Signers…
        </button>
        <button
          type="button"
          className={playgroundOpen ? 'active' : ''}
          aria-expanded={playgroundOpen}
          onClick={() => setPlaygroundOpen(!playgroundOpen)}
        >
          Sign…
        </button>
        {loaded && (
          <button
            type="button"
            className={editOpen ? 'active' : ''}
            aria-expanded={editOpen}
            onClick={() => setEditOpen(!editOpen)}
          >
            Edit…
          </button>
        )}
        {loaded && (
          <button
            type="button"
            className={flow !== null ? 'active' : ''}
            aria-expanded={flow !== null}
            onClick={() => setFlow(flow === null ? 'health' : null)}
          >
            Inbox tasks…
          </button>
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
        <ThemeToggle />
      </header>
      <KeysHelp />
      <ErrorBoundary label="The network panel">
        <NetworkPanel
          baseUrl={nodeUrl}
          onOpenLog={onNodeLog}
          settings={<NodeUrlField url={nodeUrl} onChange={setNodeUrl} />}
          chain={networkChain}
        />
      </ErrorBoundary>
      <ErrorBoundary label="The real networks panel">
        <RemotePanel localNodeUrl={nodeUrl} onOpenLog={onRemoteLog} />
      </ErrorBoundary>
      <ErrorBoundary label="The chain routes">
        <ChainRoutesField routes={chainRoutes} onChange={setChainRoutes} />
      </ErrorBoundary>
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
            <SignersPanel registry={signerRegistry} onClose={() => setSignersOpen(false)} />
          </ErrorBoundary>
        </div>
      )}
      {playgroundOpen && (
        <div className="drawer" data-drawer="sign">
          <ErrorBoundary label="The signing playground">
            <Composer
              registry={signerRegistry}
              base={composeBase}
              onAppend={ins.append}
              localNewest={ins.newestApplied}
              nodeUrl={nodeUrl}
              publish={publish}
              queryNewest={queryNewest}
              lookupHandle={lookupHandle}
              smartWallets={signerRegistry.smartWallets.verifyContext.smartWallets}
              onClose={() => setPlaygroundOpen(false)}
            />
          </ErrorBoundary>
        </div>
      )}
      {flow !== null && loaded && (
        <div className="drawer" data-drawer="flows">
          <ErrorBoundary label="The inbox tasks">
            <FlowsPanel
              registry={signerRegistry}
              state={composeBase.state}
              blocked={composeBase.blocked}
              logEntries={loaded.model.steps.length}
              logLimit={logLimit}
              onLogLimit={setLogLimit}
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
              smartWallets={signerRegistry.smartWallets.verifyContext.smartWallets}
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
              signers={signerRegistry.signers}
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
              onFile={onFileVoid}
              onUrl={onUrl}
              onExample={onExample}
              current={loaded?.source.example}
              onClose={loaded ? closePanel : undefined}
            />
          </ErrorBoundary>
        </div>
      )}
      {loaded && (
        <main className="workspace">
          <ErrorBoundary label="The timeline" resetKey={loaded.loadId}>
            <Timeline
              model={loaded.model}
              rows={loaded.rows}
              selection={selection}
              onSelect={select}
              filterInput={filterInput}
            />
          </ErrorBoundary>
          <div className="details" id="step-details" tabIndex={-1}>
            <Exports
              steps={loaded.model.steps}
              inboxId={loaded.inboxId}
              selected={selectedStep}
              report={loaded.report}
              base={baseName(loaded.source)}
            />
            {selection && selectedStep ? (
              <StepDetails
                loaded={loaded}
                k={selection.k}
                i={selection.i}
                routes={chainRoutes}
                onRetry={retry}
                retrying={busy !== null}
              />
            ) : (
              <p className="empty">The log has no updates.</p>
            )}
          </div>
        </main>
      )}
    </div>
  )
}

function isText(b: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, 4096))
    return true
  } catch {
    return false
  }
}

function BusyBar({ busy, progress, onCancel }: { busy: Busy; progress: ProgressStore; onCancel: () => void }) {
  const { done, total } = useSyncExternalStore(progress.subscribe, progress.get)
  return (
    <div className="busy" role="status" aria-live="polite">
      <span>
        {busy.phase === 'reading'
          ? `Reading ${busy.label}…`
          : `Replaying ${done.toLocaleString('en')} of ${total.toLocaleString('en')} updates`}
      </span>
      <progress
        aria-label="Replay progress"
        max={Math.max(1, total)}
        value={busy.phase === 'reading' ? undefined : done}
      />
      <button type="button" onClick={onCancel} aria-label="Cancel replay">
        Cancel
      </button>
    </div>
  )
}

function LogVerdict({ loaded }: { loaded: Loaded }) {
  const stop = loaded.model.stopIndex()
  if (loaded.ok) return <span className="badge ok">every update applies</span>
  if (stop < 0) return <span className="badge bad">not every update applies</span>
  const s = loaded.model.steps[stop]!
  return (
    <span className={`badge ${s.status === 'pending' ? 'warn' : 'bad'}`}>
      stops at sequence id {s.sequenceId.toString()}: {s.status === 'pending' ? 'pending' : s.rule}
    </span>
  )
}

const StepDetails = memo(function StepDetails({
  loaded,
  k,
  i,
  routes,
  onRetry,
  retrying,
}: {
  loaded: Loaded
  k: number
  i: number
  /** The chain routes, for the evidence of erc_6492 signatures. */
  routes: readonly ChainRouteWire[]
  /** Replays the log again (a pending update's Retry, IDENT-061). */
  onRetry: () => void
  retrying: boolean
}) {
  const { model } = loaded
  const step = model.steps[k]!
  const view = model.actionView(k, i)
  const diff = useMemo(() => diffStates(view.before, view.after, view.touched), [view.before, view.after, view.touched])
  const status =
    i >= 0
      ? model.actionStatus(k, i)
      : step.status === 'applied'
        ? 'applied'
        : step.status === 'pending'
          ? 'pending'
          : step.status === 'rejected'
            ? 'rejected'
            : 'not_applied'
  const action = i >= 0 ? step.update?.actions[i] : undefined
  const n = step.update?.actions.length ?? 0
  const seq = step.sequenceId.toString()
  const stop = model.stopIndex()
  const caption =
    status === 'applied'
      ? `After ${n > 1 ? `action ${i} of ` : ''}sequence id ${seq}${i === n - 1 ? '' : ' (within the update)'}`
      : status === 'rolled_back'
        ? `After action ${i} of sequence id ${seq}, tentatively: the update was rejected, so this state was never kept`
        : `Unchanged at sequence id ${seq}: ${STATUS_LABEL[status]}`
  const tentative =
    status === 'rolled_back'
      ? `Rolled back: a later action of this update failed, so the whole update is rejected and this change was not kept (IDENT-002).`
      : status === 'rejected'
        ? 'This action failed, so the update changes nothing.'
        : null
  const entriesUsed = model.appliedThrough(k)
  const scope = i >= 0 && n > 1 ? `Signatures of action ${i} (of ${n} in the update).` : 'Signatures of the update.'
  return (
    <div className="step">
      <div className="step-summary" aria-live="polite">
        <h2 className="sr-only">Selected step</h2>
        <span className={`badge st-${status}`}>{STATUS_LABEL[status]}</span> <strong>sequence id {seq}</strong>
        {n > 0 && <span>{n > 1 ? ` · action ${i} of ${n}` : ''}</span>}
        {action && <span> · {KIND_LABEL[action.kind]}</span>}
        {step.update && <span className="muted"> · client time {clientTime(step.update.clientTimestampNs)}</span>}
        {step.serverTimestampNs !== undefined && (
          <span className="muted"> · server time {clientTime(step.serverTimestampNs)}</span>
        )}
      </div>
      <ErrorBoundary label="The rejection" resetKey={`${loaded.loadId}:${k}`}>
        <Rejection step={step} stopAt={stop >= 0 ? model.steps[stop]! : null} onRetry={onRetry} retrying={retrying} />
      </ErrorBoundary>
      <div className="grid">
        <ErrorBoundary label="The state panel" resetKey={`${loaded.loadId}:${k}:${i}`}>
          <StatePanel
            state={view.after}
            before={view.before}
            diff={diff}
            caption={caption}
            entriesUsed={entriesUsed}
            entriesTotal={model.steps.length}
          />
        </ErrorBoundary>
        <ErrorBoundary label="The who-added-whom picture" resetKey={`${loaded.loadId}:${k}:${i}`}>
          <AdderTree state={view.after} before={view.before} diff={diff} />
        </ErrorBoundary>
        <ErrorBoundary label="The diff" resetKey={`${loaded.loadId}:${k}:${i}`}>
          <DiffPanel
            diff={diff}
            tentative={tentative}
            caption={`From the state before ${n > 1 ? `action ${i} of ` : ''}sequence id ${seq}.`}
          />
        </ErrorBoundary>
        <ErrorBoundary label="The signature text" resetKey={`${loaded.loadId}:${k}`}>
          <SignatureText text={step.signatureText} actionIndex={i} bytesSource={step.update?.bytesSource} />
        </ErrorBoundary>
        <ErrorBoundary label="The signatures" resetKey={`${loaded.loadId}:${k}:${i}`}>
          <Signatures checks={model.signaturesOf(k, i)} scope={scope} routes={routes} text={step.signatureText} />
        </ErrorBoundary>
      </div>
      <ErrorBoundary label="The raw view" resetKey={`${loaded.loadId}:${k}`}>
        <RawView bytes={step.bytes} bytesSource={step.update?.bytesSource} />
      </ErrorBoundary>
    </div>
  )
})
