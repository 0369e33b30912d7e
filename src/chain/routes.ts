/**
 * Chain routes: eip155 chain id → RPC URL, from the command line's
 * `--chain eip155:<id>=<rpc-url>` and the app's settings.
 */

export interface ChainRoute {
  readonly chainId: bigint
  readonly url: string
}

export class ChainRouteError extends Error {
  override readonly name = 'ChainRouteError'
}

/** Parses `eip155:<id>=<url>`; the id is decimal with no sign and no leading zero. */
export function parseChainRoute(spec: string): ChainRoute {
  const m = /^eip155:(0|[1-9][0-9]*)=(.+)$/.exec(spec)
  if (!m) throw new ChainRouteError(`--chain ${JSON.stringify(spec)} is not eip155:<chain id>=<rpc url>`)
  const url = m[2]!
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new ChainRouteError(`--chain ${JSON.stringify(spec)}: ${JSON.stringify(url)} is not a URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ChainRouteError(
      `--chain ${JSON.stringify(spec)}: the RPC URL must be http or https, found ${parsed.protocol}`,
    )
  return { chainId: BigInt(m[1]!), url }
}

export function routeTable(routes: readonly ChainRoute[]): Map<bigint, string> {
  const table = new Map<bigint, string>()
  for (const r of routes) {
    if (table.has(r.chainId)) throw new ChainRouteError(`two routes for chain eip155:${r.chainId}`)
    table.set(r.chainId, r.url)
  }
  return table
}
