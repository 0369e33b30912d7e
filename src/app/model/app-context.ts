/**
 * What the app's one providers layer (src/app/providers.tsx) hands every feature: the
 * chain routes with their verifier, and the signer registry. The contexts are typed here,
 * in the shared model, so that a feature reads them without importing the feature that
 * fills them (features never import each other): features/settings provides the routes,
 * features/signers the registry.
 */
import { createContext, useContext } from 'react'
import type { SmartWalletVerifier } from '../../core/verify/port'
import type { SignerRegistry } from './app-signer'

/** A chain route as the settings keep it: the eip155 chain id in decimal text and its RPC URL. */
export interface ChainRouteSetting {
  readonly chainId: string
  readonly url: string
}

export interface ChainRoutes {
  /** The routes in use (validated: one per chain). */
  readonly routes: readonly ChainRouteSetting[]
  /** Saves a new list (null: back to the default); returns the problems that kept it from being saved. */
  readonly setRoutes: (routes: readonly ChainRouteSetting[] | null) => string[]
  /**
   * The SmartWalletVerifier over these routes (an eth_call on the chain an erc_6492
   * signature names, IDENT-060). A chain with no route is unreachable: pending, IDENT-061.
   */
  readonly verifier: SmartWalletVerifier
}

export const ChainRoutesContext = createContext<ChainRoutes | null>(null)
export const SignerRegistryContext = createContext<SignerRegistry | null>(null)

/** Thrown when a component reads a context that no provider above it fills. */
export class MissingProviderError extends Error {
  constructor(what: string) {
    super(`${what} is read outside its provider: render the app inside AppProviders (src/app/providers.tsx)`)
    this.name = 'MissingProviderError'
  }
}

/** The chain routes and their verifier (features/settings fills them). */
export function useChainRoutesContext(): ChainRoutes {
  const v = useContext(ChainRoutesContext)
  if (!v) throw new MissingProviderError('the chain routes')
  return v
}

/** Every signer of this browser (features/signers fills it). */
export function useSignerRegistryContext(): SignerRegistry {
  const v = useContext(SignerRegistryContext)
  if (!v) throw new MissingProviderError('the signer registry')
  return v
}
