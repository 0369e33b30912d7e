/**
 * The selected step: its summary line, the rejection's fix-it above everything, then its
 * views in tabs (State with the who-added-whom picture, Diff against any step, Signature
 * text, Signatures, Raw, and Chain when a signature is a smart contract wallet's). Each
 * view sits in its own error boundary; only the open tab is rendered.
 */
import { memo, Suspense, useCallback, useMemo } from 'react'
import { lazyModule } from '../ui/lazy-again'
import { AdderTree } from '../features/state/components/AdderTree'
import type { CompareOption } from '../features/state/components/DiffPanel'
import { StatePanel } from '../features/state/components/StatePanel'
import { compareSteps, rowLabel } from '../features/state/diff'
import { diffStates } from '../model/state-diff'
import type { Row, TraceModel } from '../trace/trace-model'
import type { Loaded } from '../trace/useInspector'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import { clientTime, KIND_LABEL, STATUS_LABEL } from '../ui/format'
import { LinkedProvider } from '../ui/Linked'
import { Tabs } from '../ui/Tabs'
import { activeTab, tabsFor, type TabId } from './step-tabs'

// The Chain tab reads the chain through viem: a lazy chunk, loaded when the tab opens.
const ChainTab = lazyModule(
  () => import('../features/signature-text/components/Evidence'),
  (m) => m.ChainTab,
)
// Why an update did not apply (with the spec's rule texts): a lazy chunk, loaded when a
// step that did not apply is first selected (the demo log's steps all apply).
const Rejection = lazyModule(
  () => import('../features/signature-text/components/Rejection'),
  (m) => m.Rejection,
)
// The tabs the first screen does not show (it opens on State) are lazy chunks too, each
// loaded when its tab first opens.
const RawView = lazyModule(
  () => import('../features/raw/components/RawView'),
  (m) => m.RawView,
)
const SignatureText = lazyModule(
  () => import('../features/signature-text/components/SignatureText'),
  (m) => m.SignatureText,
)
const Signatures = lazyModule(
  () => import('../features/signature-text/components/Signatures'),
  (m) => m.Signatures,
)
const DiffPanel = lazyModule(
  () => import('../features/state/components/DiffPanel'),
  (m) => m.DiffPanel,
)
const loadingTab = <p className="muted">Loading…</p>

const PREVIOUS = 'previous'
const rowValue = (r: Row): string => `${r.k}:${r.i}`

/** The row that stands for the state after update k as a whole: its last action. */
function lastRowOf(model: TraceModel, k: number): Row {
  const n = model.steps[k]!.update?.actions.length ?? 0
  return { k, i: n > 0 ? n - 1 : -1 }
}

/** One "Compare with…" option per update (the state after it), built once per log. */
function compareOptions(model: TraceModel): CompareOption[] {
  const out: CompareOption[] = [{ value: PREVIOUS, label: 'the previous step (default)' }]
  model.steps.forEach((s, k) => {
    const kinds = (s.update?.actions ?? []).map((a) => KIND_LABEL[a.kind])
    const what = kinds.length > 3 ? `${kinds.slice(0, 3).join(', ')}, …` : kinds.join(', ') || 'undecodable'
    out.push({
      value: rowValue(lastRowOf(model, k)),
      label: `after sequence id ${s.sequenceId} (${what}${s.status === 'applied' ? '' : `, ${s.status.replace('_', ' ')}`})`,
    })
  })
  return out
}

