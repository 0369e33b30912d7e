/**
 * The query-key factory of the node's reads (TanStack Query). Its own module, so the node
 * service keys its queries without loading the network client: that loads with the first call.
 */
export type LookupBy = 'inbox' | 'ethereum' | 'passkey' | 'handle'

export const nodeKeys = {
  all: (baseUrl: string) => ['node', baseUrl] as const,
  status: (baseUrl: string) => ['node', baseUrl, 'status'] as const,
  lookup: (baseUrl: string, by: LookupBy, identifier: string) => ['node', baseUrl, 'lookup', by, identifier] as const,
  log: (baseUrl: string, inboxId: string) => ['node', baseUrl, 'log', inboxId] as const,
  newest: (baseUrl: string, inboxId: string, atLeast: bigint) => ['node', baseUrl, 'newest', inboxId, atLeast] as const,
}
