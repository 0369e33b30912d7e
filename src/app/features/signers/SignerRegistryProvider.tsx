/**
 * The signer registry for the whole app (the providers layer, src/app/providers.tsx):
 * one useSignerRegistry over the app's chain routes and their verifier, given to the
 * signers panel as the SignerManager and to every other feature as the SignerRegistry.
 */
import type { ReactNode } from 'react'
import { SignerRegistryContext, useChainRoutesContext } from '../../model/app-context'
import { SignerManagerContext } from './registry-context'
import { useSignerRegistry } from './useSignerRegistry'

export function SignerRegistryProvider({ children }: { children: ReactNode }) {
  const { routes, verifier } = useChainRoutesContext()
  const manager = useSignerRegistry({ chainRoutes: routes, verifier })
  return (
    <SignerManagerContext value={manager}>
      <SignerRegistryContext value={manager}>{children}</SignerRegistryContext>
    </SignerManagerContext>
  )
}
