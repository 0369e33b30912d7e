/**
 * The verification stage's transfer format: an update to verify (a VerifyJob) and what
 * its verification found (a VerifyResult), as they cross a worker boundary (Web Worker
 * postMessage, worker_threads) by structured clone.
 *
 * Both are plain data: objects, arrays, strings, numbers, bigints, null and Uint8Arrays
 * that own their buffers (a subarray of a large input would otherwise clone the whole
 * input with every job). No class instances, no immutable.js collections. A job carries
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

/** A deep copy in which every Uint8Array owns its buffer (plain objects and arrays only). */
export function ownedCopy<T>(value: T): T {
  if (value instanceof Uint8Array) return value.slice() as T
  if (Array.isArray(value)) return value.map(ownedCopy) as T
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(
        `verify transfer: a ${(value as object).constructor?.name ?? 'class'} instance cannot cross a worker boundary`,
      )
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = ownedCopy(v)
    return out as T
  }
  return value
}

/** The job for one update. */
export function toJob(seq: number, u: UnverifiedUpdate): VerifyJob {
  return { seq, update: ownedCopy({ inboxId: u.inboxId, clientTimestampNs: u.clientTimestampNs, actions: u.actions }) }
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
