/**
 * The one node service, as every feature sees it: the node's calls as TanStack Query
 * options (reads) and one mutation (publish), the way wagmi layers an action, its
 * queryOptions and a thin hook. features/network fills it (createNodeService) for the
 * node URL of the settings; a feature reads it with useNodeService() and calls
 * `useQuery(node.newest(inboxId))`, `queryClient.fetchQuery(node.handleOwner(h))` or
 * `useMutation(node.publish)`. No component holds a fetch effect of its own.
 */
import type { QueryKey } from '@tanstack/react-query'
import { createContext, useContext } from 'react'
import type { RuleId } from '../../core/rules'
import type { ClaimPolicy } from '../../network/claim-policy'
import { MissingProviderError } from './app-context'

/** A read of the node: a key and a function, for useQuery, fetchQuery or prefetchQuery. */
export interface NodeQuery<T> {
  readonly queryKey: QueryKey
  readonly queryFn: (ctx: { readonly signal: AbortSignal }) => Promise<T>
  readonly staleTime?: number
}

/** What the node answered a publish: stored (and, given the inbox, visible: IDENT-072), refused, or unreachable. */
export type PublishAnswer =
  | {
      readonly kind: 'stored'
      readonly sequenceId: bigint
      readonly visible: boolean | null
      readonly visibility?: string
    }
  | {
      readonly kind: 'refused'
      readonly status: number
      readonly code: string
      readonly rule: RuleId | null
      readonly message: string
    }
  | { readonly kind: 'unreachable'; readonly message: string }

interface PublishVariables {
  /** The exact IdentityUpdate bytes (never re-encoded). */
  readonly bytes: Uint8Array
  /** The inbox the update belongs to: enables the IDENT-072 visibility check. */
  readonly inboxId?: string
}

/** Who holds a handle on the node, checked against that inbox's own log (IDENT-085). */
export interface HandleHolderLike {
  readonly inboxId: string | null
  /** The named inbox's log, replayed here, claims the handle; false means the answer is unbacked. */
  readonly backed: boolean
  readonly reason: string
}

export interface NodeService {
  /** The node's base URL (the local node by default; the Settings dialog changes it). */
  readonly url: string
  /** The newest sequence id the node holds for an inbox (QueryNewest), null when it holds none. */
  readonly newest: (inboxId: string) => NodeQuery<bigint | null>
  /** The inbox the node names for a handle (GetInboxIds), null when it names none. */
  readonly handleOwner: (handle: string) => NodeQuery<string | null>
  /** The claim pre-check: who holds the handle, checked against that inbox's own log (IDENT-085). */
  readonly handleHolder: (handle: string) => NodeQuery<HandleHolderLike>
  /** The node's published claim policy, null when it publishes none (IDENT-084). */
  readonly claimPolicy: () => NodeQuery<ClaimPolicy | null>
  /** An inbox's log as the node serves it now, as a bundle the inspector opens. */
  readonly inboxBundle: (inboxId: string) => NodeQuery<string>
  /** Publishes an update: the mutation's options (useMutation(node.publish)) and the call itself. */
  readonly publish: {
    readonly mutationKey: QueryKey
    readonly mutationFn: (v: PublishVariables) => Promise<PublishAnswer>
  }
}

export const NodeServiceContext = createContext<NodeService | null>(null)

/** The node service (the shell provides it over features/network's createNodeService). */
export function useNodeService(): NodeService {
  const v = useContext(NodeServiceContext)
  if (!v) throw new MissingProviderError('the node service')
  return v
}
