/**
 * The chain routes for the whole app (the providers layer, src/app/providers.tsx): the
 * setting (./chain-routes.ts) and ONE SmartWalletVerifier over it, rebuilt only when
 * the routes' text changes. The replay, the evidence panel, node fetches, the signers
 * and the composer all judge smart-wallet signatures through it.
 */
import { useMemo, type ReactNode } from 'react'
import { LazyChainVerifier } from '../../../chain/lazy-verifier'
import { importAgain } from '../../../worker/import-again'
import { ChainRoutesContext, type ChainRoutes } from '../../model/app-context'
import { routeMap, routeSpec, useChainRoutes } from './chain-routes'

// viem's chunk, tried again after a failed load by a URL of its own (../../../worker/import-again.ts).
const importVerifier = importAgain(() => import('../../../chain/verifier'))

export function ChainRoutesProvider({ children }: { children: ReactNode }) {
  const [routes, setRoutes] = useChainRoutes()
  const key = routes.map(routeSpec).join(',')
  // Keyed by the routes' text, not the array's identity (each save hands a new array).
  // biome-ignore lint/correctness/useExhaustiveDependencies: key is routes' content
  const verifier = useMemo(() => new LazyChainVerifier(routeMap(routes), { cache: false }, importVerifier), [key])
  const value = useMemo<ChainRoutes>(() => ({ routes, setRoutes, verifier }), [routes, setRoutes, verifier])
  return <ChainRoutesContext value={value}>{children}</ChainRoutesContext>
}
