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
 * A lazy chunk that fails to load (the network dropped, a chunk of an older deploy gone) is
 * no silent blank and no unhandled rejection: the gate shows, in place of its view, what
 * failed to load and a Try again that loads it again; the rest of the app goes on.
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
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { ChainRoutesProvider } from './features/settings/ChainRoutesProvider'
import { SignerManagerContext } from './features/signers/registry-context'
import type { SignerManager } from './features/signers/useSignerRegistry'
import { MissingProviderError, SignerRegistryContext } from './model/app-context'
import { ErrorBoundary } from './ui/ErrorBoundary'
import { loadOnce } from './ui/load-once'
import { importAgain } from '../worker/import-again'
import { PanelError } from './ui/PanelError'
import { KeymapProvider } from './ui/useKeys'

// Each chunk's import, tried again after a failure by a URL of its own (../worker/import-again.ts).
const importQueryClient = importAgain(() => import('./query-client'))
const importSigningHost = importAgain(() => import('./signing-host'))

/** The app's one QueryClient, its chunk loaded on the first call (again after a failed one). */
export const loadQueryClient: () => Promise<QueryClient> = loadOnce(() =>
  importQueryClient().then((m) => m.queryClient),
)

/** The signing host's component, its chunk (wagmi, viem, @simplewebauthn) loaded on the first call. */
const loadSigningHost = loadOnce(() => importSigningHost().then((m) => m.default))

/** A part of the app loaded when a view first asks for it: the QueryClient, the signing host. */
interface LazyLayer {
  /** Loads it (once; later calls do nothing). */
  readonly request: () => void
  readonly ready: boolean
  /** Why its chunk failed to load (null while none failed). */
  readonly error: Error | null
  /** Loads it again after a failure. */
  readonly retry: () => void
}

/** A lazy layer's load: `request` starts it once, `retry` again after it failed; never an unhandled rejection. */
function useLazyLoad<T>(load: () => Promise<T>): Omit<LazyLayer, 'ready'> & { readonly loaded: T | null } {
  // Boxed: a loaded component is a function, which useState would take for an updater.
  const [state, setState] = useState<{ readonly value: T } | { readonly error: Error } | null>(null)
  const started = useRef(false)
  const start = useCallback(() => {
    started.current = true
    load().then(
      (value) => setState({ value }),
      (e: unknown) => setState({ error: e instanceof Error ? e : new Error(String(e)) }),
    )
  }, [load])
  const request = useCallback(() => {
    if (!started.current) start()
  }, [start])
  const retry = useCallback(() => {
    setState(null)
    start()
  }, [start])
  return {
    request,
    retry,
    loaded: state && 'value' in state ? state.value : null,
    error: state && 'error' in state ? state.error : null,
  }
}

function useLazyLayer(context: Context<LazyLayer | null>, name: string): LazyLayer {
  const layer = useContext(context)
  if (!layer) throw new MissingProviderError(name)
  return layer
}

/**
 * A view inside a lazy layer: asks for it and shows `children` once it is there, `loading`
 * until then, and in their place, if its chunk failed to load, what failed and a Try again.
 */
function LazyGate({
  context,
  name,
  view,
  chunk,
  loading,
  children,
}: {
  context: Context<LazyLayer | null>
  name: string
  /** The view, for a failed load ("Settings"). */
  view: string
  /** What its chunk holds, for a failed load ("The query layer (TanStack Query)"). */
  chunk: string
  loading: ReactNode
  children: ReactNode
}) {
  const { request, ready, error, retry } = useLazyLayer(context, name)
  useEffect(() => request(), [request])
  if (error)
    return (
      <PanelError
        title={`${view} could not be loaded.`}
        message={`${chunk} did not load: ${error.message.replace(/\.$/, '')}. The network may be down, or the app was updated since this page was loaded: try again, or reload the page.`}
        onRetry={retry}
      />
    )
  return ready ? children : loading
}

/** The QueryClient's layer: its request loads the client and puts it in TanStack's context. */
const QueryStateContext = createContext<LazyLayer | null>(null)

/** TanStack's context, holding the QueryClient once a view has asked for it. */
function QueryLayer({ children }: { children: ReactNode }) {
  const { request, retry, error, loaded: client } = useLazyLoad(loadQueryClient)
  const ready = client !== null
  const value = useMemo(() => ({ request, ready, error, retry }), [request, ready, error, retry])
  return (
    <QueryStateContext value={value}>
      <QueryClientContext value={client ?? undefined}>{children}</QueryClientContext>
    </QueryStateContext>
  )
}

/**
 * The boundary of a view that queries: asks for the QueryClient and shows `children` once
 * it is there; `view` names it if the QueryClient's chunk fails to load.
 */
export function QueryGate({ view, children }: { view: string; children?: ReactNode }) {
  return (
    <LazyGate
      context={QueryStateContext}
      name="the query layer"
      view={view}
      chunk="The query layer (TanStack Query)"
      loading={null}
    >
      {children}
    </LazyGate>
  )
}

/** The signing host's layer: its request loads and mounts the host. */
const SigningStateContext = createContext<LazyLayer | null>(null)

/** The registry's contexts, filled once the signing host has loaded and mounted. */
function SigningLayer({ children }: { children: ReactNode }) {
  const [manager, setManager] = useState<SignerManager | null>(null)
  const host = useLazyLoad(loadSigningHost)
  const query = useLazyLayer(QueryStateContext, 'the query layer')
  // wagmi and the signing views query: the host mounts once the QueryClient is there.
  const { request: requestHost, retry: retryHost } = host
  const { request: requestQuery, retry: retryQuery } = query
  const request = useCallback(() => {
    requestHost()
    requestQuery()
  }, [requestHost, requestQuery])
  // Either chunk's failure is this layer's; a retry loads again what failed.
  const error = host.error ?? query.error
  const hostFailed = host.error !== null
  const queryFailed = query.error !== null
  const retry = useCallback(() => {
    if (hostFailed) retryHost()
    if (queryFailed) retryQuery()
  }, [hostFailed, queryFailed, retryHost, retryQuery])
  const ready = manager !== null
  const value = useMemo(() => ({ request, ready, error, retry }), [request, ready, error, retry])
  const Host = host.loaded
  return (
    <SigningStateContext value={value}>
      <SignerManagerContext value={manager}>
        <SignerRegistryContext value={manager}>{children}</SignerRegistryContext>
      </SignerManagerContext>
      {Host && query.ready && (
        <ErrorBoundary label="Wallets and passkeys">
          <Host onManager={setManager} />
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
      view="Wallets and passkeys"
      chunk="The signing code (wagmi, viem, passkeys)"
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
