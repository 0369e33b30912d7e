/**
 * The signing views' providers, in their own chunk (loaded by ./providers.tsx when the first
 * signing view opens): wagmi over the signers feature's config (wallets by EIP-6963) and the
 * signer registry over the chain routes. wagmi, viem and @simplewebauthn come with it, so the
 * first screen loads none of them.
 */
import { QueryClientContext } from '@tanstack/react-query'
import { memo, type ReactNode, useEffect } from 'react'
import { WagmiProvider } from 'wagmi'
import { useSignerManager } from './features/signers/registry-context'
import { SignerRegistryProvider } from './features/signers/SignerRegistryProvider'
import type { SignerManager } from './features/signers/useSignerRegistry'
import { wagmiConfig } from './features/signers/wagmi'
import { queryClient } from './query-client'

/** wagmi and the signer registry around `children`, over the app's one QueryClient (wagmi queries) and inside the chain routes. */
export function SigningProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientContext value={queryClient}>
      <WagmiProvider config={wagmiConfig}>
        <SignerRegistryProvider>{children}</SignerRegistryProvider>
      </WagmiProvider>
    </QueryClientContext>
  )
}

function Lift({ onManager }: { onManager: (m: SignerManager) => void }) {
  const manager = useSignerManager()
  useEffect(() => onManager(manager), [manager, onManager])
  return null
}

/**
 * Mounted once, beside the app (never around it, so that loading it remounts nothing): hands
 * the registry up to the providers layer each time it changes. Memoized: the providers
 * layer re-renders with each new registry, and WagmiProvider asks the wallets to reconnect
 * on every render of its own, which would change the registry again.
 */
const SigningHost = memo(function SigningHost({ onManager }: { onManager: (m: SignerManager) => void }) {
  return (
    <SigningProviders>
      <Lift onManager={onManager} />
    </SigningProviders>
  )
})
export default SigningHost
