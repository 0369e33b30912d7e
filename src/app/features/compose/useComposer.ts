/**
 * The composer's React state, a thin hook over compose-model.ts and src/signing: the
 * form, the draft it builds (with a client time fixed while the draft is shown, since it
 * is part of the signed text), the core's dry run of the draft against the state, the
 * confirmation of a revocation or rotation (bound to the exact draft text), the
 * signature collection (one prompt at a time; a retry asks only the slots not signed),
 * and what happens after signing: append to the open log, exports, publish.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { AssociationState } from '../../../core/types'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import {
  createCollector,
  dryRun,
  type Collector,
  type DryRunResult,
  type RoleEntry,
  type SignedUpdate,
} from '../../../signing'
import type { SignerRegistry } from '../../model/app-signer'
import {
  afterSigned,
  buildDraft,
  EMPTY_FORM,
  type HandleOnNode,
  partiesOf,
  signGate,
  slotViews,
  withDefaults,
  type ComposeForm,
} from './compose-model'

/** What the node answered a publish (the shape of features/network's PublishAnswer). */
export type PublishAnswerLike =
  | {
      readonly kind: 'stored'
      readonly sequenceId: bigint
      readonly visible: boolean | null
      readonly visibility?: string
    }
  | {
      readonly kind: 'refused'
      readonly status: number
      readonly code: string
      readonly rule: string | null
      readonly message: string
    }
  | { readonly kind: 'unreachable'; readonly message: string }

export type AppendOutcome =
  | { readonly ok: true; readonly sequenceId: bigint }
  | { readonly ok: false; readonly message: string }

export type AppendUpdate = (
  bytes: Uint8Array,
  options: { readonly newLog: boolean; readonly inboxId: string },
) => Promise<AppendOutcome>

const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n

export interface SignedOutcome {
  readonly signed: SignedUpdate
  readonly inboxId: string
  readonly appended: AppendOutcome | null
}

export function useComposer(opts: {
  state: AssociationState | null
  registry: SignerRegistry
  onAppend: AppendUpdate
  /** Judges erc_6492 signatures (dry run of carried ones, every returned one); without it they are unverifiable (IDENT-061). */
  smartWallets?: SmartWalletVerifier | undefined
  /** The inbox id the node names for a handle (its GetInboxIds), or null; asked before a claim is signed. */
  lookupHandle?: ((handle: string) => Promise<string | null>) | undefined
}) {
  const { state, registry, onAppend, smartWallets, lookupHandle } = opts
  const swOpts = useMemo(() => (smartWallets ? { smartWallets } : {}), [smartWallets])
  const [rawForm, setForm] = useState<ComposeForm>(EMPTY_FORM)
  const [clientTimestampNs, setTimestamp] = useState<bigint>(nowNs)
  const [confirmedFor, setConfirmedFor] = useState<string | null>(null)
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const form = useMemo(() => withDefaults(rawForm, state, parties), [rawForm, state, parties])
  const build = useMemo(
    () => buildDraft(form, { state, parties, clientTimestampNs }),
    [form, state, parties, clientTimestampNs],
  )
  const draft = build.draft
  const text = draft?.text ?? null

  // The core's verdict on the draft against the state; keyed by the text it judged.
  const [dry, setDry] = useState<{ text: string; result: DryRunResult | null; error?: string } | null>(null)
  useEffect(() => {
    if (!draft) return
    let live = true
    dryRun(state, draft, swOpts).then(
      (result) => live && setDry({ text: draft.text, result }),
      (e: unknown) =>
        live && setDry({ text: draft.text, result: null, error: e instanceof Error ? e.message : String(e) }),
    )
    return () => {
      live = false
    }
  }, [draft, state, swOpts])
  const dryNow = dry && dry.text === text ? dry : null

  // Collecting: one collector per draft text, kept across retries.
  const collector = useRef<{ text: string; c: Collector } | null>(null)
  const [roles, setRoles] = useState<{ text: string; roles: readonly RoleEntry[] } | null>(null)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<SignedOutcome | null>(null)
  const rolesNow = roles && roles.text === text ? roles.roles : null
  const slots = useMemo(() => (draft ? slotViews(draft, parties, rolesNow) : []), [draft, parties, rolesNow])
  // A claim's handle, checked on the node before any signer is asked (the node answers
  // handle_taken only after the signing otherwise). An unreachable node does not block.
  const claimHandle = draft && build.action === 'claim_handle' ? rawForm.handle.trim() : null
  const [onNode, setOnNode] = useState<{ handle: string; holder: string | null } | null>(null)
  useEffect(() => {
    if (!claimHandle || !lookupHandle) return
    let live = true
    lookupHandle(claimHandle).then(
      (holder) => live && setOnNode({ handle: claimHandle, holder }),
      () => live && setOnNode({ handle: claimHandle, holder: null }),
    )
    return () => {
      live = false
    }
  }, [claimHandle, lookupHandle])
  const handle: HandleOnNode | null =
    !claimHandle || !lookupHandle || !draft
      ? null
      : onNode?.handle !== claimHandle
        ? { kind: 'checking', handle: claimHandle }
        : onNode.holder && onNode.holder !== draft.inboxId
          ? { kind: 'taken', handle: claimHandle, inboxId: onNode.holder }
          : null
  const gate = signGate({ build, dry: dryNow?.result ?? null, confirmedFor, slots, busy, handle })
  const dryError = dryNow?.error ?? null

  const sign = useCallback(async () => {
    if (!draft || !gate.enabled) return
    let cur = collector.current
    if (!cur || cur.text !== draft.text) {
      const t = draft.text
      cur = {
        text: t,
        c: createCollector(draft, [], { ...swOpts, onStatus: (all) => setRoles({ text: t, roles: all }) }),
      }
      collector.current = cur
    }
    setBusy(true)
    try {
      const r = await cur.c.run(registry.signers.map((s) => s.signer))
      setRoles({ text: cur.text, roles: r.roles })
      if (!r.ok) return
      const newLog = state === null
      const inboxId = draft.inboxId
      setOutcome({ signed: r.signed, inboxId, appended: null })
      const appended = await onAppend(r.signed.bytes, { newLog, inboxId }).catch(
        (e: unknown): AppendOutcome => ({ ok: false, message: e instanceof Error ? e.message : String(e) }),
      )
      setOutcome({ signed: r.signed, inboxId, appended })
      // Appended: the same update is not drafted again (its subject is cleared).
      if (appended.ok) setForm(afterSigned)
      // A new draft gets a new client time (the signed one is in the log now).
      setTimestamp(nowNs())
      collector.current = null
      setConfirmedFor(null)
    } finally {
      setBusy(false)
    }
  }, [draft, gate.enabled, registry.signers, state, onAppend, swOpts])

  const update = useCallback((patch: Partial<ComposeForm>) => setForm((f) => ({ ...f, ...patch })), [])

  return {
    form,
    update,
    parties,
    build,
    draft,
    dry: dryNow?.result ?? null,
    dryError,
    slots,
    gate,
    busy,
    sign,
    confirmed: !!text && confirmedFor === text,
    setConfirmed: (on: boolean) => setConfirmedFor(on && text ? text : null),
    clientTimestampNs,
    restamp: () => setTimestamp(nowNs()),
    outcome,
    clearOutcome: () => setOutcome(null),
  }
}