export const StepDetails = memo(function StepDetails({
  loaded,
  k,
  i,
  onRetry,
  retrying,
  tab,
  onTab,
  base,
  onBase,
  onSelect,
}: {
  loaded: Loaded
  k: number
  i: number
  /** Replays the log again (a pending update's Retry, IDENT-061). */
  onRetry: () => void
  retrying: boolean
  /** The tab the user chose (kept from step to step), or null for the step's own default. */
  tab: TabId | null
  onTab: (t: TabId) => void
  /** The Diff tab's base: null for the previous step. */
  base: Row | null
  onBase: (r: Row | null) => void
  /** Selects a step (an action chosen in a linked view). */
  onSelect: (r: Row) => void
}) {
  const { model } = loaded
  const step = model.steps[k]!
  const view = model.actionView(k, i)
  const diff = useMemo(() => diffStates(view.before, view.after, view.touched), [view.before, view.after, view.touched])
  const status = model.statusOf(k, i)
  const action = i >= 0 ? step.update?.actions[i] : undefined
  const n = step.update?.actions.length ?? 0
  const seq = step.sequenceId.toString()
  const stop = model.stopIndex()
  const checks = model.signaturesOf(k, i)
  // The text is the whole update's, so beside it stand every action's signatures.
  const allChecks = model.signaturesOf(k, -1)
  const tabs = useMemo(() => tabsFor(checks), [checks])
  const shown = activeTab(tab, step, tabs)
  const showText = useCallback(() => {
    onTab('text')
    requestAnimationFrame(() => document.getElementById('step-tab-text')?.focus())
  }, [onTab])
  const showChain = useCallback(() => onTab('chain'), [onTab])
  const selectAction = useCallback((j: number) => onSelect({ k, i: j }), [onSelect, k])
  const reset = `${loaded.loadId}:${k}:${i}`
  const update = `${loaded.loadId}:${k}`
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
      {step.status !== 'applied' && (
        <ErrorBoundary label="The rejection" resetKey={`${loaded.loadId}:${k}`}>
          <Suspense fallback={null}>
            <Rejection
              step={step}
              stopAt={stop >= 0 ? model.steps[stop]! : null}
              onRetry={onRetry}
              retrying={retrying}
              onShowText={showText}
            />
          </Suspense>
        </ErrorBoundary>
      )}
      {/* Not keyed by the step: a step re-renders the open view instead of mounting it again
          (the state panel keeps its member rows); the views with state of their own per
          update (the text, signatures, raw and chain views) are keyed by it below. */}
      <LinkedProvider resetKey={update} selectedAction={i} onSelectAction={selectAction}>
        <Tabs tabs={tabs} active={shown} onChange={onTab} label="Views of the selected step" idPrefix="step">
          <Suspense fallback={loadingTab}>
            {shown === 'state' && (
              <StateTab
                loaded={loaded}
                k={k}
                i={i}
                status={status}
                view={view}
                diff={diff}
                reset={reset}
                update={update}
              />
            )}
            {shown === 'diff' && (
              <ErrorBoundary label="The diff" resetKey={`${reset}:${base ? rowValue(base) : PREVIOUS}`}>
                <DiffTab model={model} k={k} i={i} status={status} base={base} onBase={onBase} />
              </ErrorBoundary>
            )}
            {shown === 'text' && (
              // Linked views (model/linked.ts): the text beside the signature cards, as jwt.io
              // puts a token's parts beside their meaning; one column on a narrow screen.
              <div className="linked-pair" key={update}>
                <ErrorBoundary label="The signature text" resetKey={`${loaded.loadId}:${k}`}>
                  <SignatureText text={step.signatureText} actionIndex={i} bytesSource={step.update?.bytesSource} />
                </ErrorBoundary>
                <ErrorBoundary label="The signatures" resetKey={reset}>
                  <Signatures
                    checks={allChecks}
                    scope={n > 1 ? `All ${n} actions' signatures, beside the text they signed.` : scope}
                    text={step.signatureText}
                    onChain={tabs.some((t) => t.id === 'chain') ? showChain : undefined}
                  />
                </ErrorBoundary>
              </div>
            )}
            {shown === 'signatures' && (
              <ErrorBoundary key={update} label="The signatures" resetKey={reset}>
                <Signatures
                  checks={checks}
                  scope={scope}
                  text={step.signatureText}
                  onChain={tabs.some((t) => t.id === 'chain') ? showChain : undefined}
                />
              </ErrorBoundary>
            )}
            {shown === 'raw' && (
              // The bytes beside the text they sign: pointing at a field marks its lines.
              <div className="linked-pair" key={update}>
                <ErrorBoundary label="The raw view" resetKey={`${loaded.loadId}:${k}`}>
                  <RawView bytes={step.bytes} bytesSource={step.update?.bytesSource} />
                </ErrorBoundary>
                <ErrorBoundary label="The signature text" resetKey={`${loaded.loadId}:${k}`}>
                  <SignatureText text={step.signatureText} actionIndex={i} bytesSource={step.update?.bytesSource} />
                </ErrorBoundary>
              </div>
            )}
            {shown === 'chain' && (
              <ErrorBoundary key={update} label="The chain evidence" resetKey={reset}>
                <ChainTab checks={checks} scope={scope} />
              </ErrorBoundary>
            )}
          </Suspense>
        </Tabs>
      </LinkedProvider>
    </div>
  )
})

