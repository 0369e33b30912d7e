/**
 * Network reads through TanStack Query (keyed by ./node-keys.ts), a key hash
 * that keeps bigints (`hashQueryKey`, model/query-key.ts: TanStack's default JSON hash throws on them), the
 * node status probe, who holds a handle (IDENT-085: used only when the holder's derived
 * state holds it) and the re-fetch of an inbox for the inbox tasks. Every log is replayed
 * by the client itself (IDENT-071). Fetching a log to open goes through ./remote-fetch.ts.
 */
import { useQuery } from '@tanstack/react-query'
import { bytesToHex } from '../../../crypto/bytes'
import { checkHandleAnswer, lowercaseAscii } from '../../../core/handles'
import { replay } from '../../../core/replay'
import { fastContext } from '../../../core/verify/fast'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import type { InboxLog } from '../../../core/types'
import { createNodeClient, NodeError, NodeUnreachableError, type NodeClient } from '../../../network/client'
import { nodeKeys } from './node-keys'

export function nodeClient(baseUrl: string): NodeClient {
  return createNodeClient({ baseUrl, fetch: (input, init) => fetch(input, init) })
}

export function describeNodeError(e: unknown): string {
  if (e instanceof NodeError)
    return `the node refused (HTTP ${e.status}, ${e.code}${e.rule ? `, ${e.rule}` : ''}): ${e.message}`
  if (e instanceof NodeUnreachableError) return e.message
  return e instanceof Error ? e.message : String(e)
}

/** Reachable when the node answers a query-newest for no inbox. */
export function useNodeStatus(baseUrl: string) {
  return useQuery({
    queryKey: nodeKeys.status(baseUrl),
    queryFn: async ({ signal }) => {
      await nodeClient(baseUrl).queryNewest([], { signal })
      return true as const
    },
    refetchInterval: 15_000,
  })
}

/** The log as a log bundle the inspector opens: the node's exact update bytes, in hex. */
function bundleOf(log: InboxLog, inboxId: string): string {
  const updates = log.entries.flatMap((e) =>
    'error' in e.update ? [] : [{ sequence_id: e.sequenceId.toString(), update_hex: bytesToHex(e.update.bytes) }],
  )
  return JSON.stringify({ inbox_id: inboxId, updates }, null, 1)
}

async function fetchState(node: NodeClient, inboxId: string, signal?: AbortSignal, smartWallets?: SmartWalletVerifier) {
  // The fast path (src/core/verify/fast.ts: WebCrypto / WASM, each falling back to noble),
  // loaded once per page; the verdicts are noble's. erc_6492 signatures are judged on the
  // app's chain routes when a verifier is given, else they stay pending (IDENT-061).
  const [log, { ctx }] = await Promise.all([node.getInboxLog(inboxId, signal ? { signal } : {}), fastContext()])
  const trace = await replay(log, { ...ctx, ...(smartWallets ? { smartWallets } : {}), ...(signal ? { signal } : {}) })
  return { log, trace }
}

/** Who holds a handle on the node: its GetInboxIds answer, checked against that inbox's own log (IDENT-085). */
export interface HandleHolder {
  /** The inbox the node names, or null when it names none. */
  readonly inboxId: string | null
  /** The named inbox's log, replayed here, claims the handle; false means the answer is unbacked. */
  readonly backed: boolean
  readonly reason: string
}

export async function handleHolder(
  baseUrl: string,
  handle: string,
  smartWallets?: SmartWalletVerifier,
  /** The inbox the node names for the handle (the node service passes its cached lookup). */
  owner: (entry: string) => Promise<string | null> = async (entry) =>
    (await nodeClient(baseUrl).getInboxIds([{ identifier: entry, kind: 'handle' }]))[0]?.inboxId || null,
): Promise<HandleHolder> {
  const entry = lowercaseAscii(handle.trim())
  const inboxId = await owner(entry)
  if (!inboxId) return { inboxId: null, backed: false, reason: `the node names no inbox for ${entry}` }
  const { trace } = await fetchState(nodeClient(baseUrl), inboxId, undefined, smartWallets)
  const check = checkHandleAnswer(trace.head, entry)
  return { inboxId, backed: check.accepted, reason: check.reason }
}

/** An inbox's log as the node serves it now, as a bundle the inspector opens (a re-fetch). */
export async function inboxBundle(baseUrl: string, inboxId: string): Promise<string> {
  return bundleOf(await nodeClient(baseUrl).getInboxLog(inboxId), inboxId)
}
