/**
 * viem clients for chain routes, shared by the verifier, the freshness check and the
 * evidence panel (../shared/notes/chain.md §6, §11):
 *
 * - one PublicClient per route: `defineChain` with no `contracts` (a chain object that
 *   names an erc6492Verifier sends the call elsewhere), `cacheTime: 0` (no stale block
 *   numbers), `retryCount: 0` and a timeout of a few seconds;
 * - the route's chain id compared with the node's own `eth_chainId` before first use
 *   (viem never checks it on reads): a mismatch is unreachable, with the reason;
 * - errors classified by name along the cause chain (instanceof breaks across two viem
 *   copies): transport, node (rpc), revert, other.
 */
import { createPublicClient, defineChain, http, type PublicClient } from 'viem'
import { ChainUnreachableError } from '../core/errors'

export interface ChainClientOptions {
  /** Per-request timeout; default 5000 ms. */
  readonly timeoutMs?: number
  /** Retries of a failed request; default 0 (an outage surfaces at once, as pending). */
  readonly retryCount?: number
  /** JSON-RPC batching of concurrent requests (viem `http(url, { batch: true })`); default false. */
  readonly batch?: boolean
}

/** A viem PublicClient for one route, configured as this module's header says. */
export function chainClient(chainId: bigint, url: string, options: ChainClientOptions = {}): PublicClient {
  const chain = defineChain({
    id: Number(chainId),
    name: `eip155:${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
  return createPublicClient({
    chain,
    cacheTime: 0,
    transport: http(url, {
      retryCount: options.retryCount ?? 0,
      timeout: options.timeoutMs ?? 5000,
      batch: options.batch ?? false,
    }),
  })
}

/**
 * reverted: the validation ran and failed (invalid). exceeded: the validation cannot run
 * within the gas cap or the node's initcode limit, which asking again never changes
 * (invalid). transport, rpc, other: no result (unreachable, IDENT-061).
 */
type ChainErrorKind = 'reverted' | 'exceeded' | 'transport' | 'rpc' | 'other'

export interface ClassifiedChainError {
  readonly kind: ChainErrorKind
  readonly reason: string
}

const TRANSPORT = ['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError']

type Walkable = Error & { walk(fn: (err: unknown) => boolean): unknown; shortMessage?: string }

/** A viem BaseError, recognised by shape rather than instanceof (one viem copy need not be ours). */
function isViemError(e: unknown): e is Walkable {
  return (
    e instanceof Error &&
    typeof (e as Partial<Walkable>).walk === 'function' &&
    typeof (e as Partial<Walkable>).shortMessage === 'string'
  )
}

function chainOf(e: Walkable): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  e.walk((err) => {
    if (err && typeof err === 'object') out.push(err as Record<string, unknown>)
    return false
  })
  return out
}

/** One readable line: the first line of viem's short message, the node's details, a socket error code. */
function reasonOf(e: Walkable, errs: readonly Record<string, unknown>[]): string {
  const head = String(e.shortMessage ?? e.message)
    .split('\n')[0]!
    .trim()
  const details = errs.map((x) => x.details).find((d): d is string => typeof d === 'string' && d.trim() !== '')
  const sysCode = errs.map((x) => x.code).find((c): c is string => typeof c === 'string')
  const extra = [details, sysCode].filter((x): x is string => !!x && !head.includes(x))
  return `${head}${extra.length ? ` (${extra.join(', ')})` : ''}`.replace(/\s+/g, ' ')
}

/** Node answers that say the call cannot run within its limits (anvil, geth and reth wordings). */
const EXCEEDED =
  /out ?of ?gas|intrinsic gas too (high|low)|CallGasCostMoreThanGasLimit|max initcode size exceeded|initcode size/i

/**
 * Classifies a chain call failure (chain.md §6), looking at every error of the cause
 * chain, in this order:
 * - a transport error anywhere (refused, DNS, HTTP 4xx/5xx, non-JSON, timeout) → transport;
 * - a revert (ExecutionRevertedError, RawContractError, an RPC error with code 3, or
 *   "revert" in an RPC error's details or message; node dialects differ, §8) → reverted;
 * - an RPC error saying the call runs out of gas under the cap, needs more intrinsic gas
 *   than the cap, or exceeds the initcode size limit → exceeded: deterministic for the
 *   signature and the cap, so not an outage;
 * - any other viem error (block out of range, missing state, method not found, a
 *   CallExecutionError) → rpc; not a viem error → other.
 */
export function classifyChainError(e: unknown): ClassifiedChainError {
  if (!isViemError(e))
    return { kind: 'other', reason: (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ') }
  const errs = chainOf(e)
  const reason = reasonOf(e, errs)
  const nameOf = (x: Record<string, unknown>) => (typeof x.name === 'string' ? x.name : '')
  if (errs.some((x) => TRANSPORT.includes(nameOf(x)))) return { kind: 'transport', reason }
  // Only node answers (RPC errors) carry a numeric code.
  const answers = errs.filter((x) => typeof x.code === 'number')
  const textOf = (x: Record<string, unknown>) => `${String(x.details ?? '')} ${String(x.shortMessage ?? '')}`
  const reverted =
    errs.some((x) => nameOf(x) === 'ExecutionRevertedError' || nameOf(x) === 'RawContractError') ||
    answers.some((x) => x.code === 3 || /revert/i.test(textOf(x)))
  if (reverted) return { kind: 'reverted', reason }
  if (answers.some((x) => EXCEEDED.test(textOf(x)))) return { kind: 'exceeded', reason }
  return { kind: 'rpc', reason }
}

/** The route table's clients, created on first use, each checked once against its node's chain id. */
export class ChainClients {
  private readonly clients = new Map<bigint, PublicClient>()
  private readonly checked = new Map<bigint, Promise<PublicClient>>()

  constructor(
    readonly routes: ReadonlyMap<bigint, string>,
    readonly options: ChainClientOptions = {},
  ) {}

  /** The RPC URL of the route for a chain, if there is one. */
  url(chainId: bigint): string | undefined {
    return this.routes.get(chainId)
  }

  /** The client of a chain's route, unchecked. Throws ChainUnreachableError when there is no route. */
  client(chainId: bigint): PublicClient {
    let c = this.clients.get(chainId)
    if (!c) {
      const url = this.routes.get(chainId)
      if (!url) throw new ChainUnreachableError(chainId, `no RPC route for chain eip155:${chainId}`)
      // viem chain ids are JavaScript numbers: a larger id would be compared after rounding.
      if (chainId > BigInt(Number.MAX_SAFE_INTEGER))
        throw new ChainUnreachableError(
          chainId,
          `chain id ${chainId} is above 2^53 - 1, which viem clients cannot address`,
        )
      c = chainClient(chainId, url, this.options)
      this.clients.set(chainId, c)
    }
    return c
  }

  /**
   * The client of a chain's route once its node has answered eth_chainId with the
   * route's chain id (checked once; a transport failure is retried on the next call, a
   * mismatch is kept). Throws ChainUnreachableError.
   */
  ready(chainId: bigint): Promise<PublicClient> {
    let p = this.checked.get(chainId)
    if (!p) {
      let client: PublicClient
      try {
        client = this.client(chainId)
      } catch (e) {
        return Promise.reject(e)
      }
      const url = this.routes.get(chainId)
      p = client.getChainId().then(
        (actual) => {
          if (BigInt(actual) !== chainId) {
            throw new ChainUnreachableError(
              chainId,
              `the route for eip155:${chainId} (${url}) answers chain id ${actual}, not ${chainId}: the route points at another chain`,
            )
          }
          return client
        },
        (e: unknown) => {
          this.checked.delete(chainId)
          const c = classifyChainError(e)
          throw new ChainUnreachableError(chainId, `eth_chainId at ${url} failed (${c.kind} error): ${c.reason}`)
        },
      )
      this.checked.set(chainId, p)
    }
    return p
  }
}
