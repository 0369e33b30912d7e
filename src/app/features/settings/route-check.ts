/**
 * Checks a chain route the way the verifier will use it: the route's node must answer
 * eth_chainId with the route's own chain id (src/chain/client.ts ChainClients.ready;
 * viem never compares them on reads). A mismatch or an unreachable node is shown in the
 * settings; the verifier reports the same reason as IDENT-061 (pending).
 */
import { useQuery } from '@tanstack/react-query'
import { ChainClients } from '../../../chain/client'
import { ChainUnreachableError } from '../../../core/errors'
import type { RouteSetting } from './chain-routes'

export type RouteCheck =
  | { readonly ok: true; readonly chainId: bigint; readonly head: bigint }
  | { readonly ok: false; readonly reason: string }

const routeKeys = {
  all: ['chain-route'] as const,
  check: (chainId: bigint, url: string) => ['chain-route', chainId, url, 'check'] as const,
}

/** eth_chainId against the route's chain id, then the head block number. Never throws. */
async function checkRoute(route: RouteSetting, timeoutMs = 4000): Promise<RouteCheck> {
  const chainId = BigInt(route.chainId)
  const clients = new ChainClients(new Map([[chainId, route.url]]), { timeoutMs })
  try {
    const client = await clients.ready(chainId)
    const head = await client.getBlockNumber({ cacheTime: 0 })
    return { ok: true, chainId, head }
  } catch (e) {
    if (e instanceof ChainUnreachableError) return { ok: false, reason: e.reason }
    return { ok: false, reason: e instanceof Error ? e.message.split('\n')[0]! : String(e) }
  }
}

export function useRouteCheck(route: RouteSetting) {
  return useQuery({
    queryKey: routeKeys.check(BigInt(route.chainId), route.url),
    queryFn: () => checkRoute(route),
    staleTime: 30_000,
  })
}
