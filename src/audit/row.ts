/**
 * The audit's result schema (../shared/contracts/cli.md, `audit`): one row per inbox log,
 * the summary that closes the report, and the digests that make two results comparable.
 * Both drivers (the embedded one and PostgreSQL) store and print exactly these rows.
 *
 *   state_digest  SHA-256 of the head state's contract report (`replay --json`'s `state`:
 *                 members sorted, replay keys sorted), so two logs have equal digests
 *                 exactly when their head states are equal; "null" when none applied.
 *   log_digest    SHA-256 chained over every update's sequence id and client bytes (the
 *                 IdentityUpdate as served, never the node's envelope around it), so two
 *                 nodes' copies of an inbox compare on what the clients signed.
 */
import { hash } from 'node:crypto'
import { membersInOrder } from '../core/member-order'
import { reportRow } from '../core/report'
import type { Trace } from '../core/trace'
import type { AssociationState, LogEntry } from '../core/types'

type FailureStatus = 'rejected' | 'pending' | 'unreadable'

export interface FirstFailure {
  sequence_id: string | null
  status: FailureStatus
  rule: string | null
  action_index: number | null
  message: string
}

/** What changed since an earlier report (`--against`). */
export type Change = 'new' | 'verdict' | 'state' | 'log'

export interface AuditRow {
  source: string
  inbox_id: string | null
  ok: boolean
  updates: number
  head: string | null
  first_failure: FirstFailure | null
  members: number
  state_digest: string
  /** Extra: the client-level digest of the log (see the module comment). */
  log_digest: string
  /** Extra: updates judged by this run (fewer than `updates` when an earlier head was resumed). */
  checked: number
  /** Extra (--against): what differs from the earlier report's row of the same source and inbox. */
  changed?: Change[]
  /** Extra (--node over d14n): the holes in the originator's sequence ids right beside one of this inbox's updates. */
  sequence_gaps?: { after: string; before: string; missing: string }[]
}

export interface Summary {
  inboxes: number
  ok: number
  rejected: number
  pending: number
  unreadable: number
  updates: number
  seconds: number
  /** Extra: updates judged by this run (the rest came from stored heads). */
  checked: number
  /**
   * Extra (--node): holes in the identity originator's sequence ids (updates the node skipped
   * or withholds), with the inboxes of the updates on either side (null: none, or not an
   * identity update) and `inbox_id` when both are the same inbox.
   */
  sequence_gaps?: {
    after: string
    before: string
    missing: string
    after_inbox?: string | null
    before_inbox?: string | null
    inbox_id?: string
  }[]
  /** Extra (--against): rows per kind of change, and inboxes of the earlier report missing from this one. */
  changed?: Record<Change | 'gone', number>
}

/** SHA-256 of a text, hex: Node's one-call hash (no Hash object per digest). */
const sha256 = (text: string): string => hash('sha256', text, 'hex')

/** A string as JSON: as it is in quotes when it needs no escape (hex, kinds, decimal), else JSON.stringify's. */
const PLAIN = /^[0-9A-Za-z:._-]*$/
const str = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s))
const chainJson = (c: bigint | null): string => (c === null ? 'null' : `"${c}"`)

/**
 * `JSON.stringify(stateReport(state))` (src/core/report.ts, `replay --json`'s state), written
 * out: no report objects per state, the members and replay keys sorted as stateReport sorts
 * them. Held equal to it by the audit's tests.
 */
export function stateJson(s: AssociationState): string {
  const members = membersInOrder(s)
  let out = `{"inbox_id":${str(s.inboxId)},"sequence_id":"${s.sequenceId}","members":[`
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!
    out += `${i ? ',' : ''}{"kind":${str(m.id.kind)},"identifier":${str(m.id.text)},"adder":${m.adder ? str(m.adder.text) : 'null'},"client_timestamp_ns":"${m.clientTimestampNs}","chain_id":${chainJson(m.chainId)}}`
  }
  const r = s.recovery
  out += `],"recovery":{"kind":${str(r.id.kind)},"identifier":${str(r.id.text)},"chain_id":${chainJson(r.chainId)}},"handles":[`
  for (let i = 0; i < s.handles.length; i++) out += `${i ? ',' : ''}${str(s.handles[i]!)}`
  out += `],"claim_count":${JSON.stringify(s.claimCount)},"seen_replay_keys":[`
  const seen = [...s.seen].sort()
  for (let i = 0; i < seen.length; i++) out += `${i ? ',' : ''}${str(seen[i]!)}`
  return `${out}]}`
}

/** The digest of a head state (see the module comment). */
export function stateDigest(state: AssociationState | null): string {
  return sha256(state ? stateJson(state) : 'null')
}

/**
 * One step of the log digest chain: SHA-256 of the digest before (32 zero bytes for none),
 * an entry's sequence id (8 bytes, big-endian) and its bytes (or its IDENT-001 reason),
 * hashed as one buffer in one call.
 */
export function chainDigest(prev: Buffer | null, e: LogEntry): Buffer {
  const u = e.update
  const body = 'error' in u ? (u.bytes ?? Buffer.from(u.error)) : u.bytes
  const buf = Buffer.allocUnsafe(40 + body.byteLength)
  if (prev) buf.set(prev, 0)
  else buf.fill(0, 0, 32)
  buf.writeBigUInt64BE(e.sequenceId, 32)
  buf.set(body, 40)
  return hash('sha256', buf, 'buffer')
}

/** The first row replay would not report `applied`, as replay reports it. */
export function firstFailure(trace: Trace): FirstFailure | null {
  for (const s of trace.steps) {
    if (s.status === 'applied') continue
    if (s.status === 'not_applied') break // cannot happen first: a stop comes before
    return { ...reportRow(s), status: s.status }
  }
  return null
}

/** The row of a source that could not be read as a log at all (or an inbox log that is unreadable). */
export function unreadableRow(source: string, inboxId: string | null, message: string): AuditRow {
  return {
    source,
    inbox_id: inboxId,
    ok: false,
    updates: 0,
    head: null,
    first_failure: { sequence_id: null, status: 'unreadable', rule: null, action_index: null, message },
    members: 0,
    state_digest: stateDigest(null),
    log_digest: sha256('unreadable'),
    checked: 0,
  }
}

/** The verdict class of a row, for the summary. */
function verdictOf(row: AuditRow): 'ok' | FailureStatus {
  return row.first_failure === null ? 'ok' : row.first_failure.status
}

/** Counts rows into a summary. */
export class Tally {
  private readonly s: Omit<Summary, 'seconds'> = {
    inboxes: 0,
    ok: 0,
    rejected: 0,
    pending: 0,
    unreadable: 0,
    updates: 0,
    checked: 0,
  }
  /** Counts a row; `judged` false for a row an earlier (killed) process of the run judged. */
  add(row: AuditRow, judged = true): void {
    this.s.inboxes++
    this.s[verdictOf(row)]++
    this.s.updates += row.updates
    if (judged) this.s.checked += row.checked
  }
  get inboxes(): number {
    return this.s.inboxes
  }
  get updates(): number {
    return this.s.updates
  }
  summary(seconds: number): Summary {
    const { checked, ...counts } = this.s
    return { ...counts, seconds: Math.round(seconds * 1000) / 1000, checked }
  }
}
