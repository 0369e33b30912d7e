/**
 * The signers feature's own view of the registry: the whole SignerManager (vault,
 * wallets, smart wallets) that the signers panel manages. Other features read the
 * narrower SignerRegistry through src/app/model/app-context.ts.
 */
import { createContext, useContext } from 'react'
import { MissingProviderError } from '../../model/app-context'
import type { SignerManager } from './useSignerRegistry'

export const SignerManagerContext = createContext<SignerManager | null>(null)

export function useSignerManager(): SignerManager {
  const v = useContext(SignerManagerContext)
  if (!v) throw new MissingProviderError('the signer manager')
  return v
}
