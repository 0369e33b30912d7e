/**
 * The node service (src/app/model/node-service.ts) over the network client: each call of
 * the node as a query-options factory keyed by the node URL (nodeKeys), and publish as a
 * mutation. The claim pre-check and the handle lookup are cached per handle for a short
 * while, so typing, the status line and the check before signing ask the node once.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import { fetchClaimPolicy } from '../../../network/claim-policy'
import type { NodeService } from '../../model/node-service'
import { publishUpdate } from './publish'
import { handleHolder, inboxBundle, nodeClient, nodeKeys } from './queries'

/** How long an answer about a handle is reused (the pre-check, then the check right before signing). */
const HANDLE_FRESH_MS = 10_000

export function createNodeService(url: string, client: QueryClient, smartWallets?: SmartWalletVerifier): NodeService {
  const service: NodeService = {
    url,
    newest: (inboxId) => ({
      queryKey: [...nodeKeys.all(url), 'newest-of', inboxId],
      queryFn: async ({ signal }) => (await nodeClient(url).queryNewest([inboxId], { signal }))[0]?.sequenceId ?? null,
      staleTime: 0,
    }),
    handleOwner: (handle) => ({
      queryKey: nodeKeys.lookup(url, 'handle', handle),
      queryFn: async ({ signal }) =>
        (await nodeClient(url).getInboxIds([{ identifier: handle, kind: 'handle' }], { signal }))[0]?.inboxId || null,
      staleTime: HANDLE_FRESH_MS,
    }),
    handleHolder: (handle) => ({
      queryKey: [...nodeKeys.all(url), 'handle-holder', handle],
      // The lookup is the handleOwner query's: the status line and the check before signing share it.
      queryFn: () => handleHolder(url, handle, smartWallets, (entry) => client.fetchQuery(service.handleOwner(entry))),
      staleTime: HANDLE_FRESH_MS,
    }),
    claimPolicy: () => ({
      queryKey: [...nodeKeys.all(url), 'claim-policy'],
      queryFn: () => fetchClaimPolicy(url),
      staleTime: 60_000,
    }),
    inboxBundle: (inboxId) => ({
      queryKey: [...nodeKeys.all(url), 'bundle', inboxId],
      queryFn: () => inboxBundle(url, inboxId),
      staleTime: 0,
    }),
    publish: {
      mutationKey: [...nodeKeys.all(url), 'publish'],
      mutationFn: ({ bytes, inboxId }) => publishUpdate(url, bytes, inboxId ? { inboxId } : {}),
    },
  }
  return service
}
