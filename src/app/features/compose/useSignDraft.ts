/**
 * Signing one draft, the part every composer shares (the free-form composer and the
 * guided flows): the core's dry run of the draft against the state, the confirmation of
 * a consequence (bound to the exact draft text), the handle check on the node before any
 * signer is asked, the signature collection (one prompt at a time; a retry asks only the
 * slots not signed) and what happens after signing: append to the open log.
 */
import { useQuery } from '@tanstack/react-query'
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
import type { ComposeBuild } from './compose-model'
import type { Party } from './parties'
import { type HandleOnNode, signGate, slotViews } from './sign-gate'
import { useNodeService } from '../../model/node-service'
import { useDebounced } from '../../ui/useDebounced'

/** The pause in typing after which a claim's handle is looked up on the node. */
export const HANDLE_PAUSE_MS = 250

export type AppendOutcome =
  | { readonly ok: true; readonly sequenceId: bigint }
  | { readonly ok: false; readonly message: string }

export type AppendUpdate = (
  bytes: Uint8Array,
  options: { readonly newLog: boolean; readonly inboxId: string },
) => Promise<AppendOutcome>

export interface SignedOutcome {
  readonly signed: SignedUpdate
  readonly inboxId: string
  readonly appended: AppendOutcome | null
}

export function useSignDraft(opts: {
  readonly state: AssociationState | null
  readonly registry: SignerRegistry
  readonly parties: readonly Party[]
  readonly build: ComposeBuild
  readonly onAppend: AppendUpdate
  /** Judges erc_6492 signatures (dry run of carried ones, every returned one); without it they are unverifiable (IDENT-061). */
  readonly smartWallets?: SmartWalletVerifier | undefined
  /** The handle a claim draft claims, or null: checked on the node before any signer is asked. */
  readonly claimHandle: string | null
  /** Called once the signed update was appended (the composer clears the form's subject). */
  readonly onSigned?: (appended: AppendOutcome) => void
}) {
  const { state, registry, parties, build, onAppend, smartWallets, onSigned } = opts
  const swOpts = useMemo(() => (smartWallets ? { smartWallets } : {}), [smartWallets])
  const [confirmedFor, setConfirmedFor] = useState<string | null>(null)
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
  const claimHandle = draft ? opts.claimHandle : null
  // Asked once typing pauses, and cached per handle (the node service's handleOwner).
  const node = useNodeService()
  const asked = useDebounced(claimHandle, HANDLE_PAUSE_MS)
  const owner = useQuery({ ...node.handleOwner(asked ?? ''), enabled: !!asked && asked === claimHandle })
  const answered = asked === claimHandle && (owner.isSuccess || owner.isError)
  // An unreachable node does not block signing (publishing says so).
  const holder = owner.isSuccess ? owner.data : null
  const handle: HandleOnNode | null =
    !claimHandle || !draft
      ? null
      : !answered
        ? { kind: 'checking', handle: claimHandle }
        : holder && holder !== draft.inboxId
          ? { kind: 'taken', handle: claimHandle, inboxId: holder }
          : null
  const gate = signGate({ build, dry: dryNow?.result ?? null, confirmedFor, slots, busy, handle })

  const sign = useCallback(async (): Promise<SignedOutcome | null> => {
    if (!draft || !gate.enabled) return null
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
      if (!r.ok) return null
      const newLog = state === null
      const inboxId = draft.inboxId
      setOutcome({ signed: r.signed, inboxId, appended: null })
      const appended = await onAppend(r.signed.bytes, { newLog, inboxId }).catch(
        (e: unknown): AppendOutcome => ({ ok: false, message: e instanceof Error ? e.message : String(e) }),
      )
      const done = { signed: r.signed, inboxId, appended }
      setOutcome(done)
      onSigned?.(appended)
      collector.current = null
      setConfirmedFor(null)
      return done
    } finally {
      setBusy(false)
    }
  }, [draft, gate.enabled, registry.signers, state, onAppend, swOpts, onSigned])

  return {
    dry: dryNow?.result ?? null,
    dryError: dryNow?.error ?? null,
    slots,
    gate,
    busy,
    sign,
    confirmed: !!text && confirmedFor === text,
    setConfirmed: (on: boolean) => setConfirmedFor(on && text ? text : null),
    outcome,
    clearOutcome: () => setOutcome(null),
  }
}
