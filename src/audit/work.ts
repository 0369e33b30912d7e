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
import type { AuditRow } from './row'
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
  | { readonly id: number; readonly ok: true; readonly outcomes: WireOutcomes }
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

/**
 * A batch's outcomes as a thread sends them: three values whatever their number, so the
 * message is two strings and one transferred buffer, not a clone of an object tree per
 * inbox (which the main thread, the busiest, had to rebuild).
 */
export interface WireOutcomes {
  /** Each outcome's row as JSON (made here: the store keeps it, the report prints it), one a line. */
  readonly rows: string
  /** JSON: per outcome its source, key, last sequence id, log digest, state format and state length (-1: none). */
  readonly heads: string
  /** The states, one after the other. */
  readonly states: ArrayBuffer
}

const HEAD_WIDTH = 6

/** Packs outcomes for the message to the main thread (see WireOutcomes). */
export function packOutcomes(outcomes: readonly AuditOutcome[]): { outcomes: WireOutcomes; transfer: ArrayBuffer[] } {
  let total = 0
  for (const o of outcomes) total += o.head.state?.byteLength ?? 0
  const states = new ArrayBuffer(total)
  const bytes = new Uint8Array(states)
  const heads: (string | number | null)[] = []
  let rows = ''
  let at = 0
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!
    const h = o.head
    // JSON text holds no raw line break, so a line is one row.
    rows += i ? `\n${JSON.stringify(o.row)}` : JSON.stringify(o.row)
    const st = h.state
    if (st) {
      bytes.set(st, at)
      at += st.byteLength
    }
    heads.push(o.source, o.key, h.lastSeq, h.logDigest, h.stateFormat, st ? st.byteLength : -1)
  }
  return { outcomes: { rows, heads: JSON.stringify(heads), states }, transfer: [states] }
}

/** The outcomes of a thread's message (the inverse of packOutcomes; each row's JSON kept as `json`). */
export function unpackOutcomes(w: WireOutcomes): AuditOutcome[] {
  const heads = JSON.parse(w.heads) as (string | number | null)[]
  const n = heads.length / HEAD_WIDTH
  const jsons = n ? w.rows.split('\n') : []
  if (jsons.length !== n) throw new Error(`audit thread: ${jsons.length} rows for ${n} heads`)
  const out: AuditOutcome[] = []
  let at = 0
  for (let i = 0; i < n; i++) {
    const k = i * HEAD_WIDTH
    const json = jsons[i]!
    const row = JSON.parse(json) as AuditRow
    const length = heads[k + 5] as number
    const state = length < 0 ? null : new Uint8Array(w.states, at, length)
    if (state) at += length
    out.push({
      source: heads[k] as string,
      key: heads[k + 1] as string,
      row,
      json,
      head: {
        lastSeq: heads[k + 2] as string | null,
        logDigest: heads[k + 3] as string,
        stateFormat: heads[k + 4] as number,
        state,
        row,
      },
    })
  }
  return out
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
