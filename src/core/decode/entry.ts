/**
 * Building log entries, shared by every log format reader: an update's bytes become a
 * decoded entry or an IDENT-001 error entry (never a file error), sequence ids are
 * parsed exactly, and a log whose sequence ids repeat is refused.
 */
import { LogInputError, RuleViolation } from '../errors'
import type { InboxLog, LogEntry, UndecodableUpdate, UnverifiedUpdate } from '../types'
import { JsonBigInt } from './json'
import { decodeUpdate } from './record'
import './record-eager'
import { bounded, quote } from '../text/quote'

export const UINT64_MAX = (1n << 64n) - 1n

/** `IDENT-001: <reason>` entry content for an update that cannot be decoded. */
export function undecodable(reason: string, actionIndex: number | null, bytes?: Uint8Array): UndecodableUpdate {
  const base = { error: `IDENT-001: ${reason}`, actionIndex }
  return bytes === undefined ? base : { ...base, bytes }
}

/** Decodes an update's bytes; an IDENT-001 failure becomes an error entry carrying the bytes. */
export function decodeOrError(bytes: Uint8Array): UnverifiedUpdate | UndecodableUpdate {
  try {
    return decodeUpdate(bytes)
  } catch (e) {
    if (e instanceof RuleViolation) return undecodable(e.message, e.actionIndex, bytes)
    throw e
  }
}

export function entry(sequenceId: bigint, update: LogEntry['update'], serverTimestampNs?: bigint): LogEntry {
  return serverTimestampNs === undefined ? { sequenceId, update } : { sequenceId, update, serverTimestampNs }
}

/** True for an entry whose update decoded. */
export function isDecoded(u: LogEntry['update']): u is UnverifiedUpdate {
  return !('error' in u)
}

/**
 * A uint64 from a JSON value: a decimal string of digits, a safe non-negative integer
 * number, or an exact big integer kept by ./json.ts. A JSON number above 2^53 that
 * `JSON.parse` already rounded is refused with advice, never silently used.
 * @returns the value, or a reason it is not one
 */
export function uint64FromJson(v: unknown): bigint | { reason: string } {
  if (v instanceof JsonBigInt) {
    if (v.text.startsWith('-')) return { reason: `${v.text} is negative` }
    const n = v.toBigInt()
    return n > UINT64_MAX ? { reason: `${v.text} is above 2^64 - 1` } : n
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || !Number.isInteger(v)) return { reason: `${v} is not an integer` }
    if (v < 0) return { reason: `${v} is negative` }
    if (!Number.isSafeInteger(v)) {
      return { reason: `the JSON number ${v} is above 2^53 and may have been rounded; give it as a decimal string` }
    }
    return BigInt(v)
  }
  if (typeof v === 'string') {
    if (!/^[0-9]+$/.test(v)) return { reason: `${quote(v)} is not a decimal string of digits` }
    const n = BigInt(v)
    return n > UINT64_MAX ? { reason: `${v} is above 2^64 - 1` } : n
  }
  return { reason: `expected a decimal string or a number, found ${describeJson(v)}` }
}

export function describeJson(v: unknown): string {
  if (v === null) return 'null'
  if (v === undefined) return 'nothing'
  if (Array.isArray(v)) return 'an array'
  if (v instanceof JsonBigInt) return `the number ${v.text}`
  if (typeof v === 'object') return 'an object'
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
  return `${typeof v} ${String(v)}`
}

/**
 * Two updates with the same sequence id make a log unreadable (../shared/contracts/cli.md,
 * `replay`): which one is the update at that id is undefined.
 * @param where names entry `i` for the error, e.g. (i) => `$.updates[${i}]`
 */
export function assertUniqueSequenceIds(log: InboxLog, where: (i: number) => string): void {
  const repeat = repeatedSequenceId(log.entries)
  if (!repeat) return
  const [j, i] = repeat
  const seq = log.entries[i]!.sequenceId
  throw new LogInputError(
    log.format,
    where(i),
    `sequence id ${seq} appears twice in the log${log.inboxId ? ` of inbox ${bounded(log.inboxId)}` : ''} (also at ${where(j)})`,
  )
}

/** The first sequence id `es` carries twice, as [its first place, its second], or null when all are unique. */
export function repeatedSequenceId(es: readonly { readonly sequenceId: bigint }[]): readonly [number, number] | null {
  // Logs come in sequence order: strictly increasing ids are unique, no table needed.
  let increasing = true
  for (let i = 1; i < es.length && increasing; i++) increasing = es[i - 1]!.sequenceId < es[i]!.sequenceId
  if (increasing) return null
  const first = new Map<bigint, number>()
  for (let i = 0; i < es.length; i++) {
    const j = first.get(es[i]!.sequenceId)
    if (j !== undefined) return [j, i]
    first.set(es[i]!.sequenceId, i)
  }
  return null
}
