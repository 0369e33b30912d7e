/**
 * Appending a signed update to the open log (the signing playground): the log is
 * written out again as a log bundle with the exact bytes of every earlier update (never
 * re-encoded, design.md "decode") and the new update at the next sequence id, so that
 * replaying the bundle replays the new update after all the others (IDENT-004).
 */
import { encodeBundleJson } from '../../core/encode/bundle'

export class AppendError extends Error {
  override readonly name = 'AppendError'
  constructor(
    readonly code: 'missing_bytes' | 'empty_update',
    message: string,
  ) {
    super(message)
  }
}

export interface LogEntryBytes {
  readonly sequenceId: bigint
  /** The update's exact bytes; null when the log entry carried none that decode (IDENT-001). */
  readonly bytes: Uint8Array | null
}

export interface AppendedLog {
  /** The log bundle JSON of the log with the update appended. */
  readonly bundle: string
  /** The sequence id the appended update was given: one above the highest in the log (1 for a new log). */
  readonly sequenceId: bigint
  readonly entries: number
}

/**
 * The bundle of `entries` followed by `bytes` at the next sequence id.
 * @throws AppendError('missing_bytes') when an earlier entry has no bytes to keep.
 */
export function appendToBundle(
  entries: readonly LogEntryBytes[],
  inboxId: string | null,
  bytes: Uint8Array,
): AppendedLog {
  if (bytes.length === 0) throw new AppendError('empty_update', 'the update to append has no bytes')
  let max = 0n
  for (const e of entries) if (e.sequenceId > max) max = e.sequenceId
  const missing = entries.filter((e) => e.bytes === null)
  if (missing.length > 0) {
    throw new AppendError(
      'missing_bytes',
      `the open log's update${missing.length === 1 ? '' : 's'} at sequence id ${missing.map((e) => e.sequenceId.toString()).join(', ')} carr${missing.length === 1 ? 'ies' : 'y'} no bytes to keep, so the log cannot be written out again with a new update`,
    )
  }
  const sequenceId = max + 1n
  const updates = [...entries.map((e) => ({ sequenceId: e.sequenceId, bytes: e.bytes! })), { sequenceId, bytes }]
  return { bundle: encodeBundleJson({ ...(inboxId ? { inboxId } : {}), updates }), sequenceId, entries: updates.length }
}
