/**
 * The local node's flags (../shared/contracts/cli.md, "The local node", plus this node's
 * policy flags). Pure parsing: main.ts runs it.
 */
import { parseArgs } from 'node:util'
import { ChainRouteError, parseChainRoute, routeTable } from '../chain/routes'
import { DEFAULT_POLICY, type ClaimPolicy } from './admission'
import { DEFAULT_MAX_BODY_BYTES } from './server'
import { DEFAULT_MAX_SUBSCRIBERS, DEFAULT_SUBSCRIBER_BACKLOG } from './subscribe'
import { UsageError } from '../cli/io'

export const USAGE = `usage: npm run --silent devnode -- --port <port> --db <file> [--host 127.0.0.1]
    [--chain eip155:<id>=<rpc-url>]... [--min-handle-length N] [--reserved a,b,c]
    [--claim-interval-s S] [--max-body-bytes N] [--seed demo|<log file>] [--log-requests]
    [--max-subscribers N] [--subscriber-backlog N]`

function nonNegativeInt(flag: string, v: string): number {
  if (!/^[0-9]+$/.test(v)) throw new UsageError(`${flag} ${JSON.stringify(v)} is not a non-negative integer`)
  return Number(v)
}

/** The option's non-negative integer, or `fallback` when it is not given; below `min` is a usage error. */
function intOption(flag: string, v: string | undefined, fallback: number, min = 0): number {
  if (v === undefined) return fallback
  const n = nonNegativeInt(flag, v)
  if (n < min) throw new UsageError(`${flag} must be at least ${min}`)
  return n
}

export interface NodeConfig {
  readonly host: string
  readonly port: number
  readonly db: string
  readonly routes: ReadonlyMap<bigint, string>
  readonly policy: ClaimPolicy
  readonly maxBodyBytes: number
  readonly seed: string | null
  readonly logRequests: boolean
  readonly maxSubscribers: number
  readonly subscriberBacklog: number
}

export function parseNodeArgs(argv: readonly string[]): NodeConfig {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string' },
        db: { type: 'string' },
        chain: { type: 'string', multiple: true, default: [] },
        'min-handle-length': { type: 'string' },
        reserved: { type: 'string' },
        'claim-interval-s': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        seed: { type: 'string' },
        'log-requests': { type: 'boolean', default: false },
        'max-subscribers': { type: 'string' },
        'subscriber-backlog': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e))
  }
  if (values.help) throw new UsageError('')
  if (values.port === undefined) throw new UsageError('--port is required')
  if (values.db === undefined || values.db === '') throw new UsageError('--db is required')
  const port = nonNegativeInt('--port', values.port)
  if (port > 65535) throw new UsageError(`--port ${port} is above 65535`)
  let routes: Map<bigint, string>
  try {
    routes = routeTable(values.chain.map(parseChainRoute))
  } catch (e) {
    if (e instanceof ChainRouteError) throw new UsageError(e.message)
    throw e
  }
  const reserved =
    values.reserved === undefined
      ? DEFAULT_POLICY.reserved
      : values.reserved
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
  let claimIntervalNs = DEFAULT_POLICY.claimIntervalNs
  if (values['claim-interval-s'] !== undefined) {
    const v = values['claim-interval-s']
    if (!/^[0-9]+(\.[0-9]{1,9})?$/.test(v))
      throw new UsageError(`--claim-interval-s ${JSON.stringify(v)} is not a non-negative number of seconds`)
    const [whole, frac = ''] = v.split('.')
    claimIntervalNs = BigInt(whole!) * 1_000_000_000n + BigInt(frac.padEnd(9, '0'))
  }
  const minHandleLength = intOption('--min-handle-length', values['min-handle-length'], DEFAULT_POLICY.minHandleLength)
  const maxBodyBytes = intOption('--max-body-bytes', values['max-body-bytes'], DEFAULT_MAX_BODY_BYTES, 1)
  const maxSubscribers = intOption('--max-subscribers', values['max-subscribers'], DEFAULT_MAX_SUBSCRIBERS)
  const subscriberBacklog = intOption(
    '--subscriber-backlog',
    values['subscriber-backlog'],
    DEFAULT_SUBSCRIBER_BACKLOG,
    1,
  )
  return {
    host: values.host,
    port,
    db: values.db,
    routes,
    policy: { minHandleLength, reserved, claimIntervalNs },
    maxBodyBytes,
    seed: values.seed ?? null,
    logRequests: values['log-requests'],
    maxSubscribers,
    subscriberBacklog,
  }
}
