/**
 * The transfer format of a Trace, from the replay worker to the app.
 *
 * A Trace holds a persistent association state before and after every action;
 * those collections do not survive structuredClone, and copying a whole state per
 * step would cost O(n²). So each step travels with the *change* each action made
 * (a StateDelta), and the app rebuilds states lazily from the deltas (applyDelta,
 * and the checkpointing model in src/app/trace). The transfer is O(n) in the log.
 *
 * Uint8Arrays are copied to their own buffers first: a slice of a larger input would
 * otherwise clone that whole input once per step.
 */
import { PMap, PSet } from '../core/persistent'
import type {
  ActionKind,
  AssociationState,
  InboxId,
  Member,
  Recovery,
  WireAction,
  WireMemberIdentifier,
} from '../core/types'
import { memberKey } from '../core/types'
import type { TraceStep } from '../core/trace'
import type { UnverifiedUpdate } from '../core/types'
import { memberIdentifierText, memberIdOf } from '../core/text/identifier'

/** What one action (or the end of an update) changed in the association state. */
export interface StateDelta {
  /** Set when the state is created (CreateInbox) or its inbox id changes. */
  readonly inboxId?: string
  /** Members added or changed (keyed by memberKey). */
  readonly put?: readonly Member[]
  /** Member keys removed. */
  readonly del?: readonly string[]
  readonly recovery?: Recovery
  readonly handles?: readonly string[]
  readonly claimCount?: number
  /** Replay keys added to the seen set. */
  readonly seen?: readonly string[]
  readonly sequenceId?: bigint
}

interface TransferAction {
  readonly index: number
  readonly kind: ActionKind
  /** The change this action made; null when it failed or was not reached (its `after` is null). */
  readonly delta: StateDelta | null
}

/** What the views show of one action: its kind and the member, recovery identifier or handle it names. */
interface ActionSummary {
  readonly kind: ActionKind
  readonly subject: { readonly label: string; readonly text: string; readonly kind: string }
}

/**
 * The decoded update as the views need it. The full WireActions (with their many small
 * byte arrays, costly to clone) stay in the worker: the exact bytes travel instead.
 */
interface UpdateSummary {
  readonly inboxId: string
  readonly clientTimestampNs: bigint
  readonly bytesSource: UnverifiedUpdate['bytesSource']
  readonly actions: readonly ActionSummary[]
}

/** A TraceStep without states: the actions carry deltas instead. */
export interface TransferStep extends Omit<TraceStep, 'update' | 'actions' | 'stateBefore' | 'stateAfter'> {
  readonly update: UpdateSummary | null
  readonly actions: readonly TransferAction[]
  /** For an applied update: the change from its last action's state to its final state (replay keys, sequence id). */
  readonly final: StateDelta | null
}

const sameRecovery = (a: Recovery, b: Recovery): boolean =>
  a === b || (a.id.kind === b.id.kind && a.id.text === b.id.text && a.chainId === b.chainId)

const sameHandles = (a: readonly string[], b: readonly string[]): boolean =>
  a === b || (a.length === b.length && a.every((h, i) => h === b[i]))

/**
 * The delta from `before` to `after`. `hints` make the common cases cost the change
 * instead of O(members): the member key an AddAssociation adds (the add reducer sets
 * exactly that key, IDENT-042), the member keys a RevokeAssociation may remove (the
 * revoke reducer deletes the target and the installations it added, IDENT-044, and
 * nothing else) and the replay keys the update's signatures carry (IDENT-050 adds
 * exactly those). A hint that does not account for the whole change in size falls back
 * to a full comparison.
 */
