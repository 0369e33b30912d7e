/**
 * Admission (IDENT-005): the node stores an update only if the core applies it to the
 * inbox's head state (null for a new inbox), then the checks only a backend makes:
 *
 *   1. verify every signature (the SmartWalletVerifier port for erc_6492)
 *   2. under the inbox's lock: the head (./heads.ts), then applyUpdate
 *        RejectedUpdate → 409 with its rule; PendingUpdate → 503 (IDENT-061)
 *   3. IDENT-062 for every erc_6492 signature, through the FreshnessCheck port
 *        stale or future block → 409 IDENT-062; cannot tell → 503 (IDENT-061)
 *   4. the claim policy (section 10; 422, `rule` null, `code` naming the policy):
 *        handle_reserved, handle_too_short, handle_taken (another inbox's log claimed
 *        it), claim_too_soon (since the inbox's previous claim, by the node's clock)
 *   5. in one IMMEDIATE transaction: the head did not move (else 409 head_moved: the
 *      judgement is async, and another process may share the file), the store-backed
 *      policy checks again, then the update, its indexes and the new head state (saved
 *      beside the log, ./heads.ts) are stored.
 *
 * Policy is admission only (IDENT-084): ./heads.ts replays stored logs by the spec's
 * rules alone, so a stricter policy after a restart never un-applies a stored claim.
 * Spec rules are judged before policy: an update that breaks a rule gets 409, never 422.
 */
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { ChainUnreachableError } from '../core/errors'
import { signatureFreeRefusal } from '../core/judge-order'
import type { AssociationState, UnverifiedUpdate } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import type { VerifiedUpdate } from '../core/verify/update'
import { ApiError, ruleViolation } from './errors'
import { offThreadVerifier, type OffThreadVerifier, type UpdateVerifier } from './off-thread'
import type { Head, Heads } from './heads'
import { decodePublish, type Encoding } from './codec'
import { outcomeError, restamp, smartWalletBlocks } from './judge'
import { JudgeThread, JudgeThreadFailed, LARGE_PUBLISH_BYTES, type StartJudgeWorker } from './judge-thread'
import { applyDelta, stateDelta } from '../worker/transfer'
import { claimPolicyProblem, type ClaimPolicy } from '../network/claim-policy'
import { KeyedLock } from './lock'
import type { Store } from './store'

export type { ClaimPolicy }

// ---- policy -----------------------------------------------------------------------------

const DEFAULT_RESERVED: readonly string[] = [
  'admin',
  'administrator',
  'help',
  'root',
  'security',
  'support',
  'system',
  'xmtp',
]

export const DEFAULT_POLICY: ClaimPolicy = { minHandleLength: 3, reserved: DEFAULT_RESERVED, claimIntervalNs: 0n }

/** The store-free policy checks of a claim (reserved, too short); null when it passes. */
function staticPolicyProblem(handle: string, policy: ClaimPolicy): ApiError | null {
  const p = claimPolicyProblem(handle, policy)
  return p ? new ApiError(422, p.code, p.message) : null
}

/** The store-backed policy checks of a claim (holder, interval); null when it passes. */
function storePolicyProblem(
  store: Store,
  inboxId: string,
  handle: string,
  nowNs: bigint,
  policy: ClaimPolicy,
): ApiError | null {
  const other = store.claimersOf(handle).find((c) => c.inboxId !== inboxId)
  if (other) {
    return new ApiError(
      422,
      'handle_taken',
      `the handle ${JSON.stringify(handle)} is held by inbox ${other.inboxId} (claimed at sequence id ${other.sequenceId})`,
    )
  }
  if (policy.claimIntervalNs > 0n) {
    const last = store.lastClaimAt(inboxId)
    if (last !== null && nowNs - last < policy.claimIntervalNs) {
      const waitMs = (policy.claimIntervalNs - (nowNs - last) + 999_999n) / 1_000_000n
      return new ApiError(
        422,
        'claim_too_soon',
        `inbox ${inboxId} claimed a handle ${(nowNs - last) / 1_000_000n} ms ago; this node admits one claim per ${policy.claimIntervalNs / 1_000_000n} ms (retry in ${waitMs} ms)`,
      )
    }
  }
  return null
}

