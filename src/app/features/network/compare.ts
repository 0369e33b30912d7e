/**
 * Comparing two sources of one inbox's log (two profiles, or a profile and a file): the
 * updates only one of them has, the same sequence id with different bytes, and the
 * difference between their head states (each replayed by the core, IDENT-071: neither
 * source is taken as fact). A node that withholds an update from one client shows up as
 * an update only the other source has, and usually as a head-state difference.
 */
import { replay } from '../../../core/replay'
import type { AssociationState, InboxLog } from '../../../core/types'
import { memberKey } from '../../../core/types'
import type { UpdateVerifyOptions } from '../../../core/verify/update'
import { bytesToHex, equalBytes } from '../../../crypto/bytes'
import { decodeOrError, entry } from '../../../core/decode/entry'

interface SourceUpdate {
  readonly sequenceId: bigint
  readonly bytes: Uint8Array
}

export interface LogSource {
  readonly label: string
  readonly inboxId: string
  readonly updates: readonly SourceUpdate[]
}

interface StateDiff {
  /** Member keys (`kind:identifier`) only in A's / B's head state. */
  readonly membersOnlyA: readonly string[]
  readonly membersOnlyB: readonly string[]
  /** Recovery identifiers, when they differ. */
  readonly recovery: { readonly a: string | null; readonly b: string | null } | null
  /** Handles (display handle last), when they differ. */
  readonly handles: { readonly a: readonly string[]; readonly b: readonly string[] } | null
  readonly headSequenceIds: { readonly a: bigint | null; readonly b: bigint | null }
}

export interface Comparison {
  readonly sameInbox: boolean
  readonly onlyA: readonly bigint[]
  readonly onlyB: readonly bigint[]
  /** Same sequence id, different bytes: each side's bytes in hex. */
  readonly differing: readonly { readonly sequenceId: bigint; readonly a: string; readonly b: string }[]
  readonly same: number
  readonly state: StateDiff
  /** True when nothing differs at all. */
  readonly identical: boolean
}

function logOf(s: LogSource): InboxLog {
  return {
    inboxId: s.inboxId,
    format: 'bundle-json',
    entries: s.updates.map((u) => entry(u.sequenceId, decodeOrError(u.bytes))),
  }
}

const recoveryText = (s: AssociationState | null): string | null => (s ? memberKey(s.recovery.id) : null)

function diffStates(a: AssociationState | null, b: AssociationState | null): StateDiff {
  const ka = new Set(a ? [...a.members.keys()] : [])
  const kb = new Set(b ? [...b.members.keys()] : [])
  const ra = recoveryText(a)
  const rb = recoveryText(b)
  const ha = a?.handles ?? []
  const hb = b?.handles ?? []
  return {
    membersOnlyA: [...ka].filter((k) => !kb.has(k)).sort(),
    membersOnlyB: [...kb].filter((k) => !ka.has(k)).sort(),
    recovery: ra === rb ? null : { a: ra, b: rb },
    handles: ha.length === hb.length && ha.every((h, i) => h === hb[i]) ? null : { a: ha, b: hb },
    headSequenceIds: { a: a?.sequenceId ?? null, b: b?.sequenceId ?? null },
  }
}

/** Compares two sources; both logs are replayed (no chain: smart-wallet updates stay pending on both sides alike). */
export async function compareSources(a: LogSource, b: LogSource, opts: UpdateVerifyOptions = {}): Promise<Comparison> {
  const byA = new Map(a.updates.map((u) => [u.sequenceId, u.bytes]))
  const byB = new Map(b.updates.map((u) => [u.sequenceId, u.bytes]))
  const onlyA = [...byA.keys()].filter((s) => !byB.has(s)).sort((x, y) => (x < y ? -1 : 1))
  const onlyB = [...byB.keys()].filter((s) => !byA.has(s)).sort((x, y) => (x < y ? -1 : 1))
  const differing: Comparison['differing'][number][] = []
  let same = 0
  for (const [s, ba] of byA) {
    const bb = byB.get(s)
    if (!bb) continue
    if (equalBytes(ba, bb)) same++
    else differing.push({ sequenceId: s, a: bytesToHex(ba), b: bytesToHex(bb) })
  }
  differing.sort((x, y) => (x.sequenceId < y.sequenceId ? -1 : 1))
  const [ta, tb] = await Promise.all([replay(logOf(a), opts), replay(logOf(b), opts)])
  const state = diffStates(ta.head, tb.head)
  const stateSame =
    !state.membersOnlyA.length &&
    !state.membersOnlyB.length &&
    !state.recovery &&
    !state.handles &&
    state.headSequenceIds.a === state.headSequenceIds.b
  return {
    sameInbox: a.inboxId === b.inboxId,
    onlyA,
    onlyB,
    differing,
    same,
    state,
    identical: a.inboxId === b.inboxId && !onlyA.length && !onlyB.length && !differing.length && stateSame,
  }
}