export function stateDelta(
  before: AssociationState | null,
  after: AssociationState,
  hints: {
    readonly addedKey?: string
    readonly removedKeys?: readonly string[]
    readonly replayKeys?: readonly (string | null)[]
  } = {},
): StateDelta {
  const d: {
    -readonly [K in keyof StateDelta]: StateDelta[K]
  } = {}
  if (!before || before.inboxId !== after.inboxId) d.inboxId = after.inboxId
  // members
  const bm = before?.members
  if (!bm) {
    if (after.members.size > 0) d.put = [...after.members.values()]
  } else if (bm !== after.members) {
    const k = hints.addedKey
    const added = k !== undefined ? after.members.get(k) : undefined
    const removed = hints.removedKeys?.filter((key) => bm.has(key) && !after.members.has(key))
    if (added && !bm.has(k!) && after.members.size === bm.size + 1) {
      d.put = [added]
    } else if (removed && removed.length > 0 && after.members.size === bm.size - removed.length) {
      d.del = removed
    } else {
      const put: Member[] = []
      const del: string[] = []
      for (const [key, m] of after.members) {
        const old = bm.get(key)
        if (old !== m && !sameMember(old, m)) put.push(m)
      }
      for (const key of bm.keys()) if (!after.members.has(key)) del.push(key)
      if (put.length) d.put = put
      if (del.length) d.del = del
    }
  }
  if (!before || !sameRecovery(before.recovery, after.recovery)) d.recovery = after.recovery
  if (!before || !sameHandles(before.handles, after.handles)) d.handles = [...after.handles]
  if (!before || before.claimCount !== after.claimCount) d.claimCount = after.claimCount
  // seen replay keys
  const bs = before?.seen
  if (bs !== after.seen && (bs ? after.seen.size !== bs.size : after.seen.size > 0)) {
    const fresh = new Set<string>()
    for (const key of hints.replayKeys ?? [])
      if (key !== null && !(bs?.has(key) ?? false) && after.seen.has(key)) fresh.add(key)
    if (fresh.size === after.seen.size - (bs?.size ?? 0)) d.seen = [...fresh]
    else d.seen = [...after.seen].filter((key) => !(bs?.has(key) ?? false))
  }
  if (!before || before.sequenceId !== after.sequenceId) d.sequenceId = after.sequenceId
  return d
}

function sameMember(a: Member | undefined, b: Member): boolean {
  return (
    !!a &&
    a.id.kind === b.id.kind &&
    a.id.text === b.id.text &&
    a.clientTimestampNs === b.clientTimestampNs &&
    a.chainId === b.chainId &&
    a.addedAt === b.addedAt &&
    a.relyingParty === b.relyingParty &&
    (a.adder === b.adder || (!!a.adder && !!b.adder && a.adder.kind === b.adder.kind && a.adder.text === b.adder.text))
  )
}

const EMPTY_MEMBERS = PMap.empty<Member>()
const EMPTY_SEEN = PSet.empty()
const EMPTY_INDEX = PMap.empty<PSet>()

/** Rebuilds the state after a delta. `state` is never mutated (persistent collections share structure). */
export function applyDelta(state: AssociationState | null, d: StateDelta): AssociationState {
  if (!state && d.inboxId === undefined) throw new Error('transfer: a delta without inbox id applied to no state')
  const before = state?.members ?? EMPTY_MEMBERS
  let members = before
  for (const key of d.del ?? []) members = members.delete(key)
  for (const mem of d.put ?? []) members = members.set(memberKey(mem.id), mem)
  // The revocation-cascade index (IDENT-044) of the core's state, kept consistent with the members.
  let ix = state?.installationsByAdder ?? EMPTY_INDEX
  for (const key of d.del ?? []) {
    const old = before.get(key)
    ix = ix.delete(key)
    if (old?.id.kind === 'installation' && old.adder) {
      const ak = memberKey(old.adder)
      const set = ix.get(ak)
      if (set) ix = ix.set(ak, set.delete(key))
    }
  }
  for (const mem of d.put ?? []) {
    if (mem.id.kind === 'installation' && mem.adder) {
      const ak = memberKey(mem.adder)
      ix = ix.set(ak, (ix.get(ak) ?? EMPTY_SEEN).add(memberKey(mem.id)))
    }
  }
  const installationsByAdder = ix
  const seen = d.seen?.length ? (state?.seen ?? EMPTY_SEEN).union(d.seen) : (state?.seen ?? EMPTY_SEEN)
  const recovery = d.recovery ?? state?.recovery
  if (!recovery) throw new Error('transfer: a new state without a recovery identifier')
  return {
    inboxId: (d.inboxId ?? state!.inboxId) as InboxId,
    members,
    recovery,
    installationsByAdder,
    handles: d.handles ?? state?.handles ?? [],
    claimCount: d.claimCount ?? state?.claimCount ?? 0,
    seen,
    sequenceId: d.sequenceId ?? state?.sequenceId ?? 0n,
  }
}

