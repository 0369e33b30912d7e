/**
 * A large publish judged off the request thread (issue #14, finding 1). Decoding an
 * 868 kB update of 4,000 actions, applying it and building its state held the node's one
 * JavaScript thread for hundreds of milliseconds to seconds (p99 of other requests
 * 1.7-2.9 s at load 13-20), even with its signatures verified on a worker. Here a worker
 * thread (./judge-worker.ts) does all of it, in two steps:
 *
 *   decode   the request body → the update's inbox id (or the 400, IDENT-001)
 *   judge    on the inbox's head (sent as a StateDelta, src/worker/transfer.ts): the
 *            signature-free rules (../core/judge-order.ts), verification, apply under the
 *            provisional sequence id → refused (409 and its rule) or applies (the update's
 *            bytes, its claim, and the state's change as a StateDelta)
 *
 * Verification stops once a failed check decides the verdict (../core/judge-order.ts,
 * verifyUntilDecided): a bad signature early in 8,000 verifies no more than it must.
 *
 * The request thread keeps the store, the heads, the lock, the claim policy and the one
 * transaction (./admission.ts), so a publish judged here is stored exactly as before.
 * An update with erc_6492 signatures is judged here too: the smart wallet port (IDENT-060)
 * lives on the request thread (its chain clients), so the worker asks it for each such
 * signature (`smartWallet` → `smartWalletAnswer`) and verifies everything else itself;
 * the request thread only waits on the chain, asynchronously.
 */
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { ChainUnreachableError } from '../core/errors'
import { verifyUntilDecided } from '../core/judge-order'
import type { UnverifiedUpdate, WireSignature } from '../core/types'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'
import { signaturesOf, type VerifiedUpdate } from '../core/verify/update'
import { applyDelta, stateDelta, type StateDelta } from '../worker/transfer'
import { decodePublish, type Encoding } from './codec'
import { ApiError, ruleViolation, type ApiStatus } from './errors'
import { nodeVerifyOptions } from './verify-context'

/** What a judged publish comes to, as plain data. */
export type JudgeOutcome =
  | {
      readonly kind: 'refused'
      readonly status: ApiStatus
      readonly code: string
      readonly message: string
      readonly rule: ApiError['rule']
    }
  | { readonly kind: 'pending'; readonly message: string }
  | {
      readonly kind: 'applies'
      /** The exact bytes to store. */
      readonly bytes: Uint8Array
      /** The handle a lone ClaimHandle claims (section 10 policy), else null. */
      readonly claim: string | null
      /** The head state's change, under the provisional sequence id. */
      readonly delta: StateDelta
      /** The (chain, block) of every erc_6492 signature that verified, once each (IDENT-062). */
      readonly blocks: readonly SmartWalletBlock[]
    }

/** A block an erc_6492 signature names, whose freshness admission checks (IDENT-062). */
export interface SmartWalletBlock {
  readonly chainId: bigint
  readonly blockNumber: bigint
}

/** The (chain, block) of every erc_6492 signature that verified, once each. */
export function smartWalletBlocks(v: VerifiedUpdate): SmartWalletBlock[] {
  const out = new Map<string, SmartWalletBlock>()
  for (const c of v.checks) {
    if (c.kind !== 'erc_6492' || c.verdict !== 'valid' || c.chainId === null) continue
    const action = v.update.actions[c.actionIndex]!
    const sig = signaturesOf(action).find(([role]) => role === c.role)?.[1] as Extract<
      WireSignature,
      { kind: 'erc_6492' }
    >
    out.set(`${c.chainId}:${sig.blockNumber}`, { chainId: c.chainId, blockNumber: sig.blockNumber })
  }
  return [...out.values()]
}

/** The request thread's answer to one smart wallet call of the worker. */
export type SmartWalletAnswer =
  | { readonly verdict: 'valid' | 'invalid' }
  | { readonly unreachable: { readonly chainId: bigint; readonly reason: string } }
  | { readonly error: string }

export type ToJudgeWorker =
  | { readonly type: 'decode'; readonly id: number; readonly enc: Encoding; readonly body: Uint8Array }
  | {
      readonly type: 'judge'
      readonly id: number
      /** The head state (a delta from no state), null for a new inbox. */
      readonly head: StateDelta | null
      readonly provisional: bigint
      /** Whether the request thread has a smart wallet port to ask (else erc_6492 is unreachable, IDENT-061). */
      readonly smartWallets: boolean
    }
  | { readonly type: 'drop'; readonly id: number }
  | { readonly type: 'smartWalletAnswer'; readonly call: number; readonly answer: SmartWalletAnswer }

export type FromJudgeWorker =
  | { readonly type: 'decoded'; readonly id: number; readonly inboxId: string }
  | { readonly type: 'judged'; readonly id: number; readonly outcome: JudgeOutcome }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }
  /** A smart wallet call for the request thread's port; `call` numbers the calls, not the publishes. */
  | { readonly type: 'smartWallet'; readonly call: number; readonly request: SmartWalletRequest }