// ---- IDENT-062 freshness port -------------------------------------------------------------

export interface FreshnessRequest {
  readonly chainId: bigint
  readonly blockNumber: bigint
}

export type FreshnessVerdict = { readonly fresh: true } | { readonly fresh: false; readonly reason: string }

/**
 * IDENT-062: a block is fresh when it is not above the chain's head and its timestamp is
 * at most 1800 s before the head's. Implementations throw ChainUnreachableError when they
 * cannot tell (no route, transport failure): admission then answers 503 (IDENT-061).
 * main.ts wires the chain module's ChainFreshness (src/chain/freshness.ts); tests use fakes.
 */
export interface FreshnessCheck {
  check(request: FreshnessRequest): Promise<FreshnessVerdict>
}

/** The check when no chain is configured: it can never tell, so erc_6492 updates wait (503). */
export const NO_FRESHNESS: FreshnessCheck = {
  async check(r) {
    throw new ChainUnreachableError(r.chainId, `no RPC route for chain eip155:${r.chainId}`)
  },
}

// ---- admission ------------------------------------------------------------------------------

/** The refusal of a publish to an inbox whose stored log cannot be read now (pending) or past an update (unreadable). */
function headRefusal(inboxId: string, head: Exclude<Head, { kind: 'ok' }>): ApiError {
  if (head.kind === 'pending') {
    return new ApiError(
      503,
      'chain_unreachable',
      `the stored log of inbox ${inboxId} cannot be replayed now: the update at sequence id ${head.at} waits for a chain (${head.message}); retry later`,
      'IDENT-061',
    )
  }
  return new ApiError(
    409,
    'log_unreadable',
    `the stored log of inbox ${inboxId} cannot be read past sequence id ${head.at}: ${head.message}`,
    head.rule,
  )
}

/** 503 for an update whose smart contract wallet signature cannot be judged now (IDENT-061). */
const pendingSignature = (message: string): ApiError =>
  new ApiError(
    503,
    'chain_unreachable',
    `a smart contract wallet signature cannot be judged now, retry later: ${message}`,
    'IDENT-061',
  )

export interface AdmissionOptions {
  readonly policy?: ClaimPolicy
  readonly freshness?: FreshnessCheck
  readonly smartWallets?: SmartWalletVerifier
  /** The node's clock in nanoseconds since the epoch (server_timestamp_ns, the claim interval). */
  readonly now?: () => bigint
  /** Verifies an update's signatures (default: ./off-thread.ts; tests hold it open or count calls). */
  readonly verify?: UpdateVerifier
  /** Starts the judge worker of large publishes (default: ./judge-worker.ts; tests break it). */
  readonly startJudgeWorker?: StartJudgeWorker
}

export interface Admitted {
  readonly sequenceId: bigint
  readonly serverTimestampNs: bigint
  readonly state: AssociationState
  /** The stored bytes of the update. */
  readonly bytes: Uint8Array
}

const systemClockNs = (): bigint => BigInt(Date.now()) * 1_000_000n

export class Admission {
  readonly policy: ClaimPolicy
  private readonly freshness: FreshnessCheck
  private readonly now: () => bigint
  private readonly lock = new KeyedLock()
  private verifier: OffThreadVerifier | null = null
  private judgeThread: JudgeThread | null = null

  constructor(
    private readonly store: Store,
    private readonly heads: Heads,
    private readonly options: AdmissionOptions = {},
  ) {
    this.policy = options.policy ?? DEFAULT_POLICY
    this.freshness = options.freshness ?? NO_FRESHNESS
    this.now = options.now ?? systemClockNs
  }

