/** Provides the node service (src/app/model/node-service.ts) for the node URL of the settings. */
import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useMemo } from 'react'
import { useChainRoutesContext } from '../../model/app-context'
import { NodeServiceContext } from '../../model/node-service'
import { createNodeService } from './node-service'

export function NodeServiceProvider({ url, children }: { url: string; children: ReactNode }) {
  const client = useQueryClient()
  // The claim pre-check judges the holder's smart wallets on the chain routes.
  const { verifier } = useChainRoutesContext()
  const service = useMemo(() => createNodeService(url, client, verifier), [url, client, verifier])
  return <NodeServiceContext.Provider value={service}>{children}</NodeServiceContext.Provider>
}
