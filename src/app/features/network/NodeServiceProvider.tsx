/** Provides the node service (src/app/model/node-service.ts) for the node URL of the settings. */
import { type ReactNode, useMemo } from 'react'
import { useChainRoutesContext } from '../../model/app-context'
import { NodeServiceContext } from '../../model/node-service'
import { loadQueryClient } from '../../providers'
import { createNodeService } from './node-service'

export function NodeServiceProvider({ url, children }: { url: string; children: ReactNode }) {
  // The claim pre-check judges the holder's smart wallets on the chain routes.
  const { verifier } = useChainRoutesContext()
  const service = useMemo(() => createNodeService(url, loadQueryClient, verifier), [url, verifier])
  return <NodeServiceContext.Provider value={service}>{children}</NodeServiceContext.Provider>
}
