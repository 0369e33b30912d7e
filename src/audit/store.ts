/**
 * The audit's results store, one interface for both drivers: SQLite (`--db`;
 * ./sqlite-store.ts), PostgreSQL (`--store postgres://…`; ./pg-store.ts), and, without
 * either, this process's memory (./memory-store.ts: the same records, none kept after the
 * run). Same tables in SQLite and PostgreSQL:
 *
 *   audit_runs      one row per run: its key (what was audited), when it ended, its summary
 *   audit_units     the run's units of work (a file, or a shard: an inbox-id prefix) and
 *                   whether each is done; a unit's rows and its `done` are written in one
 *                   transaction, so a killed run redoes exactly the units not done
 *   audit_results   the printed rows, keyed by run, source and inbox (an upsert: a job
 *                   done twice writes its rows once)
 *   audit_heads     each inbox's latest head (sequence id, log digest, state), so a later
 *                   run over the same source judges only the updates that arrived since
 *   audit_snapshot  what was read from a node (or, for PostgreSQL, from files): every
 *                   update of the run, read once, so retried jobs see the same input and
 *                   workers never ask the node
 */
import { createHash } from 'node:crypto'
import type { AuditOutcome, PriorHead } from './job'
import type { WireLog } from './inputs'
import type { AuditRow, Summary } from './row'

export interface RunMeta {
  /** What was audited: the file arguments, or the node. */
  readonly sources: readonly string[]
  readonly node?: string
  readonly chains: readonly string[]
  /** The listing is complete (node and PostgreSQL runs). */
  readonly snapshotDone?: boolean
  /** Where the listing stopped (the originator's last sequence id), to resume it. */
  readonly cursor?: string
  readonly gaps?: Summary['sequence_gaps']
  /** The shard prefix length chosen when the snapshot was complete. */
  readonly shardLength?: number
}

export interface Run {
  readonly id: number
  /** An unfinished run with the same key was found and is resumed. */
  readonly resumed: boolean
  meta: RunMeta
}

/** A unit and whether it is done. */
export interface Unit {
  readonly unit: string
  readonly done: boolean
}

export interface AuditStore {
  readonly kind: 'sqlite' | 'postgres' | 'memory'
  /** The unfinished run of this key, or a new one. */
  openRun(key: string, meta: RunMeta): Promise<Run>
  setMeta(run: Run, meta: RunMeta): Promise<void>
  addUnits(run: Run, units: readonly string[]): Promise<void>
  units(run: Run): Promise<Unit[]>
  /** The stored rows of the run's done units (each once), in batches. */
  rows(run: Run, units?: readonly string[]): AsyncIterable<AuditRow[]>
  /** The latest heads of inboxes of these sources and keys (absent when none). */
  priors(pairs: readonly { source: string; key: string }[]): Promise<Map<string, PriorHead>>
  /** Every prior of the sources named (for files read by threads). */
  priorsOfSources(sources: readonly string[]): Promise<Record<string, Record<string, PriorHead>>>
  /** Writes outcomes and marks the units done, in one transaction. */
  commit(
    run: Run,
    units: readonly string[],
    outcomes: readonly { unit: string; outcome: AuditOutcome }[],
  ): Promise<void>
  /** Adds logs (or single updates of them) to the run's snapshot. */
  putSnapshot(run: Run, logs: readonly WireLog[]): Promise<void>
  /** Forgets the run's snapshot (a listing started again). */
  clearSnapshot(run: Run): Promise<void>
  /** The distinct shard prefixes of the snapshot at a prefix length. */
  shardsOf(run: Run, length: number): Promise<string[]>
  /** Inboxes in the snapshot. */
  snapshotInboxes(run: Run): Promise<number>
  /** The logs of a shard (inboxes whose shard key starts with the prefix), with their priors. */
  shard(run: Run, prefix: string): Promise<(WireLog & { prior: PriorHead | null })[]>
  finish(run: Run, summary: Summary): Promise<void>
  close(): Promise<void>
}

export const pairKey = (source: string, key: string): string => `${source}\u0000${key}`

/** The key a shard is cut from: the inbox id when it is one (64 hex digits), else a hash of source and key. */
export function shardKey(source: string, key: string): string {
  return /^[0-9a-f]{64}$/.test(key) ? key : createHash('sha256').update(pairKey(source, key)).digest('hex')
}

/** A sequence id as stored: 20 decimal digits, so text order is numeric order for every uint64. */
const seqText = (seq: bigint): string => seq.toString().padStart(20, '0')

/**
 * One row of a run's snapshot, in the order of its columns after the run id: shard key,
 * source, key, seq ('' on the row of the log itself), inbox id, ts, bytes, error, action
 * index, unreadable.
 */
export type SnapshotRow = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  Uint8Array | null,
  string | null,
  number | null,
  string | null,
]

/** The snapshot rows of logs: for each log a row of its own (inbox id, unreadable), then a row for each of its entries. */
export function* snapshotRows(logs: readonly WireLog[]): Generator<SnapshotRow> {
  for (const l of logs) {
    const sk = shardKey(l.source, l.key)
    yield [sk, l.source, l.key, '', l.inboxId, null, null, null, null, l.unreadable ?? null]
    for (const e of l.entries ?? []) {
      const ts = e.ts == null ? null : e.ts.toString()
      yield [
        sk,
        l.source,
        l.key,
        seqText(e.seq),
        null,
        ts,
        e.bytes ?? null,
        e.error ?? null,
        e.actionIndex ?? null,
        null,
      ]
    }
  }
}

/** Shard prefix length: about `perShard` inboxes a shard (at most 6 hex digits, 16.7 million shards). */
export function shardLength(inboxes: number, perShard: number): number {
  let l = 0
  while (l < 6 && inboxes / 16 ** l > perShard) l++
  return l
}

/** The prior head of a stored row set. */
export function priorOf(r: {
  last_seq: string | null
  log_digest: string
  state_format: number
  state: Uint8Array | null
  row: string
}): PriorHead {
  return {
    lastSeq: r.last_seq,
    logDigest: r.log_digest,
    stateFormat: Number(r.state_format),
    state: r.state ? new Uint8Array(r.state) : null,
    row: JSON.parse(r.row) as AuditRow,
  }
}
