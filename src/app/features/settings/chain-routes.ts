/**
 * The chain routes setting: eip155 chain id → RPC URL, for judging smart contract
 * wallet (erc_6492) signatures (IDENT-060) in the replay worker and the evidence panel.
 * Each route is validated with src/chain/routes.ts (the command line's `--chain` rules:
 * a decimal chain id with no sign or leading zero, an http(s) URL); one route per chain.
 *
 * Persisted in localStorage as JSON; until the user saves a list, the default is
 * VITE_CHAIN_ROUTES (`npm start` passes its anvil: `eip155:31337=http://127.0.0.1:8545`;
 * several routes are separated by commas or spaces). A chain with no route leaves its
 * signatures pending (IDENT-061), which is not invalid.
 */
import { useCallback, useState } from 'react'
import { ChainRouteError, parseChainRoute, routeTable, type ChainRoute } from '../../../chain/routes'
import { safeStorage } from '../../model/setting'

const KEY = 'inbox-inspector.chain-routes'

/** A route as the settings keep it: the chain id in decimal text, so it survives JSON. */
export interface RouteSetting {
  readonly chainId: string
  readonly url: string
}

/** The largest chain id a viem client can address (its chain ids are JavaScript numbers). */
const MAX_CHAIN_ID = BigInt(Number.MAX_SAFE_INTEGER)

/** The spec text of a route: `eip155:<id>=<url>`. */
export const routeSpec = (r: RouteSetting): string => `eip155:${r.chainId}=${r.url}`

/**
 * The route for a chain id and URL as typed, or the reason it is not one. The chain id
 * may be written `31337` or `eip155:31337`.
 */
export function parseRouteSetting(chainIdText: string, urlText: string): RouteSetting | { readonly problem: string } {
  const id = chainIdText.trim().replace(/^eip155:/, '')
  const url = urlText.trim()
  if (id === '') return { problem: 'the chain id is empty: an eip155 chain id is a decimal number, e.g. 31337' }
  if (url === '') return { problem: `the RPC URL for eip155:${id} is empty` }
  let route: ChainRoute
  try {
    route = parseChainRoute(`eip155:${id}=${url}`)
  } catch (e) {
    if (!(e instanceof ChainRouteError)) throw e
    if (!/^(0|[1-9][0-9]*)$/.test(id))
      return { problem: `chain id ${JSON.stringify(id)} is not a decimal number with no sign and no leading zero` }
    // The command line's wording names its flag; the setting says the same without it.
    return { problem: e.message.replace(/^--chain "(?:[^"\\]|\\.)*": /, '') }
  }
  if (route.chainId > MAX_CHAIN_ID)
    return { problem: `chain id ${route.chainId} is above 2^53 - 1, which the chain client cannot address` }
  return { chainId: route.chainId.toString(), url: route.url }
}

/**
 * Checks a whole list: every route valid and one per chain. Returns the problems by
 * index (empty when the list is usable).
 */
export function routeListProblems(routes: readonly RouteSetting[]): string[] {
  const problems: string[] = []
  const seen = new Map<string, number>()
  routes.forEach((r, i) => {
    const p = parseRouteSetting(r.chainId, r.url)
    if ('problem' in p) problems.push(`route ${i + 1}: ${p.problem}`)
    else if (seen.has(p.chainId))
      problems.push(
        `route ${i + 1}: a second route for chain eip155:${p.chainId} (route ${seen.get(p.chainId)! + 1} is one already)`,
      )
    else seen.set(p.chainId, i)
  })
  return problems
}

/** Reads `eip155:<id>=<url>` specs separated by commas or white space (VITE_CHAIN_ROUTES). Throws ChainRouteError. */
export function parseRouteList(text: string): RouteSetting[] {
  const specs = text.split(/[\s,]+/).filter(Boolean)
  const table = routeTable(specs.map(parseChainRoute))
  return [...table].map(([chainId, url]) => ({ chainId: chainId.toString(), url }))
}

/** The routes `npm start` (or a build) passed as VITE_CHAIN_ROUTES; [] when none or malformed. */
export function defaultChainRoutes(
  env: string | undefined = import.meta.env.VITE_CHAIN_ROUTES as string | undefined,
): RouteSetting[] {
  if (!env) return []
  try {
    return parseRouteList(env)
  } catch (e) {
    console.warn(`VITE_CHAIN_ROUTES is ignored: ${e instanceof Error ? e.message : String(e)}`)
    return []
  }
}

/** The route table the chain code takes (src/chain/routes.ts): chain id → URL. Invalid entries are left out. */
export function routeMap(routes: readonly RouteSetting[]): Map<bigint, string> {
  const m = new Map<bigint, string>()
  for (const r of routes) {
    const p = parseRouteSetting(r.chainId, r.url)
    if (!('problem' in p) && !m.has(BigInt(p.chainId))) m.set(BigInt(p.chainId), p.url)
  }
  return m
}

/** The saved routes, or null when the user never saved any (the default applies). */
export function readSavedRoutes(storage: Pick<Storage, 'getItem'> | null = safeStorage()): RouteSetting[] | null {
  try {
    const raw = storage?.getItem(KEY)
    if (raw == null) return null
    const v: unknown = JSON.parse(raw)
    if (!Array.isArray(v)) return null
    const routes = v.filter(
      (x): x is RouteSetting =>
        !!x &&
        typeof x === 'object' &&
        typeof (x as RouteSetting).chainId === 'string' &&
        typeof (x as RouteSetting).url === 'string',
    )
    return routes.filter((r) => !('problem' in parseRouteSetting(r.chainId, r.url)))
  } catch {
    return null
  }
}

export function writeSavedRoutes(
  routes: readonly RouteSetting[] | null,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | null = safeStorage(),
): void {
  try {
    if (routes === null) storage?.removeItem(KEY)
    else storage?.setItem(KEY, JSON.stringify(routes.map((r) => ({ chainId: r.chainId, url: r.url }))))
  } catch {
    /* storage unavailable: the setting lasts for this page */
  }
}

function readChainRoutes(): RouteSetting[] {
  return readSavedRoutes() ?? defaultChainRoutes()
}

/** The routes and a setter (null: back to the default). Saving validates the list first; returns its problems. */
export function useChainRoutes(): [RouteSetting[], (routes: readonly RouteSetting[] | null) => string[]] {
  const [routes, setRoutes] = useState<RouteSetting[]>(readChainRoutes)
  const set = useCallback((next: readonly RouteSetting[] | null): string[] => {
    if (next !== null) {
      const problems = routeListProblems(next)
      if (problems.length) return problems
    }
    writeSavedRoutes(next)
    setRoutes(
      next === null
        ? defaultChainRoutes()
        : next.map((r) => ({ ...(parseRouteSetting(r.chainId, r.url) as RouteSetting) })),
    )
    return []
  }, [])
  return [routes, set]
}
