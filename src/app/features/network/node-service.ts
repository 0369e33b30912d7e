/**
 * The node service (src/app/model/node-service.ts) over the network client: each call of
 * the node as a query-options factory keyed by the node URL (nodeKeys), and publish as a
 * mutation. The claim pre-check and the handle lookup are cached per handle for a short
 * while, so typing, the status line and the check before signing ask the node once.
 * The network client, replay and the claim policy load with the first call (dynamic
 * imports), not with the page: the first screen asks no node.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import type { NodeService } from '../../model/node-service'
import { nodeKeys } from './node-keys'

const queries = () => import('./queries')

/** How long an answer about a handle is reused (the pre-check, then the check right before signing). */
const HANDLE_FRESH_MS = 10_000

export function createNodeService(
  url: string,
  client: () => Promise<QueryClient>,
  smartWallets?: SmartWalletVerifier,
): NodeService {
  const service: NodeService = {
    url,
    newest: (inboxId) => ({
      queryKey: [...nodeKeys.all(url), 'newest-of', inboxId],
      queryFn: async ({ signal }) =>
        (await (await queries()).nodeClient(url).queryNewest([inboxId], { signal }))[0]?.sequenceId ?? null,
      staleTime: 0,
    }),
    handleOwner: (handle) => ({
      queryKey: nodeKeys.lookup(url, 'handle', handle),
      queryFn: async ({ signal }) =>
        (await (await queries()).nodeClient(url).getInboxIds([{ identifier: handle, kind: 'handle' }], { signal }))[0]
          ?.inboxId || null,
      staleTime: HANDLE_FRESH_MS,
    }),
    handleHolder: (handle) => ({
      queryKey: [...nodeKeys.all(url), 'handle-holder', handle],
      // The lookup is the handleOwner query's: the status line and the check before signing share it.
      queryFn: async () =>
        (await queries()).handleHolder(url, handle, smartWallets, async (entry) =>
          (await client()).fetchQuery(service.handleOwner(entry)),
        ),
      staleTime: HANDLE_FRESH_MS,
    }),
    claimPolicy: () => ({
      queryKey: [...nodeKeys.all(url), 'claim-policy'],
      queryFn: async () => (await import('../../../network/claim-policy')).fetchClaimPolicy(url),
      staleTime: 60_000,
    }),
    inboxBundle: (inboxId) => ({
      queryKey: [...nodeKeys.all(url), 'bundle', inboxId],
      queryFn: async () => (await queries()).inboxBundle(url, inboxId),
      staleTime: 0,
    }),
    publish: {
      mutationKey: [...nodeKeys.all(url), 'publish'],
      mutationFn: async ({ bytes, inboxId }) => {
        let publish: typeof import('./publish')
        try {
          publish = await import('./publish')
        } catch (e) {
          const why = e instanceof Error ? e.message : String(e)
          return { kind: 'unreachable', message: `the network code did not load: ${why}` }
        }
        return publish.publishUpdate(url, bytes, inboxId ? { inboxId } : {})
      },
    },
  }
  return service
}
