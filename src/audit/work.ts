/**
 * A unit of audit work as it travels to a thread (./thread.ts) or is run in place (the
 * PostgreSQL worker's fallback), and the code that runs it: the job function (./job.ts)
 * with the fast crypto context and the `--chain` routes' smart contract wallet verifier.
 */
import { parseChainRoute, routeTable } from '../chain/routes'
import type { ReplayOptions } from '../core/replay'
import { fastContext } from '../core/verify/fast'
import { lazyChainVerifier } from '../cli/chain-verifier'
import { type AuditOutcome, auditBatch, type PriorHead } from './job'
import { fileInputs, inputOf, type WireLog } from './inputs'

export type Batch =
  /** Files read by the thread itself (the embedded run over files): the priors by source, then key. */
  | {
      readonly kind: 'files'
      readonly paths: readonly string[]
      readonly priors: Readonly<Record<string, Readonly<Record<string, PriorHead>>>>
    }
  /** Logs carried as entries (a snapshot): each with its prior. */
  | { readonly kind: 'logs'; readonly logs: readonly (WireLog & { readonly prior?: PriorHead | null })[] }

export interface ToAuditThread {
  readonly id: number
  readonly batch: Batch
  /** The `--chain` routes (eip155:<id>=<url>). */
  readonly chains: readonly string[]
}

export type FromAuditThread =
  | { readonly id: number; readonly ok: true; readonly outcomes: AuditOutcome[] }
  | { readonly id: number; readonly ok: false; readonly error: string }

/**
 * Copies byte arrays into one new buffer and points them at it, so that a message carries
 * one buffer, transferred, not one per array. A view into a larger buffer (an update
 * sliced out of a whole file) would otherwise clone that whole buffer with every message.
 */
function packBytes<T>(
  items: readonly T[],
  get: (t: T) => Uint8Array | null | undefined,
  set: (t: T, b: Uint8Array) => T,
): { items: T[]; buffer: ArrayBuffer } {
  let total = 0
  for (const t of items) total += get(t)?.byteLength ?? 0
  const buffer = new ArrayBuffer(total)
  let at = 0
  const out = items.map((t) => {
    const b = get(t)
    if (!b) return t
    const view = new Uint8Array(buffer, at, b.byteLength)
    view.set(b)
    at += b.byteLength
    return set(t, view)
  })
  return { items: out, buffer }
}

/** A batch of logs with every update's bytes in one buffer (see packBytes). */
export function packBatch(batch: Batch): { batch: Batch; transfer: ArrayBuffer[] } {
  if (batch.kind !== 'logs') return { batch, transfer: [] }
  const entries = batch.logs.flatMap((l) => l.entries ?? [])
  const packed = packBytes(
    entries,
    (e) => e.bytes,
    (e, bytes) => ({ ...e, bytes }),
  )
  let i = 0
  const logs = batch.logs.map((l) => (l.entries ? { ...l, entries: l.entries.map(() => packed.items[i++]!) } : l))
  return { batch: { kind: 'logs', logs }, transfer: [packed.buffer] }
}

/** Outcomes with their rows' JSON made here (the store and the report print it) and their states in one buffer. */
export function packOutcomes(outcomes: readonly AuditOutcome[]): { outcomes: AuditOutcome[]; transfer: ArrayBuffer[] } {
  const packed = packBytes(
    outcomes,
    (o) => o.head.state,
    (o, state) => ({ ...o, head: { ...o.head, state } }),
  )
  return {
    outcomes: packed.items.map((o) => ({ ...o, json: JSON.stringify(o.row) })),
    transfer: [packed.buffer],
  }
}

const contexts = new Map<string, Promise<ReplayOptions>>()

/** The replay options for a set of chain routes (loaded once per thread). */
function replayOptions(chains: readonly string[]): Promise<ReplayOptions> {
  const k = chains.join('\n')
  let p = contexts.get(k)
  if (!p) {
    p = fastContext().then(({ ctx }) =>
      chains.length ? { ...ctx, smartWallets: lazyChainVerifier(routeTable(chains.map(parseChainRoute))) } : ctx,
    )
    contexts.set(k, p)
  }
  return p
}

/** Runs one batch: every inbox log it names, judged by the job function. */
export async function runBatch(batch: Batch, chains: readonly string[]): Promise<AuditOutcome[]> {
  const opts = await replayOptions(chains)
  if (batch.kind === 'files') {
    const out: AuditOutcome[] = []
    for (const p of batch.paths) out.push(...(await auditBatch(fileInputs(p, batch.priors[p] ?? {}), opts)))
    return out
  }
  return auditBatch(
    batch.logs.map((l) => inputOf(l, l.prior)),
    opts,
  )
}
