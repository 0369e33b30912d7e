/**
 * The verification stage's transfer format: an update to verify (a VerifyJob) and what
 * its verification found (a VerifyResult), as they cross a worker boundary (Web Worker
 * postMessage, worker_threads) by structured clone.
 *
 * Both are plain data: objects, arrays, strings, numbers, bigints, null and Uint8Arrays
 * that do not share the input's buffer (a subarray of a large input would otherwise clone
 * the whole input with every job). No class instances, no immutable.js collections. A job carries
 * only what verification reads (IDENT-020: the text is built from the update's own
 * fields); the update's bytes stay on the sending side, and `fromResult` puts the
 * sender's own UnverifiedUpdate back into the VerifiedUpdate, so a Trace built from a
 * result is the Trace built from local verification.
 */
import type { SignatureCheck } from '../trace'
import type { UnverifiedUpdate } from '../types'
import type { VerifiedUpdate } from './update'

/** An update as verification needs it. */
export interface VerifyJob {
  /** The sender's handle for the update (its index in the log). */
  readonly seq: number
  readonly update: Pick<UnverifiedUpdate, 'inboxId' | 'clientTimestampNs' | 'actions'>
}

/** What verifying one job found. */
export interface VerifyResult {
  readonly seq: number
  readonly text: string
  readonly checks: readonly SignatureCheck[]
}

/** The job for one update. */
export function toJob(seq: number, u: UnverifiedUpdate): VerifyJob {
  return toJobs([{ seq, update: u }])[0]!
}

/**
 * The jobs for a batch of updates, as one message carries them: a deep copy (plain
 * objects and arrays only) in which every byte array of the batch is a view
 * of one new buffer. Structured clone then copies that buffer once, where arrays owning
 * their buffers cost an allocation each on both sides (an update has about five: keys,
 * signatures, authenticator data): the copy and its clone took 67–70 ms for 10,000 updates
 * in batches of 4 against 98–135 ms with an own buffer per array (Node 20, medians of 9,
 * alternating, load 5.5).
 */
export function toJobs(batch: readonly { readonly seq: number; readonly update: UnverifiedUpdate }[]): VerifyJob[] {
  const fields = batch.map(({ update: u }) => ({
    inboxId: u.inboxId,
    clientTimestampNs: u.clientTimestampNs,
    actions: u.actions,
  }))
  const packed = packedCopy(fields)
  return batch.map(({ seq }, i) => ({ seq, update: packed[i]! }))
}

/** Refuses what would not survive a worker boundary as itself. */
function plainObject(value: object): void {
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(
      `verify transfer: a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'class'} instance cannot cross a worker boundary`,
    )
  }
}

/** A deep copy of `value` (plain objects and arrays only) whose byte arrays are views of one new buffer. */
export function packedCopy<T>(value: T): T {
  let size = 0
  const measure = (v: unknown): void => {
    if (v instanceof Uint8Array) size += v.length
    else if (Array.isArray(v)) for (const x of v) measure(x)
    else if (v !== null && typeof v === 'object') {
      plainObject(v)
      for (const k in v) measure((v as Record<string, unknown>)[k])
    }
  }
  measure(value)
  const buffer = new Uint8Array(size)
  let at = 0
  const copy = (v: unknown): unknown => {
    if (v instanceof Uint8Array) {
      buffer.set(v, at)
      at += v.length
      return buffer.subarray(at - v.length, at)
    }
    if (Array.isArray(v)) return v.map(copy)
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const k in v) out[k] = copy((v as Record<string, unknown>)[k])
      return out
    }
    return v
  }
  return copy(value) as T
}

/** The UnverifiedUpdate a receiving worker verifies (its bytes are not sent: verification never reads them). */
export function jobUpdate(job: VerifyJob): UnverifiedUpdate {
  return { ...job.update, bytes: new Uint8Array(0), bytesSource: 'input' }
}

/** The result of a verification, as plain data. */
export function toResult(seq: number, v: VerifiedUpdate): VerifyResult {
  return { seq, text: v.text, checks: v.checks }
}

/** The VerifiedUpdate of the sender's own update from a received result. */
export function fromResult(u: UnverifiedUpdate, r: VerifyResult): VerifiedUpdate {
  return { update: u, text: r.text, checks: r.checks }
}

/** Messages to a verification worker. */
export type ToVerifyWorker = { readonly type: 'verify'; readonly batch: number; readonly jobs: readonly VerifyJob[] }

/** Messages from a verification worker. */
export type FromVerifyWorker =
  /** Sent once, when the worker has loaded its crypto backend. */
  | { readonly type: 'ready'; readonly backend: string }
  | {
      readonly type: 'verified'
      readonly batch: number
      readonly results: readonly VerifyResult[]
      readonly cpuMs: number
    }
  | { readonly type: 'failed'; readonly batch: number; readonly message: string }
