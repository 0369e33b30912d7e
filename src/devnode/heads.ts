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
 *
 * Heads are also saved beside the log (the store's `heads` table, issue #14 "also seen":
 * the first publish after a restart waited 1-7 s while logs were replayed). A saved head
 * is used in place of a replay only when it matches the log: it is of HEAD_FORMAT, it is
 * as of the inbox's newest stored sequence id, and its digest equals the digest of the
 * stored log (SHA-256 chained over every stored update's sequence id and bytes), so an
 * update stored by another process, a rolled-back write or an edited file all fall back to
 * the replay. Checking reads and hashes the inbox's log, but decodes and verifies nothing.
 */
import { createHash } from 'node:crypto'
import { deserialize, serialize } from 'node:v8'
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { decodeUpdate } from '../core/decode/update'
import { RuleViolation } from '../core/errors'
import type { RuleId } from '../core/rules'
import type { AssociationState } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { verifyUpdate } from '../core/verify/update'
import { applyDelta, stateDelta, type StateDelta } from '../worker/transfer'
import type { SavedHead, Store, StoredUpdate } from './store'
import { nodeVerifyOptions } from './verify-context'

/**
 * The format of a saved head: bump it when the core's rules or the StateDelta change
 * what a replay would build, so heads saved by an older node are rebuilt, not trusted.
 */
const HEAD_FORMAT = 1

/** The digest of a log: SHA-256 chained over each update's sequence id (8 bytes, big endian) and bytes. */
function logDigest(prev: Uint8Array | null, rows: readonly Pick<StoredUpdate, 'sequenceId' | 'bytes'>[]): Uint8Array {
  let d = prev ?? new Uint8Array(32)
  const seq = Buffer.alloc(8)
  for (const r of rows) {
    seq.writeBigUInt64BE(r.sequenceId)
    d = createHash('sha256').update(d).update(seq).update(r.bytes).digest()
  }
  return new Uint8Array(d)
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b))

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
  counted: () => void,
): Promise<Head> {
  let last = newest
  for (const row of rows) {
    counted()
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
  /** The digest of the log each cached ok head was built from (see logDigest). */
  private readonly digests = new Map<string, { readonly newest: bigint; readonly digest: Uint8Array }>()
  /** Stored updates applied to build heads since this process started (a replay's cost; tests count it). */
  replayed = 0

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
      p = this.build(inboxId, newest, cached).finally(() => this.building.delete(key))
      this.building.set(key, p)
    }
    return p
  }

  private async build(inboxId: string, newest: bigint, cached: Head | undefined): Promise<Head> {
    // Only the updates after a good cached head are applied; else the saved head, if it
    // matches the log; otherwise the whole log.
    const from = cached?.kind === 'ok' && cached.newest !== null ? cached : null
    const rows = this.store.updatesAfter(inboxId, from?.newest ?? 0n)
    const known = from ? this.digests.get(inboxId) : undefined
    const prev = known && known.newest === from?.newest ? known.digest : null
    const digest = from && !prev ? null : logDigest(prev, rows)
    const saved = from ? null : this.restore(inboxId, newest, digest!)
    const head =
      saved ??
      (await fold(from?.state ?? null, from?.newest ?? null, rows, this.options, () => {
        this.replayed++
      }))
    // Admission may have recorded a newer head while this one was built: keep the newer.
    const now = this.cache.get(inboxId)
    const newer = now?.newest != null && head.newest !== null && now.newest > head.newest
    if (head.kind !== 'pending' && !newer) {
      this.cache.set(inboxId, head)
      if (head.kind === 'ok' && head.state && head.newest !== null && digest) {
        this.digests.set(inboxId, { newest: head.newest, digest })
        if (!saved) this.store.saveHead(inboxId, savedHead(head.state, head.newest, digest))
      } else this.digests.delete(inboxId)
    }
    return head
  }

  /** The saved head of the inbox when it matches the stored log (`digest`, as of `newest`); else null. */
  private restore(inboxId: string, newest: bigint, digest: Uint8Array): Head | null {
    const s = this.store.savedHead(inboxId)
    if (!s || s.format !== HEAD_FORMAT || s.sequenceId !== newest || !sameBytes(s.logDigest, digest)) return null
    try {
      return { kind: 'ok', state: applyDelta(null, deserialize(s.state) as StateDelta), newest }
    } catch {
      return null // an unreadable saved head is rebuilt by replay
    }
  }

  /**
   * Saves the head admission is storing (call inside its transaction, after the insert):
   * the update `row` applied to the head as of `previous` gives `state`. Returns what
   * set() takes once the transaction committed.
   */
  save(
    inboxId: string,
    previous: bigint | null,
    row: Pick<StoredUpdate, 'sequenceId' | 'bytes'>,
    state: AssociationState,
  ): Uint8Array {
    const known = this.digests.get(inboxId)
    const digest =
      previous === null
        ? logDigest(null, [row])
        : known && known.newest === previous
          ? logDigest(known.digest, [row])
          : logDigest(null, this.store.updatesAfter(inboxId, 0n))
    this.store.saveHead(inboxId, savedHead(state, row.sequenceId, digest))
    return digest
  }

  /** Records the head admission just stored (no replay needed), with the digest save() returned. */
  set(inboxId: string, state: AssociationState, newest: bigint, digest: Uint8Array): void {
    this.cache.set(inboxId, { kind: 'ok', state, newest })
    this.digests.set(inboxId, { newest, digest })
  }

  /** Forgets a cached head (the store moved under it). */
  forget(inboxId: string): void {
    this.cache.delete(inboxId)
    this.digests.delete(inboxId)
  }
}

function savedHead(state: AssociationState, sequenceId: bigint, digest: Uint8Array): SavedHead {
  return {
    sequenceId,
    format: HEAD_FORMAT,
    logDigest: digest,
    state: new Uint8Array(serialize(stateDelta(null, state))),
  }
}
