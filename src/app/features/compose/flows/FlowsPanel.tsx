/**
 * Guided flows for inbox owners (issue 15): the inbox's health, and task-shaped flows on
 * top of the composer's signing (useSignDraft): clean up installations in one update,
 * claim a handle, rotate the recovery identifier. Each says in plain words what will
 * change before any prompt, shows the core's dry run (never rules of its own), refuses
 * with the rule when the core says no, and ends with the signed update appended to the
 * open log and published to the node (kept and exportable when the node refuses or
 * cannot be reached). Reachable by URL: `?flow=health|cleanup|claim|recovery`.
 */
import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react'
import { bytesToHex } from '../../../../crypto/bytes'
import { describeMember } from '../../../../core/text/identifier'
import { memberKey, type AssociationState } from '../../../../core/types'
import type { SmartWalletVerifier } from '../../../../core/verify/port'
import { useChainRoutesContext, useSignerRegistryContext } from '../../../model/app-context'
import type { SignerRegistry } from '../../../model/app-signer'
import { claimPolicyProblem, type ClaimPolicy } from '../../../../network/claim-policy'
import { clientTime, shortId } from '../../../ui/format'
import { buildDraft, EMPTY_FORM, eligible, partiesOf, TYPED, withDefaults, type ComposeBuild } from '../compose-model'
import { DryRunView, SignatureTextBlock, SlotsView } from '../components/DraftView'
import { SignedView } from '../components/SignedView'
import { nowNs } from '../useComposer'
import { type AppendUpdate, type PublishAnswerLike, useSignDraft } from '../useSignDraft'
import { allButMine, buildCleanup } from './cleanup'
import { parseCeiling } from '../registration-flow'
import { setCeiling, useCeiling } from '../useCeiling'
import {
  inboxHealth,
  LAST_ENTRIES,
  loadLogLimit,
  parseLogLimit,
  saveLogLimit,
  spendWarning,
  type InboxHealth,
} from './health'

const FLOWS = ['health', 'cleanup', 'claim', 'recovery'] as const
export type FlowId = (typeof FLOWS)[number]
const FLOW_TITLE: Record<FlowId, string> = {
  health: 'Inbox health',
  cleanup: 'Clean up installations',
  claim: 'Claim a handle',
  recovery: 'Rotate recovery',
}

export function isFlowId(s: string | null): s is FlowId {
  return s !== null && (FLOWS as readonly string[]).includes(s)
}

/** Who holds a handle on the node, checked against that inbox's own log (IDENT-085). */
interface HandleHolderLike {
  readonly inboxId: string | null
  readonly backed: boolean
  readonly reason: string
}

export interface FlowsProps {
  /** The open log's head state; null when no inbox is open. */
  readonly state: AssociationState | null
  /** Why the open log takes no new update (it stops at a rejected or pending update); null when it does. */
  readonly blocked: string | null
  /** Updates in the open log (each one a stored entry on the network). */
  readonly logEntries: number
  /** The deployment's limit of stored updates per inbox (useLogLimit; set in the Settings dialog). */
  readonly logLimit: number
  /** Opens the Settings dialog, where the log limit is set. */
  readonly onSettings: () => void
  readonly flow: FlowId
  readonly onFlow: (flow: FlowId) => void
  readonly onAppend: AppendUpdate
  readonly publish: (bytes: Uint8Array, options?: { readonly inboxId?: string }) => Promise<PublishAnswerLike>
  readonly nodeUrl: string
  readonly lookupHandle?: (handle: string) => Promise<string | null>
  readonly handleHolder?: (handle: string) => Promise<HandleHolderLike>
  /** The node's published claim policy (null when it publishes none), asked before a claim is signed. */
  readonly claimPolicy?: () => Promise<ClaimPolicy | null>
  /** The node's newest sequence id for an inbox (QueryNewest), or null when it holds none. */
  readonly queryNewest?: (inboxId: string) => Promise<bigint | null>
  /** Opens the inbox's log as the node serves it now (replacing the open log). */
  readonly refetch?: (inboxId: string) => Promise<void>
  readonly onClose: () => void
}

