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
