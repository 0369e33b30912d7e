/**
 * The node flags `fetch` and `watch` share (../shared/contracts/cli.md): the node URL, the
 * API and transport (gateway with d14n is a usage error), exactly one of --inbox,
 * --address, --passkey and --handle, and the numeric limits. Every problem is a UsageError.
 */
import { ChainRouteError, parseChainRoute, routeTable } from '../chain/routes'
import {
  APIS,
  type Api,
  DEFAULT_TRANSPORT,
  normalizeTarget,
  type Target,
  type TargetKind,
  TRANSPORTS,
  type TransportKind,
} from '../network/target'
import { UsageError } from './io'

const TARGETS: readonly TargetKind[] = ['inbox', 'address', 'passkey', 'handle']

export interface NodeFlagValues {
  readonly node?: string
  readonly api?: string
  readonly transport?: string
  readonly inbox?: string
  readonly address?: string
  readonly passkey?: string
  readonly handle?: string
  readonly chain?: string[]
}

export interface NodeArgs {
  readonly node: string
  readonly api: Api
  readonly transport: TransportKind
  readonly target: Target
  /** The target's value as sent (an address lowercased, a handle ASCII-lowercased). */
  readonly normalized: string
  /** chain id → RPC URL, from --chain. */
  readonly routes: ReadonlyMap<bigint, string> | null
}

/** A whole number flag of at least `min`, or undefined when absent. */
export function count(v: string | undefined, flag: string, min: number): number | undefined {
  if (v === undefined) return undefined
  if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > 2 ** 31) {
    throw new UsageError(`${flag} ${JSON.stringify(v)} is not a whole number of at least ${min}`)
  }
  return Number(v)
}

export function nodeArgs(cmd: string, values: NodeFlagValues, positionals: readonly string[]): NodeArgs {
  if (positionals.length) throw new UsageError(`${cmd} takes no FILE (got ${JSON.stringify(positionals[0])})`)
  if (values.node === undefined) throw new UsageError(`${cmd} needs --node <url>`)
  let url: URL
  try {
    url = new URL(values.node)
  } catch {
    throw new UsageError(`--node ${JSON.stringify(values.node)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--node ${JSON.stringify(values.node)} is not an http:// or https:// URL`)
  }
  const api = (values.api ?? 'identity') as Api
  if (!APIS.includes(api)) throw new UsageError(`--api ${JSON.stringify(values.api)} is not one of ${APIS.join(', ')}`)
  const transport = (values.transport ?? DEFAULT_TRANSPORT[api]) as TransportKind
  if (!TRANSPORTS.includes(transport)) {
    throw new UsageError(`--transport ${JSON.stringify(values.transport)} is not one of ${TRANSPORTS.join(', ')}`)
  }
  if (api === 'd14n' && transport === 'gateway') {
    throw new UsageError('--transport gateway serves the identity API only; d14n speaks grpc, grpc-web or connect')
  }
  const given = TARGETS.filter((k) => values[k] !== undefined)
  if (given.length !== 1) {
    throw new UsageError(
      given.length === 0
        ? `${cmd} needs one of --inbox, --address, --passkey or --handle`
        : `${cmd} takes one of --inbox, --address, --passkey or --handle, not ${given.map((k) => `--${k}`).join(' and ')}`,
    )
  }
  const target: Target = { kind: given[0]!, value: values[given[0]!]! }
  const norm = normalizeTarget(target)
  if ('error' in norm) throw new UsageError(norm.error)
  let routes: ReadonlyMap<bigint, string> | null = null
  try {
    routes = values.chain?.length ? routeTable(values.chain.map(parseChainRoute)) : null
  } catch (e) {
    if (e instanceof ChainRouteError) throw new UsageError(e.message)
    throw e
  }
  return { node: values.node, api, transport, target, normalized: norm.value, routes }
}