export function FlowsPanel(props: FlowsProps) {
  const headId = useId()
  const { state } = props
  // The deployment's limit of stored updates per inbox (a setting, default 256).
  const { logLimit, onSettings } = props
  // The installation ceiling the registration uses (a setting, CONF-044).
  const ceiling = useCeiling()
  // The signers and the chain routes' verifier, from the providers layer.
  const registry = useSignerRegistryContext()
  const smartWallets = useChainRoutesContext().verifier
  const shared = { ...props, registry, smartWallets }
  const health = useMemo(
    () => (state ? inboxHealth(state, { logEntries: props.logEntries, logLimit, ceiling }) : null),
    [state, props.logEntries, logLimit, ceiling],
  )
  return (
    <section className="compose panel flows" aria-labelledby={headId}>
      <div className="compose-head">
        <h2 id={headId}>Inbox tasks</h2>
        <div className="spacer" />
        <div
          role="tablist"
          aria-label="Inbox task"
          className="compose-tabs"
          onKeyDown={(e) => {
            if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
            e.preventDefault()
            const i = FLOWS.indexOf(props.flow)
            const next = FLOWS[(i + (e.key === 'ArrowRight' ? 1 : FLOWS.length - 1)) % FLOWS.length]!
            props.onFlow(next)
            e.currentTarget.querySelector<HTMLButtonElement>(`[data-flow="${next}"]`)?.focus()
          }}
        >
          {FLOWS.map((f) => (
            <button
              key={f}
              type="button"
              role="tab"
              data-flow={f}
              aria-selected={props.flow === f}
              tabIndex={props.flow === f ? 0 : -1}
              onClick={() => props.onFlow(f)}
            >
              {FLOW_TITLE[f]}
            </button>
          ))}
        </div>
        <button type="button" onClick={props.onClose} aria-label="Close the inbox tasks">
          Close
        </button>
      </div>
      {!state || !health ? (
        <p className="note">Open an inbox's log first: the tasks work on the state replayed from it.</p>
      ) : props.flow === 'health' ? (
        <HealthView health={health} state={state} onFlow={props.onFlow} onSettings={onSettings} />
      ) : props.blocked ? (
        <p className="note warn">
          {props.blocked} A task signs an update on top of the head state, so it needs a log whose every update applies.
        </p>
      ) : props.flow === 'cleanup' ? (
        <CleanupFlow {...shared} state={state} health={health} ceiling={ceiling} />
      ) : props.flow === 'claim' ? (
        <ClaimFlow {...shared} state={state} health={health} />
      ) : (
        <RecoveryFlow {...shared} state={state} health={health} />
      )}
    </section>
  )
}

// ---- health ------------------------------------------------------------------------------

/** The deployment's log limit setting (default 256), kept in localStorage. */
export function useLogLimit(): [number, (limit: number) => void] {
  const [limit, setLimit] = useState(() => loadLogLimit(localStore()))
  const set = useCallback((n: number) => {
    saveLogLimit(localStore(), n)
    setLimit(n)
  }, [])
  return [limit, set]
}

/**
 * A whole-number setting of the Settings dialog: saved as it is typed whenever it parses;
 * otherwise the problem is shown beside the value still in use. A value changed elsewhere
 * (the registration form's ceiling field) replaces the text.
 */
function WholeNumberSetting({
  label,
  name,
  size,
  value,
  parse,
  onChange,
}: {
  label: string
  name: string
  size: number
  value: number
  parse: (text: string) => { ok: true; value: number } | { ok: false; problem: string }
  onChange: (n: number) => void
}) {
  const [text, setText] = useState(String(value))
  useEffect(() => {
    setText((t) => {
      const p = parse(t)
      return p.ok && p.value === value ? t : String(value)
    })
  }, [value, parse])
  const parsed = parse(text)
  return (
    <label className="compose-field log-limit-setting">
      <span>{label}</span>
      <input
        aria-label={name}
        inputMode="numeric"
        size={size}
        value={text}
        aria-invalid={!parsed.ok}
        onChange={(e) => {
          setText(e.target.value)
          const p = parse(e.target.value)
          if (p.ok) onChange(p.value)
        }}
      />
      {!parsed.ok && (
        <span role="alert" className="bad small">
          {parsed.problem}; still using {value}
        </span>
      )}
    </label>
  )
}

/** The log limit setting, in the Settings dialog. */
export function LogLimitSetting({ limit, onChange }: { limit: number; onChange: (limit: number) => void }) {
  return (
    <WholeNumberSetting
      label="Log limit of this deployment (updates per inbox; the network stores no more and never compacts)"
      name="Log limit"
      size={8}
      value={limit}
      parse={parseLogLimit}
      onChange={onChange}
    />
  )
}

