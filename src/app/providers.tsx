/**
 * The app's one providers layer: wagmi (the signers feature's wallets), ONE TanStack
 * QueryClient for every feature's queries (wallets, node status and lookups, chain
 * evidence, chain-route checks), the chain routes with their one verifier
 * (features/settings) and the signer registry over them (features/signers). Features
 * read the last two through src/app/model/app-context.ts, never through props from the
 * shell; the one window key listener (ui/useKeys.tsx). The query client's key hash (model/query-key.ts) keeps bigints and byte arrays,
 * which the features' keys hold.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { WagmiProvider } from 'wagmi'
import { ChainRoutesProvider } from './features/settings/ChainRoutesProvider'
import { SignerRegistryProvider } from './features/signers/SignerRegistryProvider'
import { wagmiConfig } from './features/signers/wagmi'
import { hashQueryKey } from './model/query-key'
import { KeymapProvider } from './ui/useKeys'

function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { queryKeyHashFn: hashQueryKey, retry: false, refetchOnWindowFocus: false } },
  })
}

const queryClient = createAppQueryClient()

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <WagmiProvider config={wagmiConfig}>
      <QueryClientProvider client={queryClient}>
        <ChainRoutesProvider>
          <SignerRegistryProvider>
            <KeymapProvider>{children}</KeymapProvider>
          </SignerRegistryProvider>
        </ChainRoutesProvider>
      </QueryClientProvider>
    </WagmiProvider>
  )
}
