/**
 * Network reads through TanStack Query: a query-key factory (`nodeKeys`), a key hash
 * that keeps bigints (`hashQueryKey`, model/query-key.ts: TanStack's default JSON hash throws on them), the
 * node status probe and the log lookup. Every log is replayed by the client itself
 * (IDENT-071); a handle answer is used only when the derived state holds the handle
 * (IDENT-085); handles are returned current first (IDENT-086).
 */
import { QueryClient, useQuery } from '@tanstack/react-query'
import { bytesToHex } from '../../../crypto/bytes'
import { checkHandleAnswer, currentHandles, lowercaseAscii, type HandleCheck } from '../../../core/handles'
import { replay } from '../../../core/replay'
import { fastContext } from '../../../core/verify/fast'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import { resolveIdentifier, type Resolution } from '../../../core/resolve'
import type { InboxLog } from '../../../core/types'
import { createNodeClient, NodeError, NodeUnreachableError, type NodeClient } from '../../../network/client'
import { hashQueryKey } from '../../model/query-key'

export type LookupBy = 'inbox' | 'ethereum' | 'passkey' | 'handle'

export const nodeKeys = {
  all: (baseUrl: string) => ['node', baseUrl] as const,
  status: (baseUrl: string) => ['node', baseUrl, 'status'] as const,
  lookup: (baseUrl: string, by: LookupBy, identifier: string) => ['node', baseUrl, 'lookup', by, identifier] as const,
  log: (baseUrl: string, inboxId: string) => ['node', baseUrl, 'log', inboxId] as const,
  newest: (baseUrl: string, inboxId: string, atLeast: bigint) => ['node', baseUrl, 'newest', inboxId, atLeast] as const,
}

export function createNetworkQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { queryKeyHashFn: hashQueryKey, retry: false, refetchOnWindowFocus: false } },
  })
}

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

export type LookupResult =
  | { readonly kind: 'not-found'; readonly message: string }
  | { readonly kind: 'refused'; readonly inboxId: string; readonly check: HandleCheck }
  | {
      readonly kind: 'found'
      readonly inboxId: string
      readonly bundle: string
      readonly entries: number
      readonly head: bigint | null
      readonly handles: { current: string | null; others: string[] }
      readonly check: HandleCheck | null
      readonly resolution: Resolution | null
      readonly ok: boolean
    }

async function fetchState(node: NodeClient, inboxId: string, signal?: AbortSignal, smartWallets?: SmartWalletVerifier) {
  // The fast path (src/core/verify/fast.ts: WebCrypto / WASM, each falling back to noble),
  // loaded once per page; the verdicts are noble's. erc_6492 signatures are judged on the
  // app's chain routes when a verifier is given, else they stay pending (IDENT-061).
  const [log, { ctx }] = await Promise.all([node.getInboxLog(inboxId, signal ? { signal } : {}), fastContext()])
  const trace = await replay(log, { ...ctx, ...(smartWallets ? { smartWallets } : {}), ...(signal ? { signal } : {}) })
  return { log, trace }
}

/**
 * Looks an identifier up. `known` are inbox ids seen before (candidates for an identifier
 * live in several inboxes: GetInboxIds names one, so the app checks the ones it knows).
 */
async function lookup(
  baseUrl: string,
  by: LookupBy,
  raw: string,
  known: readonly string[],
  signal?: AbortSignal,
  smartWallets?: SmartWalletVerifier,
): Promise<LookupResult> {
  const node = nodeClient(baseUrl)
  const identifier = by === 'handle' ? raw.trim() : by === 'inbox' ? raw.trim().toLowerCase() : raw.trim().toLowerCase()
  let inboxId = identifier
  if (by !== 'inbox') {
    const [answer] = await node.getInboxIds([{ identifier, kind: by }], signal ? { signal } : {})
    if (!answer?.inboxId) return { kind: 'not-found', message: `the node names no inbox for ${by} ${identifier}` }
    inboxId = answer.inboxId
  }
  const { log, trace } = await fetchState(node, inboxId, signal, smartWallets)
  if (log.entries.length === 0) return { kind: 'not-found', message: `the node holds no log for inbox ${inboxId}` }
  let check: HandleCheck | null = null
  if (by === 'handle') {
    // IDENT-085: the node's answer is a hint; the state this client derived decides.
    check = checkHandleAnswer(trace.head, lowercaseAscii(identifier))
    if (!check.accepted) return { kind: 'refused', inboxId, check }
  }
  let resolution: Resolution | null = null
  if (by === 'ethereum' || by === 'passkey') {
    const others = [...new Set(known.filter((k) => k !== inboxId))]
    const heads = [trace.head]
    for (const other of others) {
      try {
        heads.push((await fetchState(node, other, signal, smartWallets)).trace.head)
      } catch {
        /* a candidate that cannot be read is left out */
      }
    }
    resolution = resolveIdentifier({ kind: by, text: identifier }, heads)
  }
  return {
    kind: 'found',
    inboxId,
    bundle: bundleOf(log, inboxId),
    entries: log.entries.length,
    head: trace.head?.sequenceId ?? null,
    handles: currentHandles(trace.head),
    check,
    resolution,
    ok: trace.ok,
  }
}

/** `chain`: the smart-wallet verifier of the app's chain routes and a key naming those routes (part of the query key). */
export function useLookup(
  baseUrl: string,
  wish: { by: LookupBy; identifier: string; nonce: number } | null,
  known: readonly string[],
  chain?: { readonly verifier: SmartWalletVerifier; readonly key: string },
) {
  return useQuery({
    queryKey: wish
      ? [...nodeKeys.lookup(baseUrl, wish.by, wish.identifier), wish.nonce, chain?.key ?? 'no-chain']
      : ['node', baseUrl, 'lookup', 'idle'],
    queryFn: ({ signal }) => lookup(baseUrl, wish!.by, wish!.identifier, known, signal, chain?.verifier),
    enabled: wish !== null,
    staleTime: 0,
  })
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
): Promise<HandleHolder> {
  const node = nodeClient(baseUrl)
  const entry = lowercaseAscii(handle.trim())
  const [answer] = await node.getInboxIds([{ identifier: entry, kind: 'handle' }])
  if (!answer?.inboxId) return { inboxId: null, backed: false, reason: `the node names no inbox for ${entry}` }
  const { trace } = await fetchState(node, answer.inboxId, undefined, smartWallets)
  const check = checkHandleAnswer(trace.head, entry)
  return { inboxId: answer.inboxId, backed: check.accepted, reason: check.reason }
}

/** An inbox's log as the node serves it now, as a bundle the inspector opens (a re-fetch). */
export async function inboxBundle(baseUrl: string, inboxId: string): Promise<string> {
  return bundleOf(await nodeClient(baseUrl).getInboxLog(inboxId), inboxId)
}