/** The installation ceiling setting (CONF-044), in the Settings dialog; the registration shows the same value. */
export function CeilingSetting() {
  return (
    <WholeNumberSetting
      label="Installation ceiling (CONF-044: this app registers no installation beyond it)"
      name="Installation ceiling"
      size={6}
      value={useCeiling()}
      parse={parseCeiling}
      onChange={setCeiling}
    />
  )
}

/** The header's one-line health of the open inbox: log entries used against the limit; opens the health view. */
export function HealthChip({ entries, limit, onOpen }: { entries: number; limit: number; onOpen: () => void }) {
  const left = limit - entries
  const tone = left <= 0 ? 'bad' : left <= LAST_ENTRIES ? 'warn' : 'ok'
  return (
    <button
      type="button"
      className={`link small health-chip tone-${tone}`}
      onClick={onOpen}
      title="Inbox health: entries, installations, handles, recovery"
    >
      {left <= 0 ? 'log full: ' : ''}
      {entries.toLocaleString('en')} of {limit.toLocaleString('en')} log entries
    </button>
  )
}

function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const tone = used >= limit ? 'bad' : limit - used <= 3 ? 'warn' : 'ok'
  return (
    <div className={`meter tone-${tone}`}>
      <span>{label}</span>
      <meter aria-label={label} min={0} max={Math.max(1, limit)} value={Math.min(used, limit)} />
      <strong>
        {used.toLocaleString('en')} of {limit.toLocaleString('en')}
      </strong>
    </div>
  )
}

