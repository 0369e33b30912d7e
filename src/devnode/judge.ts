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
 * The request thread keeps the store, the heads, the lock, the claim policy and the one
 * transaction (./admission.ts), so a publish judged here is stored exactly as before.
 * An update with an erc_6492 signature is judged on the request thread: the smart wallet
 * port (IDENT-060) lives there.
 */
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { signatureFreeRefusal } from '../core/judge-order'
import type { UnverifiedUpdate } from '../core/types'
import { signaturesOf, verifyUpdate } from '../core/verify/update'
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
    }

export type ToJudgeWorker =
  | { readonly type: 'decode'; readonly id: number; readonly enc: Encoding; readonly body: Uint8Array }
  | {
      readonly type: 'judge'
      readonly id: number
      /** The head state (a delta from no state), null for a new inbox. */
      readonly head: StateDelta | null
      readonly provisional: bigint
    }
  | { readonly type: 'drop'; readonly id: number }

export type FromJudgeWorker =
  | { readonly type: 'decoded'; readonly id: number; readonly inboxId: string; readonly smartWallet: boolean }
  | { readonly type: 'judged'; readonly id: number; readonly outcome: JudgeOutcome }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }

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

async function judge(u: UnverifiedUpdate, head: StateDelta | null, provisional: bigint): Promise<JudgeOutcome> {
  const before = head ? applyDelta(null, head) : null
  const free = signatureFreeRefusal(before, u, provisional)
  if (free) return refused(ruleViolation(u.inboxId, free.violation))
  const verified = await verifyUpdate(u, await nodeVerifyOptions(undefined))
  try {
    const { state } = applyUpdate(before, verified, provisional)
    const only = u.actions.length === 1 ? u.actions[0]! : null
    return {
      kind: 'applies',
      bytes: u.bytes,
      claim: only?.kind === 'claim_handle' ? only.handle : null,
      delta: stateDelta(before, state),
    }
  } catch (e) {
    if (e instanceof RejectedUpdate) return refused(ruleViolation(u.inboxId, e.violation))
    if (e instanceof PendingUpdate) return { kind: 'pending', message: e.message }
    throw e
  }
}

/** The worker's message handler; `post` is its parentPort. */
export function judgeHandler(post: (m: FromJudgeWorker) => void): (m: ToJudgeWorker) => Promise<void> {
  const decoded = new Map<number, UnverifiedUpdate>()
  return async (m) => {
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
        const smartWallet = u.actions.some((a) => signaturesOf(a).some(([, s]) => s.kind === 'erc_6492'))
        post({ type: 'decoded', id: m.id, inboxId: u.inboxId, smartWallet })
      } else {
        const u = decoded.get(m.id)
        decoded.delete(m.id)
        if (!u) throw new Error(`no decoded update ${m.id}`)
        post({ type: 'judged', id: m.id, outcome: await judge(u, m.head, m.provisional) })
      }
    } catch (e) {
      post({ type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) })
    }
  }
}