  /**
   * Admits one decoded update (decoding, IDENT-001, is the caller's: ./codec.ts).
   * @throws ApiError 409 (a rule, head_moved, log_unreadable), 422 (policy), 503 (IDENT-061)
   */
  async admit(update: UnverifiedUpdate): Promise<Admitted> {
    // Issue #14, finding 1: what needs no signature first (../core/judge-order.ts), on the
    // current head; the judgement under the lock below gives the same answer or a later one.
    const head = await this.heads.get(update.inboxId)
    if (head.kind === 'ok') {
      const refusal = signatureFreeRefusal(head.state, update)
      if (refusal) throw ruleViolation(update.inboxId, refusal.violation)
    }
    // Signatures do not depend on the state: verify before taking the inbox's lock, off the
    // request path for a large update (./off-thread.ts).
    const verified = await this.verify(update)
    return this.lock.run(update.inboxId, () => this.judge(verified))
  }

  private verify(update: UnverifiedUpdate): Promise<VerifiedUpdate> {
    if (this.options.verify) return this.options.verify(update)
    this.verifier ??= offThreadVerifier(this.options.smartWallets)
    return this.verifier.verify(update)
  }

  /**
   * Admits the update a publish request's body carries. A large body (LARGE_PUBLISH_BYTES)
   * is decoded and judged on the judge worker (./judge.ts, issue #14 finding 1), so the
   * request thread keeps answering (erc_6492 signatures included: the worker asks this
   * thread's smart wallet port for them); a smaller one, or one the worker could not
   * judge, is decoded here and admitted by admit().
   * `onInbox` hears the update's inbox id once it is decoded.
   * @throws ApiError 400 (IDENT-001) and the errors of admit()
   */
  async admitBody(enc: Encoding, body: Uint8Array, onInbox: (inboxId: string) => void): Promise<Admitted> {
    if (body.length >= LARGE_PUBLISH_BYTES && !this.options.verify) {
      try {
        return await this.admitOffThread(enc, body, onInbox)
      } catch (e) {
        if (!(e instanceof JudgeThreadFailed)) throw e
      }
    }
    const update = decodePublish(enc, body)
    onInbox(update.inboxId)
    return this.admit(update)
  }

  /** admitBody on the judge worker (started once, on the first large publish, and kept). */
  private async admitOffThread(enc: Encoding, body: Uint8Array, onInbox: (inboxId: string) => void): Promise<Admitted> {
    this.judgeThread ??= new JudgeThread(this.options.startJudgeWorker, this.options.smartWallets)
    const worker = this.judgeThread
    const decoded = await worker.decode(enc, body)
    if ('outcome' in decoded) {
      if (decoded.outcome.kind === 'refused') throw outcomeError(decoded.outcome)
      throw new JudgeThreadFailed(`unexpected ${decoded.outcome.kind} outcome of a decode`)
    }
    const inboxId = decoded.inboxId
    onInbox(inboxId)
    const head = await this.heads.get(inboxId)
    if (head.kind !== 'ok') {
      worker.drop(decoded.id)
      throw headRefusal(inboxId, head)
    }
    const before = head.state
    const provisional = (head.newest ?? 0n) + 1n
    const outcome = await worker.judge(decoded.id, before ? stateDelta(null, before) : null, provisional)
    if (outcome.kind === 'refused') throw outcomeError(outcome)
    if (outcome.kind === 'pending') throw pendingSignature(outcome.message)
    return this.lock.run(inboxId, async () => {
      // The head was read before the judgement: a publish stored meanwhile moved it.
      const now = await this.heads.get(inboxId)
      if (now.newest !== head.newest) {
        throw new ApiError(
          409,
          'head_moved',
          `the inbox's log moved while the update was judged (head sequence id ${head.newest ?? 'none'}, now ${now.newest ?? 'none'}); fetch the log and retry`,
        )
      }
      return this.commit(inboxId, head, {
        bytes: outcome.bytes,
        claim: outcome.claim,
        blocks: outcome.blocks,
        stateAt: (sequenceId) => applyDelta(before, restamp(outcome.delta, provisional, sequenceId)),
      })
    })
  }

  /** Stops the verification and judge workers, if they started. */
  close(): void {
    this.verifier?.close()
    this.verifier = null
    this.judgeThread?.close()
    this.judgeThread = null
  }