function HealthView({
  health,
  state,
  onFlow,
  onSettings,
}: {
  health: InboxHealth
  state: AssociationState
  onFlow: (f: FlowId) => void
  onSettings: () => void
}) {
  const h = health
  return (
    <div className="compose-body flow-health" aria-label="Inbox health">
      <p className="muted small">
        Inbox <code title={h.inboxId}>{shortId(h.inboxId)}</code> at sequence id {state.sequenceId.toString()}, as this
        browser replayed it (IDENT-071).
      </p>
      {h.warnings.length > 0 && (
        <ul className="flow-warnings" aria-label="Warnings">
          {h.warnings.map((w) => (
            <li key={w} className="note warn">
              {w}
            </li>
          ))}
        </ul>
      )}
      <div className="meters">
        <Meter label="Log entries used" used={h.entries.used} limit={h.entries.limit} />
        <Meter label="Installations" used={h.installations.count} limit={h.installations.ceiling} />
        <Meter label="Handle claims" used={h.handles.claimCount} limit={64} />
      </div>
      <p className="small">
        Log limit of this deployment: {h.entries.limit.toLocaleString('en')} updates per inbox ·{' '}
        <button type="button" className="link" onClick={onSettings}>
          change it in Settings…
        </button>
      </p>
      <dl className="kv">
        <dt>Display handle</dt>
        <dd>{h.handles.current ?? <span className="muted">none</span>}</dd>
        {h.handles.others.length > 0 && (
          <>
            <dt>Other handles</dt>
            <dd>{h.handles.others.join(', ')}</dd>
          </>
        )}
        <dt>Recovery identifier</dt>
        <dd>
          {describeMember(h.recovery.id)}{' '}
          <span className="muted">
            (
            {h.recovery.isMember
              ? 'also a member'
              : 'not a member: it holds the recovery role only (revoke members, rotate recovery)'}
            )
          </span>
        </dd>
      </dl>
      <h3>Installations, unused the longest first</h3>
      {h.installations.oldestFirst.length === 0 ? (
        <p className="muted">No installation.</p>
      ) : (
        <ol className="flow-installs" aria-label="Installations, oldest client time first">
          {h.installations.oldestFirst.map((m) => (
            <li key={memberKey(m.id)}>
              <code title={m.id.text}>{shortId(m.id.text)}</code>{' '}
              <span className="muted">
                added {clientTime(m.clientTimestampNs)} at sequence id {m.addedAt.toString()}
                {m.adder ? ` by ${shortId(m.adder.text)}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      <h3>What the remaining entries can buy</h3>
      <ul>
        {h.buys.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
      <div className="row-buttons">
        <button type="button" onClick={() => onFlow('cleanup')}>
          Clean up installations…
        </button>
        <button type="button" onClick={() => onFlow('claim')}>
          Claim a handle…
        </button>
        <button type="button" onClick={() => onFlow('recovery')}>
          Rotate recovery…
        </button>
      </div>
    </div>
  )
}

// ---- the signing end every flow shares ---------------------------------------------------

interface FlowProps extends FlowsProps {
  readonly registry: SignerRegistry
  /** Judges smart contract wallet (erc_6492) signatures on the configured chains (IDENT-060, IDENT-061). */
  readonly smartWallets: SmartWalletVerifier
  readonly state: AssociationState
  readonly health: InboxHealth
  readonly ceiling?: number
}

const localStore = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

function useFlowSigning(
  p: FlowProps,
  build: ComposeBuild,
  parties: ReturnType<typeof partiesOf>,
  claim: string | null,
  onSigned: () => void,
) {
  return useSignDraft({
    state: p.state,
    registry: p.registry,
    parties,
    build,
    onAppend: p.onAppend,
    smartWallets: p.smartWallets,
    lookupHandle: p.lookupHandle,
    claimHandle: claim,
    onSigned,
  })
}

function SignEnd({
  p,
  build,
  s,
  changes,
  confirm,
  signLabel,
  refuse = null,
}: {
  /** Why the node would refuse the update, found before signing; Sign stays disabled with it. */
  refuse?: string | null
  p: FlowProps
  build: ComposeBuild
  s: ReturnType<typeof useSignDraft>
  /** What will change, in plain words. */
  changes: ReactNode
  /** The confirmation control; the default is the consequence checkbox. */
  confirm?: ReactNode
  signLabel: string
}) {
  const gateId = useId()
  const warning = spendWarning(p.health)
  const fresh = useFreshness(p)
  const stale = fresh.newest !== null && fresh.newest > p.state.sequenceId
  const staleText = stale
    ? `the inbox changed on the node: it holds updates up to sequence id ${fresh.newest}, and this log's head is ${p.state.sequenceId}`
    : null
  const blockedBy = refuse ?? staleText
  return (
    <>
      {build.problems.length > 0 && (
        <ul className="compose-problems" aria-label="What the task still needs">
          {build.problems.map((x) => (
            <li key={x}>{x}</li>
          ))}
        </ul>
      )}
      {build.draft && (
        <section className="panel flow-changes" aria-label="What will change">
          <h3>What will change</h3>
          {changes}
          <p className="muted small">
            {p.health.entries.left === 1
              ? 'One update: it spends the last log entry.'
              : `One update: it spends one of the ${p.health.entries.left.toLocaleString('en')} log entries left.`}
          </p>
        </section>
      )}
      {stale && (
        <div className="note warn" role="alert" aria-label="Inbox changed on the node">
          The inbox changed on the node: it holds updates up to sequence id {String(fresh.newest)}, this log's head is{' '}
          {p.state.sequenceId.toString()}. Re-fetch it, so the dry run judges the newest state; nothing has been signed.{' '}
          {p.refetch && (
            <button type="button" disabled={fresh.refetching} onClick={() => void fresh.refetch()}>
              {fresh.refetching ? 'Re-fetching…' : 'Re-fetch from the node'}
            </button>
          )}
        </div>
      )}
      {fresh.note && (
        <p className="note" role="status" aria-label="Re-fetch result">
          {fresh.note}
        </p>
      )}
      {warning && build.draft && (
        <p className="note warn" role="alert">
          {warning}
        </p>
      )}
      {build.draft && (
        <>
          <DryRunView dry={s.dry} error={s.dryError} before={p.state} />
          <details>
            <summary>The exact text the signer will sign</summary>
            <SignatureTextBlock text={build.draft.text} />
          </details>
          <SlotsView slots={s.slots} />
        </>
      )}
      <div className="compose-signbar">
        {confirm ??
          (build.confirmation && (
            <label className="compose-confirm">
              <input type="checkbox" checked={s.confirmed} onChange={(e) => s.setConfirmed(e.target.checked)} />{' '}
              {build.confirmation}
            </label>
          ))}
        <div className="row-buttons">
          <button
            type="button"
            className="primary"
            disabled={!s.gate.enabled || p.health.entries.left === 0 || blockedBy !== null || fresh.checking}
            aria-describedby={gateId}
            onClick={async () => {
              // Asked again at the prompt: the inbox may have moved on the node since the dry run.
              if (await fresh.recheck()) void s.sign()
            }}
          >
            {signLabel}
          </button>
          <span id={gateId} className="muted small">
            {p.health.entries.left === 0
              ? 'Sign is disabled: the log is full.'
              : blockedBy !== null && s.gate.enabled
                ? `Sign is disabled: ${blockedBy}`
                : s.gate.enabled
                  ? `Asks each signer once, then publishes to ${p.nodeUrl}.`
                  : `Sign is disabled: ${s.gate.reason}`}
          </span>
        </div>
      </div>
      {s.outcome && (
        <SignedView
          key={bytesToHex(s.outcome.signed.bytes)}
          outcome={s.outcome}
          publish={p.publish}
          nodeUrl={p.nodeUrl}
          onDismiss={s.clearOutcome}
          autoPublish
        />
      )}
    </>
  )
}

/**
 * Whether the node holds a newer state of the inbox than the open log: asked when a task
 * opens, again right before any signer is asked; a re-fetch replaces the open log (the
 * task's dry run then runs on the newest state) and says what changed.
 */
function useFreshness(p: FlowProps) {
  const { queryNewest, refetch, state, logEntries } = p
  const inboxId = state.inboxId
  const [newest, setNewest] = useState<bigint | null>(null)
  const [checking, setChecking] = useState(false)
  const [refetching, setRefetching] = useState(false)
  const [refetched, setRefetched] = useState<{ before: number } | { error: string } | null>(null)
  const ask = useCallback(async (): Promise<bigint | null> => {
    if (!queryNewest) return null
    try {
      return await queryNewest(inboxId)
    } catch {
      return null // an unreachable node does not block signing; publishing says so
    }
  }, [queryNewest, inboxId])
  useEffect(() => {
    let live = true
    ask().then((n) => live && setNewest(n))
    return () => {
      live = false
    }
  }, [ask])
  const recheck = async (): Promise<boolean> => {
    setChecking(true)
    try {
      const n = await ask()
      setNewest(n)
      return n === null || n <= state.sequenceId
    } finally {
      setChecking(false)
    }
  }
  const doRefetch = async () => {
    if (!refetch) return
    setRefetching(true)
    setRefetched(null)
    const before = logEntries
    try {
      await refetch(inboxId)
      setRefetched({ before })
    } catch (e) {
      setRefetched({ error: e instanceof Error ? e.message : String(e) })
    } finally {
      setRefetching(false)
    }
  }
  const note =
    refetched === null
      ? null
      : 'error' in refetched
        ? `Could not re-fetch: ${refetched.error}`
        : `Re-fetched from ${p.nodeUrl}: ${logEntries - refetched.before} new update${logEntries - refetched.before === 1 ? '' : 's'}; the head is now sequence id ${state.sequenceId}, and the dry run below judges it.`
  return { newest, checking, recheck, refetch: doRefetch, refetching, note }
}

// ---- clean up installations --------------------------------------------------------------

function CleanupFlow(p: FlowProps) {
  const { state, registry } = p
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set())
  const [ts, setTs] = useState(nowNs)
  const installs = p.health.installations.oldestFirst
  // Only current installations stay picked (a replay after an append removes the revoked ones).
  const targets = useMemo(() => installs.map((m) => memberKey(m.id)).filter((k) => picked.has(k)), [installs, picked])
  const build = useMemo(() => buildCleanup(state, parties, targets, ts), [state, parties, targets, ts])
  const onSigned = useCallback(() => {
    setPicked(new Set())
    setTs(nowNs())
  }, [])
  const s = useFlowSigning(p, build, parties, null, onSigned)
  const mine = new Set(parties.filter((x) => x.app).map((x) => memberKey(x.identifier)))
  const recoveryHeld = mine.has(memberKey(state.recovery.id))
  const toggle = (k: string, on: boolean) =>
    setPicked((cur) => {
      const next = new Set(cur)
      if (on) next.add(k)
      else next.delete(k)
      return next
    })
  return (
    <div className="compose-body">
      <p>
        Revoke several installations in <strong>one</strong> update, signed once by the recovery identifier,{' '}
        <code title={state.recovery.id.text}>{describeMember(state.recovery.id)}</code> (IDENT-043).{' '}
        {recoveryHeld ? (
          <span className="ok">This browser holds it.</span>
        ) : (
          <span className="warn">This browser holds no signer for it: connect it in Signers… first.</span>
        )}
      </p>
      {p.health.installations.atCeiling && (
        <p className="note warn">
          At the installation ceiling ({p.health.installations.count} of {p.ceiling}): no installation of this browser
          is needed to clean up, only the recovery identifier.
        </p>
      )}
      {installs.length === 0 ? (
        <p className="muted">The inbox has no installation to revoke.</p>
      ) : (
        <>
          <div className="row-buttons">
            <button type="button" onClick={() => setPicked(new Set(allButMine(state, parties)))}>
              All but this browser’s
            </button>
            <button type="button" onClick={() => setPicked(new Set())}>
              None
            </button>
          </div>
          <fieldset className="flow-pick">
            <legend>Installations to revoke (unused the longest first)</legend>
            {installs.map((m) => {
              const k = memberKey(m.id)
              return (
                <label key={k}>
                  <input type="checkbox" checked={picked.has(k)} onChange={(e) => toggle(k, e.target.checked)} />{' '}
                  <code title={m.id.text}>{shortId(m.id.text)}</code>{' '}
                  <span className="muted">
                    added {clientTime(m.clientTimestampNs)}
                    {mine.has(k) ? ' · this browser' : ''}
                  </span>
                </label>
              )
            })}
          </fieldset>
        </>
      )}
      <SignEnd
        p={p}
        build={build}
        s={s}
        signLabel={targets.length > 1 ? `Revoke ${targets.length} and publish` : 'Revoke and publish'}
        changes={
          <ul className="changes" aria-label="Members the update removes">
            {build.removed.map((m) => (
              <li key={memberKey(m.id)} className="mark-removed">
                <span className="rowmark">−</span> {describeMember(m.id)} can no longer sign for the inbox
              </li>
            ))}
            {build.cascades
              .filter((c) => c.installations.length > 0)
              .map((c) => (
                <li key={`c-${memberKey(c.target)}`}>{c.summary} (IDENT-044)</li>
              ))}
          </ul>
        }
      />
    </div>
  )
}

// ---- claim a handle ----------------------------------------------------------------------

function ClaimFlow(p: FlowProps) {
  const { state, registry } = p
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const [handle, setHandle] = useState('')
  const [claimer, setClaimer] = useState('')
  const [ts, setTs] = useState(nowNs)
  const form = useMemo(
    () => withDefaults({ ...EMPTY_FORM, action: 'claim_handle', handle, claimer }, state, parties),
    [handle, claimer, state, parties],
  )
  const build = useMemo(() => buildDraft(form, { state, parties, clientTimestampNs: ts }), [form, state, parties, ts])
  const onSigned = useCallback(() => {
    setHandle('')
    setTs(nowNs())
  }, [])
  const typed = handle.trim()
  const s = useFlowSigning(p, build, parties, typed || null, onSigned)
  const claim = build.claim
  // Who the node says holds it, checked against that inbox's own log (IDENT-085).
  const [holder, setHolder] = useState<{ handle: string; h: HandleHolderLike | null; error?: string } | null>(null)
  const { handleHolder } = p
  useEffect(() => {
    if (!handleHolder || !typed || !claim?.valid) return
    let live = true
    const t = setTimeout(() => {
      handleHolder(typed).then(
        (h) => live && setHolder({ handle: typed, h }),
        (e: unknown) =>
          live && setHolder({ handle: typed, h: null, error: e instanceof Error ? e.message : String(e) }),
      )
    }, 250)
    return () => {
      live = false
      clearTimeout(t)
    }
  }, [handleHolder, typed, claim?.valid])
  const holderNow = holder?.handle === typed ? holder : null
  // The node's claim policy (reserved names, minimum length), applied only when it admits a claim (IDENT-084).
  const [policy, setPolicy] = useState<{ p: ClaimPolicy | null; error?: string } | null>(null)
  const { claimPolicy } = p
  useEffect(() => {
    if (!claimPolicy) return
    let live = true
    claimPolicy().then(
      (x) => live && setPolicy({ p: x }),
      (e: unknown) => live && setPolicy({ p: null, error: e instanceof Error ? e.message : String(e) }),
    )
    return () => {
      live = false
    }
  }, [claimPolicy])
  const policyNo = policy?.p && typed && claim?.valid ? claimPolicyProblem(typed, policy.p) : null
  const refuse = policyNo ? `the node's claim policy would refuse it: ${policyNo.message} (${policyNo.code})` : null
  const claimers = eligible(parties, 'claimer')
  return (
    <div className="compose-body">
      <label className="compose-field">
        <span>Handle</span>
        <input
          aria-label="Handle to claim"
          value={handle}
          onChange={(e) => setHandle(e.target.value)}
          spellCheck={false}
          autoCapitalize="off"
          size={34}
          placeholder="nick or nick#2341"
        />
      </label>
      <p role="status" aria-label="Handle check" className="small">
        {!typed ? (
          <span className="muted">
            a-z first, then a-z, 0-9, _ or -, up to 27 characters, optionally # and four digits (IDENT-078).
          </span>
        ) : claim && !claim.valid ? (
          <span className="bad">
            “{typed}” {claim.problem} (IDENT-078).
          </span>
        ) : policyNo ? (
          <span className="bad">
            The node's claim policy would refuse it: {policyNo.message} ({policyNo.code}).
          </span>
        ) : !p.handleHolder ? (
          <span className="ok">The grammar accepts it.</span>
        ) : !holderNow ? (
          <span className="muted">The grammar accepts it; asking {p.nodeUrl} who holds it…</span>
        ) : holderNow.error ? (
          <span className="warn">The grammar accepts it; the node could not be asked: {holderNow.error}</span>
        ) : holderNow.h?.inboxId === null ? (
          <span className="ok">The grammar accepts it, and the node names no inbox for it: it is free.</span>
        ) : holderNow.h?.inboxId === state.inboxId ? (
          <span className="ok">This inbox holds it already (its log claims it, IDENT-085).</span>
        ) : holderNow.h?.backed ? (
          <span className="bad">
            Taken: inbox <code>{shortId(holderNow.h.inboxId ?? '')}</code> holds it, and its own log claims it
            (IDENT-085). The node would refuse the claim (handle_taken).
          </span>
        ) : (
          <span className="warn">
            The node names inbox <code>{shortId(holderNow.h?.inboxId ?? '')}</code>, but that inbox's log does not back
            it (IDENT-085: {holderNow.h?.reason}); the node may still refuse the claim.
          </span>
        )}
      </p>
      <label className="compose-field">
        <span>Signed by (any current member)</span>
        <select aria-label="Signed by" value={form.claimer} onChange={(e) => setClaimer(e.target.value)}>
          {!claimers.some((x) => x.ref === form.claimer) && <option value="">choose…</option>}
          {claimers.map((x) => (
            <option key={x.ref} value={x.ref}>
              {x.label}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small" aria-label="Claim policy">
        {policy?.p
          ? `This node admits names of at least ${policy.p.minHandleLength} characters${policy.p.reserved.length ? ` and reserves ${policy.p.reserved.join(', ')}` : ''}${policy.p.claimIntervalNs > 0n ? `, one claim per ${policy.p.claimIntervalNs / 1_000_000n} ms` : ''}. `
          : policy?.error
            ? `The node's claim policy could not be read (${policy.error}). `
            : policy
              ? 'This node publishes no claim policy. '
              : ''}
        A node applies its policy only when it stores a claim; no validator applies it to a stored log (IDENT-084). A
        refusal after signing names the policy, and the signed update is kept.
      </p>
      <SignEnd
        p={p}
        build={build}
        s={s}
        signLabel="Claim and publish"
        refuse={refuse}
        changes={
          claim && (
            <ul>
              <li>
                The display handle becomes <strong>{claim.handle}</strong>
                {claim.alreadyDisplay
                  ? ' (it is already: the claim changes no order, and still counts)'
                  : claim.alreadyHeld
                    ? ': the inbox claimed it before, so this moves it to the end of its handles (IDENT-082)'
                    : ''}
                .
              </li>
              <li>
                Handles after the claim, display handle first (IDENT-086):{' '}
                {[...claim.handlesAfter].reverse().join(', ') || 'none'}
              </li>
              <li>
                Claim {claim.claimCount + 1} of 64; {Math.max(0, claim.claimsLeft - 1)} left after it (IDENT-080).
              </li>
            </ul>
          )
        }
      />
    </div>
  )
}

// ---- rotate recovery ---------------------------------------------------------------------

function RecoveryFlow(p: FlowProps) {
  const { state, registry } = p
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const [target, setTarget] = useState('')
  const [typedId, setTypedId] = useState('')
  const [typedKind, setTypedKind] = useState<'ethereum' | 'passkey'>('ethereum')
  const [last4, setLast4] = useState('')
  const [ts, setTs] = useState(nowNs)
  const form = useMemo(
    () =>
      withDefaults(
        {
          ...EMPTY_FORM,
          action: 'change_recovery_address',
          recoveryTarget: target,
          recoveryTyped: typedId,
          recoveryTypedKind: typedKind,
        },
        state,
        parties,
      ),
    [target, typedId, typedKind, state, parties],
  )
  const build = useMemo(() => buildDraft(form, { state, parties, clientTimestampNs: ts }), [form, state, parties, ts])
  const onSigned = useCallback(() => {
    setLast4('')
    setTarget('')
    setTypedId('')
    setTs(nowNs())
  }, [])
  const s = useFlowSigning(p, build, parties, null, onSigned)
  const next = build.recoveryChain
  const want = next ? next.id.text.slice(-4) : null
  const matches = want !== null && last4.trim().toLowerCase() === want.toLowerCase()
  const { setConfirmed, confirmed } = s
  useEffect(() => {
    if (matches !== confirmed && build.draft) setConfirmed(matches)
  }, [matches, confirmed, build.draft, setConfirmed])
  const targets = eligible(parties, 'recovery_target').filter((x) => !x.isRecovery)
  const recoveryHeld = parties.some((x) => x.app && memberKey(x.identifier) === memberKey(state.recovery.id))
  return (
    <div className="compose-body">
      <p>
        The recovery identifier is the one party that can revoke members and hand its role on. Today it is{' '}
        <code title={state.recovery.id.text}>{describeMember(state.recovery.id)}</code>; it signs the rotation alone
        (IDENT-045){recoveryHeld ? '.' : ', and this browser holds no signer for it: connect it in Signers… first.'}
      </p>
      <label className="compose-field">
        <span>New recovery identifier</span>
        <select
          aria-label="New recovery identifier"
          value={form.recoveryTarget}
          onChange={(e) => setTarget(e.target.value)}
        >
          {!targets.some((x) => x.ref === form.recoveryTarget) && form.recoveryTarget !== TYPED && (
            <option value="">choose…</option>
          )}
          {targets.map((x) => (
            <option key={x.ref} value={x.ref}>
              {x.label}
            </option>
          ))}
          <option value={TYPED}>type an identifier…</option>
        </select>
      </label>
      {form.recoveryTarget === TYPED && (
        <div className="compose-form">
          <label className="compose-field">
            <span>Kind</span>
            <select
              aria-label="Kind of the typed recovery identifier"
              value={typedKind}
              onChange={(e) => setTypedKind(e.target.value as 'ethereum' | 'passkey')}
            >
              <option value="ethereum">Ethereum address</option>
              <option value="passkey">Passkey key (hex)</option>
            </select>
          </label>
          <label className="compose-field">
            <span>Identifier</span>
            <input
              aria-label="Typed recovery identifier"
              value={typedId}
              onChange={(e) => setTypedId(e.target.value)}
              size={44}
              spellCheck={false}
            />
          </label>
        </div>
      )}
      <SignEnd
        p={p}
        build={build}
        s={s}
        signLabel="Rotate and publish"
        changes={
          next && (
            <ul>
              <li>
                <strong>{describeMember(next.id)}</strong> becomes the recovery identifier (
                {next.isMember ? 'it is a member' : 'it is not a member, and does not become one'}). From then on only
                it can revoke members or rotate recovery again; {describeMember(state.recovery.id)} loses that role
                {state.members.has(memberKey(state.recovery.id)) ? ' (it stays a member)' : ''}.
              </li>
              <li>{next.explanation} (IDENT-045)</li>
              <li>The new recovery identifier signs nothing: only the current one is asked.</li>
            </ul>
          )
        }
        confirm={
          want !== null &&
          build.draft && (
            <label className="compose-field">
              <span>
                To confirm, type the last four characters of the new identifier (…<code>{want}</code>)
              </span>
              <input
                aria-label="Last four characters of the new recovery identifier"
                value={last4}
                onChange={(e) => setLast4(e.target.value)}
                size={6}
                maxLength={8}
                spellCheck={false}
                autoCapitalize="off"
              />
            </label>
          )
        }
      />
    </div>
  )
}