type Status = ReturnType<TraceModel['actionStatus']>

function StateTab({
  loaded,
  k,
  i,
  status,
  view,
  diff,
  reset,
  update,
}: {
  loaded: Loaded
  k: number
  i: number
  status: Status
  view: ReturnType<TraceModel['actionView']>
  diff: ReturnType<typeof diffStates>
  reset: string
  /** The update in view: the state panel's "show more" resets when it changes. */
  update: string
}) {
  const { model } = loaded
  const step = model.steps[k]!
  const n = step.update?.actions.length ?? 0
  const seq = step.sequenceId.toString()
  const caption =
    status === 'applied'
      ? `After ${n > 1 ? `action ${i} of ` : ''}sequence id ${seq}${i === n - 1 ? '' : ' (within the update)'}`
      : status === 'rolled_back'
        ? `After action ${i} of sequence id ${seq}, tentatively: the update was rejected, so this state was never kept`
        : `Unchanged at sequence id ${seq}: ${STATUS_LABEL[status]}`
  return (
    <div className="tab-state">
      <ErrorBoundary label="The state panel" resetKey={reset}>
        <StatePanel
          state={view.after}
          before={view.before}
          diff={diff}
          caption={caption}
          entriesUsed={model.appliedThrough(k)}
          entriesTotal={model.steps.length}
          resetKey={update}
        />
      </ErrorBoundary>
      <ErrorBoundary label="The who-added-whom picture" resetKey={reset}>
        <AdderTree state={view.after} before={view.before} diff={diff} />
      </ErrorBoundary>
    </div>
  )
}

function DiffTab({
  model,
  k,
  i,
  status,
  base,
  onBase,
}: {
  model: TraceModel
  k: number
  i: number
  status: Status
  base: Row | null
  onBase: (r: Row | null) => void
}) {
  const all = useMemo(() => compareOptions(model), [model])
  const pinned = base !== null && rowValue(base) !== rowValue(lastRowOf(model, base.k))
  const options = useMemo(
    () =>
      pinned && base
        ? [all[0]!, { value: rowValue(base), label: `after ${rowLabel(model, base)} (pinned)` }, ...all.slice(1)]
        : all,
    [all, pinned, base, model],
  )
  const d = useMemo(() => compareSteps(model, { k, i }, base), [model, k, i, base])
  const tentative =
    status === 'rolled_back'
      ? `Rolled back: a later action of this update failed, so the whole update is rejected and this change was not kept (IDENT-002).`
      : status === 'rejected'
        ? 'This action failed, so the update changes nothing.'
        : null
  const onCompare = useCallback(
    (v: string) => {
      if (v === PREVIOUS) return onBase(null)
      const [bk, bi] = v.split(':').map(Number)
      onBase({ k: bk!, i: bi! })
    },
    [onBase],
  )
  return (
    <DiffPanel
      diff={d}
      tentative={tentative}
      options={options}
      value={base ? rowValue(base) : PREVIOUS}
      onCompare={onCompare}
    />
  )
}
