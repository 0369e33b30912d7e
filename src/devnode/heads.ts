/**
 * The in-memory head states of the node's inboxes, rebuilt lazily from the stored log
 * with the core (decode → verify → apply, exactly replay's step, IDENT-004) on first use
 * after start, and whenever the store holds a newer update than the cached head (another
 * process on the same file stored one): then only the newer updates are applied.
 *
 * A stored log is never re-judged by policy (IDENT-084): this applies the spec's rules
 * only, and the admission policy lives in ./admission.ts alone. A stored update that
 * cannot be judged now (a smart contract wallet chain is unreachable, IDENT-061) leaves
 * the head `pending` and is not cached, so the next use tries again.
 */
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { decodeUpdate } from '../core/decode/update'
import { RuleViolation } from '../core/errors'
import type { RuleId } from '../core/rules'
import type { AssociationState } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { verifyUpdate } from '../core/verify/update'
import type { Store, StoredUpdate } from './store'
import { nodeVerifyOptions } from './verify-context'

export type Head =
  /** Every stored update applied; `state` is null for an inbox with no log. */
  | { readonly kind: 'ok'; readonly state: AssociationState | null; readonly newest: bigint | null }
  /** The stored update at `at` could not be judged now (IDENT-061); `state` is the state before it. */
  | {
      readonly kind: 'pending'
      readonly state: AssociationState | null
      readonly newest: bigint | null
      readonly at: bigint
      readonly message: string
    }
  /** The stored update at `at` fails a rule: the log cannot be read past it (spec, Known limitations). */
  | {
      readonly kind: 'unreadable'
      readonly state: AssociationState | null
      readonly newest: bigint | null
      readonly at: bigint
      readonly rule: RuleId
      readonly message: string
    }

export interface HeadsOptions {
  readonly smartWallets?: SmartWalletVerifier
}

/** Applies stored updates in order to `state` (the head at `newest`). */
async function fold(
  state: AssociationState | null,
  newest: bigint | null,
  rows: readonly StoredUpdate[],
  opts: HeadsOptions,
): Promise<Head> {
  let last = newest
  for (const row of rows) {
    const fail = (rule: RuleId, message: string): Head => ({
      kind: 'unreadable',
      state,
      newest: rows[rows.length - 1]!.sequenceId,
      at: row.sequenceId,
      rule,
      message,
    })
    let update
    try {
      update = decodeUpdate(row.bytes)
    } catch (e) {
      if (e instanceof RuleViolation) return fail(e.rule, e.message)
      throw e
    }
    const verified = await verifyUpdate(update, await nodeVerifyOptions(opts.smartWallets))
    try {
      state = applyUpdate(state, verified, row.sequenceId).state
    } catch (e) {
      if (e instanceof RejectedUpdate) return fail(e.violation.rule, e.violation.message)
      if (e instanceof PendingUpdate) {
        return {
          kind: 'pending',
          state,
          newest: rows[rows.length - 1]!.sequenceId,
          at: row.sequenceId,
          message: e.message,
        }
      }
      throw e
    }
    last = row.sequenceId
  }
  return { kind: 'ok', state, newest: last }
}

export class Heads {
  private readonly cache = new Map<string, Head>()
  private readonly building = new Map<string, Promise<Head>>()

  constructor(
    private readonly store: Store,
    private readonly options: HeadsOptions = {},
  ) {}

  /** The inbox's head as of the newest stored update. */
  async get(inboxId: string): Promise<Head> {
    const newest = this.store.newestSequenceId(inboxId)
    const cached = this.cache.get(inboxId)
    if (cached && cached.newest === newest) return cached
    if (newest === null) return { kind: 'ok', state: null, newest: null }
    const key = `${inboxId}@${newest}`
    let p = this.building.get(key)
    if (!p) {
      p = this.build(inboxId, cached).finally(() => this.building.delete(key))
      this.building.set(key, p)
    }
    return p
  }

  private async build(inboxId: string, cached: Head | undefined): Promise<Head> {
    // Only the updates after a good cached head are applied; otherwise the whole log.
    const from = cached?.kind === 'ok' && cached.newest !== null ? cached : null
    const rows = this.store.updatesAfter(inboxId, from?.newest ?? 0n)
    const head = await fold(from?.state ?? null, from?.newest ?? null, rows, this.options)
    // Admission may have recorded a newer head while this one was built: keep the newer.
    const now = this.cache.get(inboxId)
    const newer = now?.newest != null && head.newest !== null && now.newest > head.newest
    if (head.kind !== 'pending' && !newer) this.cache.set(inboxId, head)
    return head
  }

  /** Records the head admission just stored (no replay needed). */
  set(inboxId: string, state: AssociationState, newest: bigint): void {
    this.cache.set(inboxId, { kind: 'ok', state, newest })
  }

  /** Forgets a cached head (the store moved under it). */
  forget(inboxId: string): void {
    this.cache.delete(inboxId)
  }
}
