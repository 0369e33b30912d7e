/**
 * The SmartWalletVerifier for real chains (spec section 7), on viem: ERC-6492
 * universal signature validation as a deployless eth_call of viem's validator, over
 * the personal-message hash, at block_number (IDENT-060), with a gas cap. viem's
 * verifyHash reads an outage as false (and an EOA as true with no RPC at all), so the
 * call is made directly and its errors classified: a revert or a false result is
 * invalid; a missing route, transport failure, timeout or node error is unreachable
 * (ChainUnreachableError, IDENT-061).
 */
import {
  BaseError,
  createPublicClient,
  defineChain,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  http,
  toHex,
  type PublicClient,
} from 'viem'
import { ChainUnreachableError } from '../core/errors'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'

export interface ChainVerifierOptions {
  /** Gas cap of the verification call: factoryData is attacker-chosen code. */
  readonly gas?: bigint
  readonly timeoutMs?: number
}

type Classified = { kind: 'reverted' | 'transport' | 'rpc' | 'other'; reason: string }

/** Classifies by error name along the cause chain (instanceof breaks across viem copies). */
export function classifyChainError(e: unknown): Classified {
  if (!(e instanceof BaseError)) return { kind: 'other', reason: e instanceof Error ? e.message : String(e) }
  let kind: Classified['kind'] | null = null
  e.walk((err) => {
    const x = err as { name?: string; code?: unknown; details?: unknown; message?: unknown }
    if (kind) return false
    if (['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError'].includes(x.name ?? '')) kind = 'transport'
    else if (x.name === 'ExecutionRevertedError' || x.name === 'RawContractError' || x.code === 3 || /revert/i.test(String(x.details ?? ''))) kind = 'reverted'
    return false
  })
  return { kind: kind ?? 'rpc', reason: e.shortMessage }
}

export class ChainVerifier implements SmartWalletVerifier {
  private readonly clients = new Map<bigint, PublicClient>()
  private readonly checked = new Map<bigint, Promise<void>>()
  constructor(
    private readonly routes: ReadonlyMap<bigint, string>,
    private readonly options: ChainVerifierOptions = {},
  ) {}

  private client(chainId: bigint): PublicClient {
    let c = this.clients.get(chainId)
    if (!c) {
      const url = this.routes.get(chainId)
      if (!url) throw new ChainUnreachableError(chainId, `no RPC route for chain eip155:${chainId}`)
      const chain = defineChain({
        id: Number(chainId),
        name: `eip155:${chainId}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      })
      c = createPublicClient({ chain, cacheTime: 0, transport: http(url, { retryCount: 0, timeout: this.options.timeoutMs ?? 5000 }) })
      this.clients.set(chainId, c)
    }
    return c
  }

  /** The route's chain id is the node's own: checked once per route. */
  private ensureChainId(chainId: bigint, client: PublicClient): Promise<void> {
    let p = this.checked.get(chainId)
    if (!p) {
      p = client.getChainId().then(
        (actual) => {
          if (BigInt(actual) !== chainId) {
            throw new ChainUnreachableError(chainId, `the route for eip155:${chainId} (${this.routes.get(chainId)}) answers chain id ${actual}`)
          }
        },
        (e: unknown) => {
          this.checked.delete(chainId) // a transport failure may pass: check again next time
          throw new ChainUnreachableError(chainId, `eth_chainId failed: ${classifyChainError(e).reason}`)
        },
      )
      this.checked.set(chainId, p)
    }
    return p
  }

  async verify(req: SmartWalletRequest): Promise<'valid' | 'invalid'> {
    const client = this.client(req.chainId)
    await this.ensureChainId(req.chainId, client)
    try {
      const { data } = await client.call({
        blockNumber: req.blockNumber,
        gas: this.options.gas ?? 5_000_000n,
        data: encodeDeployData({
          abi: erc6492SignatureValidatorAbi,
          bytecode: erc6492SignatureValidatorByteCode,
          args: [req.account as `0x${string}`, toHex(req.hash), toHex(req.signature)],
        }),
      })
      return data !== undefined && /^0x(0*1)$/.test(data) ? 'valid' : 'invalid'
    } catch (e) {
      const c = classifyChainError(e)
      if (c.kind === 'reverted') return 'invalid'
      throw new ChainUnreachableError(req.chainId, `${c.kind} error: ${c.reason}`)
    }
  }
}
