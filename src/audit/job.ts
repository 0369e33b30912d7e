/**
 * The audit's one job function (design.md "Scale"): inbox logs in, result rows out, run by
 * both drivers (the embedded worker threads, ./thread.ts, and `audit-worker` on PostgreSQL).
 *
 * Each log is judged as `replay` judges it (src/core/replay.ts, the fast crypto context),
 * unless an earlier run left its head (`prior`): when the log still begins with every update
 * that head was built from (the log digest up to the head's last sequence id is the same),
 * only the updates after it are judged, replay resuming from the saved state. A log that
 * stopped at a rejection stays stopped (the spec reads no further: IDENT-004), so its new
 * updates need no check; a `pending` stop (IDENT-061) is judged again, since the chain may
 * answer now. Anything else (an edited log, a missing head, a state format
 * ./state-codec.ts no longer reads) is replayed in full; a head of an older format it still
 * reads is resumed, and written again in the current one.
 */
import { LogInputError } from '../core/errors'
import { replay, sortedEntries, type ReplayOptions } from '../core/replay'
import type { InboxLog, LogEntry } from '../core/types'
import { decodeState, encodeState, readsStateFormat, STATE_FORMAT } from './state-codec'
import { type AuditRow, chainDigest, firstFailure, stateDigest, unreadableRow } from './row'

/** What a run keeps of an inbox for the next one. */
export interface PriorHead {
  /** The sequence id of the last update covered. */
  readonly lastSeq: string | null
  /** The log digest up to and including lastSeq (hex). */
  readonly logDigest: string
  readonly stateFormat: number
  /** The head state (./state-codec.ts); null when no update applied. */
  readonly state: Uint8Array | null
  readonly row: AuditRow
}

export interface AuditInput {
  readonly source: string
  /** The inbox's key within its source (its inbox id, or `#n` in a file without one). */
  readonly key: string
  /** The log, or why the source could not be read. */
  readonly log: InboxLog | { readonly unreadable: string; readonly inboxId: string | null }
  readonly prior?: PriorHead | null
}

export interface AuditOutcome {
  readonly source: string
  readonly key: string
  readonly row: AuditRow
  /** What the next run resumes from. */
  readonly head: PriorHead
  /** The row's JSON, when a thread made it already (the store keeps it, the report prints it). */
  readonly json?: string
}

const bigintCmp = (a: LogEntry, b: LogEntry): number =>
  a.sequenceId < b.sequenceId ? -1 : a.sequenceId > b.sequenceId ? 1 : 0

function headOf(row: AuditRow, lastSeq: bigint | null, state: Uint8Array | null): PriorHead {
  return {
    lastSeq: lastSeq === null ? null : lastSeq.toString(),
    logDigest: row.log_digest,
    stateFormat: STATE_FORMAT,
    state,
    row,
  }
}

/** Judges one inbox log (see the module comment). */
export async function auditOne(input: AuditInput, opts: ReplayOptions): Promise<AuditOutcome> {
  const { source, key } = input
  if ('unreadable' in input.log) {
    const row = unreadableRow(source, input.log.inboxId, input.log.unreadable)
    return { source, key, row, head: headOf(row, null, null) }
  }
  const log = input.log
  let entries: LogEntry[]
  try {
    entries = sortedEntries(log)
  } catch (e) {
    if (!(e instanceof LogInputError)) throw e
    const row = unreadableRow(source, log.inboxId ?? null, e.message)
    return { source, key, row, head: headOf(row, null, null) }
  }
  // The log digest after each entry up to the prior head, then to the end.
  const prior = input.prior
  let digest: Buffer | null = null
  let resumeAt = 0
  let resumable = false
  if (prior && readsStateFormat(prior.stateFormat) && prior.lastSeq !== null) {
    const last = BigInt(prior.lastSeq)
    let i = 0
    for (; i < entries.length && entries[i]!.sequenceId <= last; i++) digest = chainDigest(digest, entries[i]!)
    resumable = i > 0 && entries[i - 1]!.sequenceId === last && digest!.toString('hex') === prior.logDigest
    resumeAt = i
  }
  if (!resumable) {
    digest = null
    resumeAt = 0
  }
  for (let i = resumeAt; i < entries.length; i++) digest = chainDigest(digest, entries[i]!)
  const logDigest = (digest ?? chainDigest(null, { sequenceId: 0n, update: { error: 'empty log' } })).toString('hex')
  const lastSeq = entries.length ? entries[entries.length - 1]!.sequenceId : null
  const head = lastSeq === null ? null : lastSeq.toString()

  if (resumable && prior) {
    const stopped = prior.row.first_failure
    if (stopped && stopped.status === 'rejected') {
      // The log cannot be read past its rejection: the new updates change nothing but the counts.
      const row: AuditRow = { ...prior.row, source, updates: entries.length, head, log_digest: logDigest, checked: 0 }
      delete row.changed
      return { source, key, row, head: { ...prior, lastSeq: head, logDigest, row } }
    }
    if (!stopped) {
      const from = prior.state ? decodeState(prior.state, prior.stateFormat) : null
      if (prior.state === null || from !== null) {
        const rest = entries.slice(resumeAt)
        const trace = await replay({ ...log, entries: rest }, { ...opts, from })
        const row: AuditRow = {
          source,
          inbox_id: prior.row.inbox_id ?? trace.inboxId,
          ok: trace.ok,
          updates: entries.length,
          head,
          first_failure: firstFailure(trace),
          members: trace.head ? trace.head.members.size : 0,
          state_digest: trace.head === from ? prior.row.state_digest : stateDigest(trace.head),
          log_digest: logDigest,
          checked: rest.length,
        }
        // An unchanged head keeps its bytes when they are of the current format (headOf labels them so).
        const state =
          trace.head === from && prior.stateFormat === STATE_FORMAT
            ? prior.state
            : trace.head
              ? encodeState(trace.head)
              : null
        return { source, key, row, head: headOf(row, lastSeq, state) }
      }
    }
  }
  const trace = await replay({ ...log, entries: entries.sort(bigintCmp) }, opts)
  const row: AuditRow = {
    source,
    inbox_id: trace.inboxId,
    ok: trace.ok,
    updates: entries.length,
    head,
    first_failure: firstFailure(trace),
    members: trace.head ? trace.head.members.size : 0,
    state_digest: stateDigest(trace.head),
    log_digest: logDigest,
    checked: entries.length,
  }
  return { source, key, row, head: headOf(row, lastSeq, trace.head ? encodeState(trace.head) : null) }
}

/** The job: a batch of inbox logs, judged one after the other in this thread. */
export async function auditBatch(inputs: readonly AuditInput[], opts: ReplayOptions): Promise<AuditOutcome[]> {
  const out: AuditOutcome[] = []
  for (const input of inputs) out.push(await auditOne(input, opts))
  return out
}
