/**
 * The app's one providers layer: ONE TanStack QueryClient for every feature's queries
 * (wallets, node status and lookups, chain evidence, chain-route checks), the chain routes
 * with their one verifier (features/settings), the signer registry (features/signers) and
 * the one window key listener (ui/useKeys.tsx). Features read the routes and the registry
 * through src/app/model/app-context.ts, never through props from the shell.
 *
 * The QueryClient (./query-client.ts) is a lazy chunk with TanStack Query's core: a view that
 * queries renders inside `QueryGate` (the signing views through SigningGate, the settings,
 * the chain evidence), which loads it; code outside React awaits `loadQueryClient()`. Until
 * then the context TanStack's hooks read holds no client.
 *
 * The signer registry and wagmi live in a lazy chunk (./signing-host.tsx), mounted once,
 * when the first signing view asks for it through SigningGate; until then the registry's
 * contexts hold null. The chain routes' verifier loads viem on its first verification
 * (src/chain/lazy-verifier.ts).
 */
import { QueryClientContext, type QueryClient } from '@tanstack/react-query'
import {
  type Context,
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
import { ErrorBoundary } from './ui/ErrorBoundary'
import { KeymapProvider } from './ui/useKeys'

const SigningHost = lazy(() => import('./signing-host'))

let clientLoad: Promise<QueryClient> | undefined

/** The app's one QueryClient, its chunk loaded on the first call. */
export function loadQueryClient(): Promise<QueryClient> {
  return (clientLoad ??= import('./query-client').then((m) => m.queryClient))
}

/** A part of the app loaded when a view first asks for it: the QueryClient, the signing host. */
interface LazyLayer {
  /** Loads it (once; later calls do nothing). */
  readonly request: () => void
  readonly ready: boolean
}

function useLazyLayer(context: Context<LazyLayer | null>, name: string): LazyLayer {
  const layer = useContext(context)
  if (!layer) throw new MissingProviderError(name)
  return layer
}

/** A view inside a lazy layer: asks for it and shows `children` once it is there, `loading` until then. */
function LazyGate({
  context,
  name,
  loading,
  children,
}: {
  context: Context<LazyLayer | null>
  name: string
  loading: ReactNode
  children: ReactNode
}) {
  const { request, ready } = useLazyLayer(context, name)
  useEffect(() => request(), [request])
  return ready ? children : loading
}

/** The QueryClient's layer: its request loads the client and puts it in TanStack's context. */
const QueryStateContext = createContext<LazyLayer | null>(null)

/** TanStack's context, holding the QueryClient once a view has asked for it. */
function QueryLayer({ children }: { children: ReactNode }) {
  const [client, setClient] = useState<QueryClient | null>(null)
  const request = useCallback(() => void loadQueryClient().then(setClient), [])
  const ready = client !== null
  const value = useMemo(() => ({ request, ready }), [request, ready])
  return (
    <QueryStateContext value={value}>
      <QueryClientContext value={client ?? undefined}>{children}</QueryClientContext>
    </QueryStateContext>
  )
}

/** The boundary of a view that queries: asks for the QueryClient and shows `children` once it is there. */
export function QueryGate({ children }: { children: ReactNode }) {
  return (
    <LazyGate context={QueryStateContext} name="the query layer" loading={null}>
      {children}
    </LazyGate>
  )
}

/** The signing host's layer: its request loads and mounts the host. */
const SigningStateContext = createContext<LazyLayer | null>(null)

/** The registry's contexts, filled once the signing host has loaded and mounted. */
function SigningLayer({ children }: { children: ReactNode }) {
  const [wanted, setWanted] = useState(false)
  const [manager, setManager] = useState<SignerManager | null>(null)
  const { request: requestQuery, ready: queryReady } = useLazyLayer(QueryStateContext, 'the query layer')
  // wagmi and the signing views query: the host mounts once the QueryClient is there.
  const request = useCallback(() => {
    setWanted(true)
    requestQuery()
  }, [requestQuery])
  const ready = manager !== null
  const value = useMemo(() => ({ request, ready }), [request, ready])
  return (
    <SigningStateContext value={value}>
      <SignerManagerContext value={manager}>
        <SignerRegistryContext value={manager}>{children}</SignerRegistryContext>
      </SignerManagerContext>
      {wanted && queryReady && (
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
  return (
    <LazyGate
      context={SigningStateContext}
      name="the signing layer"
      loading={<p className="muted">Loading wallets and passkeys…</p>}
    >
      {children}
    </LazyGate>
  )
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryLayer>
      <ChainRoutesProvider>
        <SigningLayer>
          <KeymapProvider>{children}</KeymapProvider>
        </SigningLayer>
      </ChainRoutesProvider>
    </QueryLayer>
  )
}