const refused = (e: ApiError): JudgeOutcome => ({
  kind: 'refused',
  status: e.status,
  code: e.code,
  message: e.message,
  rule: e.rule,
})

/** The ApiError of a refused outcome. */
export const outcomeError = (o: Extract<JudgeOutcome, { kind: 'refused' }>): ApiError =>
  new ApiError(o.status, o.code, o.message, o.rule)

/** The same change with the real sequence id in place of the provisional one (Member.addedAt, the state's). */
export function restamp(d: StateDelta, provisional: bigint, sequenceId: bigint): StateDelta {
  const put = d.put?.map((m) => (m.addedAt === provisional ? { ...m, addedAt: sequenceId } : m))
  return { ...d, ...(put ? { put } : {}), sequenceId }
}

/** The request thread's smart wallet port, seen from the worker: each call a message. */
class SmartWalletCalls implements SmartWalletVerifier {
  private next = 0
  private readonly waiting = new Map<number, (a: SmartWalletAnswer) => void>()
  constructor(private readonly post: (m: FromJudgeWorker) => void) {}

  async verify(request: SmartWalletRequest): Promise<'valid' | 'invalid'> {
    const call = this.next++
    const answer = await new Promise<SmartWalletAnswer>((resolve) => {
      this.waiting.set(call, resolve)
      this.post({ type: 'smartWallet', call, request })
    })
    if ('verdict' in answer) return answer.verdict
    if ('unreachable' in answer) throw new ChainUnreachableError(answer.unreachable.chainId, answer.unreachable.reason)
    throw new Error(answer.error)
  }

  answer(call: number, a: SmartWalletAnswer): void {
    const resolve = this.waiting.get(call)
    this.waiting.delete(call)
    resolve?.(a)
  }
}

async function judge(
  u: UnverifiedUpdate,
  head: StateDelta | null,
  provisional: bigint,
  smartWallets: SmartWalletVerifier | undefined,
): Promise<JudgeOutcome> {
  const before = head ? applyDelta(null, head) : null
  // The signature-free rules first, then a growing prefix of the signatures (../core/judge-order.ts).
  const verified = await verifyUntilDecided(before, u, provisional, await nodeVerifyOptions(smartWallets))
  try {
    const { state } = applyUpdate(before, verified, provisional)
    const only = u.actions.length === 1 ? u.actions[0]! : null
    return {
      kind: 'applies',
      bytes: u.bytes,
      claim: only?.kind === 'claim_handle' ? only.handle : null,
      delta: stateDelta(before, state),
      blocks: smartWalletBlocks(verified),
    }
  } catch (e) {
    if (e instanceof RejectedUpdate) return refused(ruleViolation(u.inboxId, e.violation))
    if (e instanceof PendingUpdate) return { kind: 'pending', message: e.message }
    throw e
  }
}

/** The request thread's answer to a worker's smart wallet call (IDENT-060, IDENT-061). */
export async function answerSmartWallet(
  port: SmartWalletVerifier | undefined,
  request: SmartWalletRequest,
): Promise<SmartWalletAnswer> {
  if (!port)
    return { unreachable: { chainId: request.chainId, reason: `no route for chain eip155:${request.chainId}` } }
  try {
    return { verdict: await port.verify(request) }
  } catch (e) {
    if (e instanceof ChainUnreachableError) return { unreachable: { chainId: e.chainId, reason: e.reason } }
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

/** The worker's message handler; `post` is its parentPort. */
export function judgeHandler(post: (m: FromJudgeWorker) => void): (m: ToJudgeWorker) => Promise<void> {
  const decoded = new Map<number, UnverifiedUpdate>()
  const calls = new SmartWalletCalls(post)
  return async (m) => {
    if (m.type === 'smartWalletAnswer') return calls.answer(m.call, m.answer)
    try {
      if (m.type === 'drop') decoded.delete(m.id)
      else if (m.type === 'decode') {
        let u: UnverifiedUpdate
        try {
          u = decodePublish(m.enc, m.body)
        } catch (e) {
          if (e instanceof ApiError) return post({ type: 'judged', id: m.id, outcome: refused(e) })
          throw e
        }
        decoded.set(m.id, u)
        post({ type: 'decoded', id: m.id, inboxId: u.inboxId })
      } else {
        const u = decoded.get(m.id)
        decoded.delete(m.id)
        if (!u) throw new Error(`no decoded update ${m.id}`)
        const outcome = await judge(u, m.head, m.provisional, m.smartWallets ? calls : undefined)
        post({ type: 'judged', id: m.id, outcome })
      }
    } catch (e) {
      post({ type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) })
    }
  }
}