  private async judge(verified: VerifiedUpdate): Promise<Admitted> {
    const { update } = verified
    const inboxId = update.inboxId
    const head = await this.heads.get(inboxId)
    if (head.kind !== 'ok') throw headRefusal(inboxId, head)
    const before = head.state

    // IDENT-005: the update applies to the head state. The sequence id is not known yet;
    // no rule depends on it, and the update is applied again under its own id on insert.
    const provisional = (head.newest ?? 0n) + 1n
    try {
      applyUpdate(before, verified, provisional)
    } catch (e) {
      if (e instanceof RejectedUpdate) throw ruleViolation(inboxId, e.violation)
      if (e instanceof PendingUpdate) throw pendingSignature(e.message)
      throw e
    }
    // Section 10: the claim policy (IDENT-079 makes a claim the update's only action).
    const claim =
      update.actions.length === 1 && update.actions[0]!.kind === 'claim_handle' ? update.actions[0]!.handle : null
    return this.commit(inboxId, head, {
      bytes: update.bytes,
      claim,
      blocks: smartWalletBlocks(verified),
      // The same judgement as above, under the update's real sequence id (Member.addedAt).
      stateAt: (sequenceId) => applyUpdate(before, verified, sequenceId).state,
    })
  }

  /** What follows a judgement that applies: IDENT-062, the claim policy, the one transaction. */
  private async commit(
    inboxId: string,
    head: Extract<Head, { kind: 'ok' }>,
    judged: {
      readonly bytes: Uint8Array
      readonly claim: string | null
      readonly blocks: readonly FreshnessRequest[]
      readonly stateAt: (sequenceId: bigint) => AssociationState
    },
  ): Promise<Admitted> {
    const before = head.state
    const { claim } = judged
    // IDENT-062: a fresh block for every erc_6492 signature, at admission only.
    for (const req of judged.blocks) {
      let verdict: FreshnessVerdict
      try {
        verdict = await this.freshness.check(req)
      } catch (e) {
        const reason = e instanceof ChainUnreachableError ? e.reason : e instanceof Error ? e.message : String(e)
        throw new ApiError(
          503,
          'chain_unreachable',
          `the freshness of block ${req.blockNumber} on chain eip155:${req.chainId} cannot be judged now, retry later: ${reason}`,
          'IDENT-061',
        )
      }
      if (!verdict.fresh) {
        throw new ApiError(
          409,
          'stale_block',
          `the erc_6492 signature names block ${req.blockNumber} on chain eip155:${req.chainId}: ${verdict.reason}`,
          'IDENT-062',
        )
      }
    }

    // Section 10: the claim policy.
    if (claim !== null) {
      const p =
        staticPolicyProblem(claim, this.policy) ??
        storePolicyProblem(this.store, inboxId, claim, this.now(), this.policy)
      if (p) throw p
    }

    const stored = this.store.transaction(() => {
      const newest = this.store.newestSequenceId(inboxId)
      if (newest !== head.newest) {
        this.heads.forget(inboxId)
        throw new ApiError(
          409,
          'head_moved',
          `the inbox's log moved while the update was judged (head sequence id ${head.newest ?? 'none'}, now ${newest}); fetch the log and retry`,
        )
      }
      const serverTimestampNs = this.now()
      if (claim !== null) {
        const p = storePolicyProblem(this.store, inboxId, claim, serverTimestampNs, this.policy)
        if (p) throw p
      }
      const sequenceId = this.store.insert(inboxId, serverTimestampNs, judged.bytes, claim)
      const state = judged.stateAt(sequenceId)
      this.store.indexMembers(
        inboxId,
        [...state.members.keys()].filter((k) => !before?.members.has(k)),
      )
      // The head saved beside the log in the same transaction (./heads.ts).
      const digest = this.heads.save(inboxId, head.newest, { sequenceId, bytes: judged.bytes }, state)
      return { sequenceId, serverTimestampNs, state, digest }
    })
    this.heads.set(inboxId, stored.state, stored.sequenceId, stored.digest)
    return {
      sequenceId: stored.sequenceId,
      serverTimestampNs: stored.serverTimestampNs,
      state: stored.state,
      bytes: judged.bytes,
    }
  }
}
