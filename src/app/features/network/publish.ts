/**
 * The publish seam, for the signing playground and anything else that publishes:
 *
 *   const answer = await publishUpdate(baseUrl, signed.bytes)       // plain function
 *   const { publish, answer, busy } = usePublish()                  // ./use-publish.ts: the node service's mutation
 *   await publish(signed.bytes, { inboxId })                        // + visibility check
 *
 * `bytes` are the exact IdentityUpdate bytes (never re-encoded). The answer is
 * { kind: 'stored', sequenceId } with the node's receipt, or { kind: 'refused', status,
 * code, rule, message } with the contract's error body, or { kind: 'unreachable' }.
 * Given an inbox id, a stored answer is followed by QueryNewest until it returns a
 * sequence id not below the receipt (IDENT-072): only then is `visible` true, and only
 * then may a registration be reported complete. `<PublishAnswerView answer>` shows it.
 */
import { NodeError, NodeUnreachableError } from '../../../network/client'
import type { PublishAnswer } from '../../model/node-service'
import { nodeClient } from './queries'

export interface PublishOptions {
  /** The inbox the update belongs to: enables the IDENT-072 visibility check. */
  readonly inboxId?: string
  /** Attempts of QueryNewest (default 10, 300 ms apart). */
  readonly attempts?: number
}

/** IDENT-072: true once QueryNewest shows a sequence id not below the receipt. */
async function awaitVisible(baseUrl: string, inboxId: string, receipt: bigint, attempts = 10): Promise<boolean> {
  const node = nodeClient(baseUrl)
  for (let i = 0; i < attempts; i++) {
    try {
      const [r] = await node.queryNewest([inboxId])
      if (r && r.sequenceId >= receipt) return true
    } catch {
      /* try again */
    }
    await new Promise((ok) => setTimeout(ok, 300))
  }
  return false
}

export async function publishUpdate(
  baseUrl: string,
  bytes: Uint8Array,
  options: PublishOptions = {},
): Promise<PublishAnswer> {
  try {
    const { sequenceId } = await nodeClient(baseUrl).publishIdentityUpdate(bytes)
    if (!options.inboxId) return { kind: 'stored', sequenceId, visible: null }
    const visible = await awaitVisible(baseUrl, options.inboxId, sequenceId, options.attempts)
    return {
      kind: 'stored',
      sequenceId,
      visible,
      visibility: visible
        ? `QueryNewest shows sequence id ${sequenceId} or later for inbox ${options.inboxId} (IDENT-072)`
        : `QueryNewest did not yet show sequence id ${sequenceId} for inbox ${options.inboxId}: not complete (IDENT-072)`,
    }
  } catch (e) {
    if (e instanceof NodeError)
      return { kind: 'refused', status: e.status, code: e.code, rule: e.rule, message: e.message }
    if (e instanceof NodeUnreachableError) return { kind: 'unreachable', message: e.message }
    return { kind: 'unreachable', message: e instanceof Error ? e.message : String(e) }
  }
}
