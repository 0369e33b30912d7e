/**
 * Network profiles: where the app reads logs from, kept in the browser (localStorage).
 *
 *   local        this project's local node (the one `npm start` starts), identity API over
 *                Connect (the app's default)
 *   xmtp-dev     XMTP V3 dev, identity API over gRPC-web (configured; never contacted by tests)
 *   xmtp-prod    XMTP V3 production, identity API over gRPC-web
 *   xmtpd        an xmtpd node of the decentralized network, d14n API over Connect
 *   custom ones  any URL, API and transport the user enters
 *
 * And the shareable address of a fetch: `?node=<url>&api=<identity|d14n>&inbox=<id>` (or
 * `&address=`, `&passkey=`, `&handle=`), optionally `&transport=`.
 */
import type { Api, Target, TargetKind, TransportKind } from '../../../network/remote'
import { APIS, DEFAULT_TRANSPORT, normalizeTarget, TRANSPORTS } from '../../../network/target'
import { safeStorage } from '../../model/setting'

export interface Profile {
  readonly id: string
  readonly name: string
  readonly url: string
  readonly api: Api
  readonly transport: TransportKind
  readonly builtIn: boolean
}

const XMTP_DEV_GRPC_WEB = 'https://api.dev.xmtp.network:5558'
const XMTP_PRODUCTION_GRPC_WEB = 'https://api.production.xmtp.network:5558'
const XMTPD_TESTNET = 'https://grpc.testnet-dev.xmtp.network'

/** The built-in profiles; `localUrl` is this project's local node (the app's node setting). */
export function builtInProfiles(localUrl: string): Profile[] {
  return [
    { id: 'local', name: 'Local node', url: localUrl, api: 'identity', transport: 'connect', builtIn: true },
    { id: 'local-d14n', name: 'Local node (d14n)', url: localUrl, api: 'd14n', transport: 'grpc-web', builtIn: true },
    {
      id: 'xmtp-dev',
      name: 'XMTP V3 dev',
      url: XMTP_DEV_GRPC_WEB,
      api: 'identity',
      transport: 'grpc-web',
      builtIn: true,
    },
    {
      id: 'xmtp-production',
      name: 'XMTP V3 production',
      url: XMTP_PRODUCTION_GRPC_WEB,
      api: 'identity',
      transport: 'grpc-web',
      builtIn: true,
    },
    { id: 'xmtpd', name: 'xmtpd node', url: XMTPD_TESTNET, api: 'd14n', transport: 'connect', builtIn: true },
  ]
}

const KEY = 'inbox-inspector.network-profiles'

/** Why a profile cannot be used, or null. A browser speaks gRPC-web, Connect and the gateway, not gRPC. */
export function profileProblem(p: Pick<Profile, 'url' | 'api' | 'transport'>): string | null {
  let u: URL
  try {
    u = new URL(p.url)
  } catch {
    return `${JSON.stringify(p.url)} is not a URL`
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `a node URL is http: or https:, not ${u.protocol}`
  if (!APIS.includes(p.api)) return `unknown API ${JSON.stringify(p.api)}`
  if (!TRANSPORTS.includes(p.transport)) return `unknown transport ${JSON.stringify(p.transport)}`
  if (p.transport === 'grpc') return 'a browser cannot speak gRPC (fetch has no HTTP trailers): use grpc-web or connect'
  if (p.api === 'd14n' && p.transport === 'gateway') return 'the d14n API has no HTTP gateway: use grpc-web or connect'
  return null
}

/** The user's custom profiles (built-ins are not stored). */
export function loadCustomProfiles(storage: Pick<Storage, 'getItem'> | null = safeStorage()): Profile[] {
  try {
    const raw = storage?.getItem(KEY)
    if (!raw) return []
    const list = JSON.parse(raw) as unknown
    if (!Array.isArray(list)) return []
    return list.flatMap((x): Profile[] => {
      const p = x as Partial<Profile>
      if (typeof p.id !== 'string' || typeof p.name !== 'string' || typeof p.url !== 'string') return []
      const q = { url: p.url, api: p.api as Api, transport: p.transport as TransportKind }
      return profileProblem(q) ? [] : [{ id: p.id, name: p.name, ...q, builtIn: false }]
    })
  } catch {
    return []
  }
}

export function saveCustomProfiles(
  profiles: readonly Profile[],
  storage: Pick<Storage, 'setItem'> | null = safeStorage(),
): void {
  try {
    storage?.setItem(
      KEY,
      JSON.stringify(
        profiles
          .filter((p) => !p.builtIn)
          .map(({ id, name, url, api, transport }) => ({ id, name, url, api, transport })),
      ),
    )
  } catch {
    /* storage full or unavailable: the profiles last this session */
  }
}

export interface FetchAddress {
  readonly url: string
  readonly api: Api
  readonly transport: TransportKind
  readonly target: Target
}

const TARGET_PARAMS: readonly TargetKind[] = ['inbox', 'address', 'passkey', 'handle']

const sameUrl = (a: string, b: string): boolean => a.replace(/\/+$/, '') === b.replace(/\/+$/, '')

/**
 * The profile a page-address fetch used: the first profile with its node, API and
 * transport, or else a profile of its own ("From the page address"), so the profile list
 * never names another endpoint than the one the open log came from.
 */
export function profileForAddress(profiles: readonly Profile[], a: FetchAddress): Profile {
  const match = profiles.find((p) => sameUrl(p.url, a.url) && p.api === a.api && p.transport === a.transport)
  return (
    match ?? {
      id: 'from-address',
      name: 'From the page address',
      url: a.url,
      api: a.api,
      transport: a.transport,
      builtIn: true,
    }
  )
}

/**
 * The fetch a page address asks for (`?node=…&api=…&inbox=…`), null when it asks for
 * none, or `{ error }` when it asks for one that cannot be made.
 */
export function readFetchAddress(search: string): FetchAddress | null | { error: string } {
  const q = new URLSearchParams(search)
  const node = q.get('node')
  const given = TARGET_PARAMS.filter((k) => q.get(k) !== null)
  if (!node || given.length === 0) return null
  if (given.length > 1) return { error: `the address names ${given.map((k) => `${k}=`).join(' and ')}; give one` }
  const api = (q.get('api') ?? 'identity') as Api
  if (!APIS.includes(api)) return { error: `api=${q.get('api')} is not identity or d14n` }
  const transport = (q.get('transport') ?? DEFAULT_TRANSPORT[api]) as TransportKind
  const problem = profileProblem({ url: node, api, transport })
  if (problem) return { error: problem }
  const target: Target = { kind: given[0]!, value: q.get(given[0]!)! }
  const norm = normalizeTarget(target)
  if ('error' in norm) return { error: norm.error }
  return { url: node, api, transport, target }
}

/** The query string that makes the fetch again (for sharing and reloading). */
export function fetchAddressQuery(a: FetchAddress): string {
  const q = new URLSearchParams()
  q.set('node', a.url)
  q.set('api', a.api)
  q.set('transport', a.transport)
  q.set(a.target.kind, a.target.value)
  return `?${q.toString()}`
}
