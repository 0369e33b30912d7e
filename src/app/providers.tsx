/**
 * The app's one providers layer: ONE TanStack QueryClient for every feature's queries
 * (wallets, node status and lookups, chain evidence, chain-route checks), the chain routes
 * with their one verifier (features/settings), the signer registry (features/signers) and
 * the one window key listener (ui/useKeys.tsx). Features read the routes and the registry
 * through src/app/model/app-context.ts, never through props from the shell. The query
 * client's key hash (model/query-key.ts) keeps bigints and byte arrays, which the features'
 * keys hold.
 *
 * The signer registry and wagmi live in a lazy chunk (./signing-host.tsx), mounted once,
 * when the first signing view asks for it through SigningGate; until then the registry's
 * contexts hold null. The chain routes' verifier loads viem on its first verification
 * (src/chain/lazy-verifier.ts).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react'
import { ChainRoutesProvider } from './features/settings/ChainRoutesProvider'
import { SignerManagerContext } from './features/signers/registry-context'
import type { SignerManager } from './features/signers/useSignerRegistry'
import { MissingProviderError, SignerRegistryContext } from './model/app-context'
import { hashQueryKey } from './model/query-key'
import { ErrorBoundary } from './ui/ErrorBoundary'
import { KeymapProvider } from './ui/useKeys'

const SigningHost = lazy(() => import('./signing-host'))

function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { queryKeyHashFn: hashQueryKey, retry: false, refetchOnWindowFocus: false } },
  })
}

const queryClient = createAppQueryClient()

interface SigningState {
  /** Loads and mounts the signing host (once; later calls do nothing). */
  readonly request: () => void
  readonly ready: boolean
}

const SigningStateContext = createContext<SigningState | null>(null)

/** The registry's contexts, filled once the signing host has loaded and mounted. */
function SigningLayer({ children }: { children: ReactNode }) {
  const [wanted, setWanted] = useState(false)
  const [manager, setManager] = useState<SignerManager | null>(null)
  const request = useCallback(() => setWanted(true), [])
  const ready = manager !== null
  const value = useMemo(() => ({ request, ready }), [request, ready])
  return (
    <SigningStateContext value={value}>
      <SignerManagerContext value={manager}>
        <SignerRegistryContext value={manager}>{children}</SignerRegistryContext>
      </SignerManagerContext>
      {wanted && (
        <ErrorBoundary label="Wallets and passkeys">
          <Suspense fallback={null}>
            <SigningHost onManager={setManager} />
          </Suspense>
        </ErrorBoundary>
      )}
    </SigningStateContext>
  )
}

/**
 * The boundary of a signing view (signers, the signing playground, edit mode, the inbox
 * tasks): asks for the signing host and shows `children` once the registry is there.
 */
export function SigningGate({ children }: { children: ReactNode }) {
  const state = useContext(SigningStateContext)
  if (!state) throw new MissingProviderError('the signing layer')
  const { request, ready } = state
  useEffect(() => request(), [request])
  return ready ? children : <p className="muted">Loading wallets and passkeys…</p>
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ChainRoutesProvider>
        <SigningLayer>
          <KeymapProvider>{children}</KeymapProvider>
        </SigningLayer>
      </ChainRoutesProvider>
    </QueryClientProvider>
  )
}
