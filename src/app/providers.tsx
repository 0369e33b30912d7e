/**
 * The app's one providers layer: wagmi (the signers feature's wallets) and ONE TanStack
 * QueryClient for every feature's queries (wallets, node status and lookups, chain
 * evidence, chain-route checks), instead of a client per feature. Its key hash
 * (model/query-key.ts) keeps bigints and byte arrays, which the features' keys hold.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { WagmiProvider } from 'wagmi'
import { wagmiConfig } from './features/signers/wagmi'
import { hashQueryKey } from './model/query-key'

function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { queryKeyHashFn: hashQueryKey, retry: false, refetchOnWindowFocus: false } },
  })
}

const queryClient = createAppQueryClient()

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <WagmiProvider config={wagmiConfig}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </WagmiProvider>
  )
}