/** A copy whose Uint8Arrays own their buffers (so structuredClone copies only them). */
export function ownBytes<T>(value: T): T {
  if (value instanceof Uint8Array) {
    return (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice()) as T
  }
  if (Array.isArray(value)) return value.map(ownBytes) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = ownBytes(v)
    return out as T
  }
  return value
}

const MEMBER_KIND_NAME = { ethereum: 'wallet', passkey: 'passkey', installation: 'installation' } as const

type Subject = ActionSummary['subject']

const identifierSubject = (label: string, text: string, kind: number): Subject => ({
  label,
  text,
  kind: kind === 2 ? 'passkey' : 'wallet',
})

const memberSubject = (label: string, m: WireMemberIdentifier): Subject => ({
  label,
  text: memberIdentifierText(m),
  kind: MEMBER_KIND_NAME[m.kind],
})

/** The subject of an action, for the timeline and the panels. */
function subjectOf(a: WireAction): Subject {
  switch (a.kind) {
    case 'create_inbox':
      return identifierSubject('owner', a.initialIdentifier, a.initialIdentifierKind)
    case 'add':
      return memberSubject('adds', a.newMemberIdentifier)
    case 'revoke':
      return memberSubject('revokes', a.memberToRevoke)
    case 'change_recovery_address':
      return identifierSubject('recovery →', a.newRecoveryIdentifier, a.newRecoveryIdentifierKind)
    case 'claim_handle':
      return { label: 'claims', text: a.handle, kind: 'handle' }
  }
}

const summarizeAction = (a: WireAction): ActionSummary => ({ kind: a.kind, subject: subjectOf(a) })

function addedKeyOf(action: WireAction | undefined): string | undefined {
  return action?.kind === 'add' ? memberKey(memberIdOf(action.newMemberIdentifier)) : undefined
}

/** The keys a revoke may remove from `before` (IDENT-044): its target and the installations the target added. */
function removedKeysOf(action: WireAction | undefined, before: AssociationState | null): string[] | undefined {
  if (action?.kind !== 'revoke' || !before) return undefined
  const target = memberKey(memberIdOf(action.memberToRevoke))
  return [target, ...(before.installationsByAdder.get(target) ?? [])]
}

/** A TraceStep as it travels to the app. */
export function toTransferStep(step: TraceStep): TransferStep {
  const replayKeys = step.signatures.map((s) => s.replayKey)
  const actions: TransferAction[] = step.actions.map((a) => {
    const wire = step.update?.actions[a.index]
    return {
      index: a.index,
      kind: a.kind,
      delta: a.after
        ? stateDelta(a.before, a.after, { addedKey: addedKeyOf(wire), removedKeys: removedKeysOf(wire, a.before) })
        : null,
    }
  })
  const u = step.update
  const update: UpdateSummary | null = u
    ? {
        inboxId: u.inboxId,
        clientTimestampNs: u.clientTimestampNs,
        bytesSource: u.bytesSource,
        actions: u.actions.map(summarizeAction),
      }
    : null
  let final: StateDelta | null = null
  if (step.status === 'applied' && step.stateAfter) {
    const last = step.actions.length ? step.actions[step.actions.length - 1]!.after : step.stateBefore
    final = stateDelta(last, step.stateAfter, { replayKeys })
  }
  return {
    sequenceId: step.sequenceId,
    status: step.status,
    rule: step.rule,
    actionIndex: step.actionIndex,
    message: step.message,
    ...(step.details ? { details: step.details } : {}),
    update,
    bytes: step.bytes === null ? null : ownBytes(step.bytes),
    signatureText: step.signatureText,
    signatures: step.signatures,
    actions,
    final,
    ...(step.serverTimestampNs !== undefined ? { serverTimestampNs: step.serverTimestampNs } : {}),
  }
}
