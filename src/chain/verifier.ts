/**
 * The SmartWalletVerifier for real chains (spec section 7), on viem: ERC-6492
 * universal signature validation as a deployless eth_call of viem's validator, over
 * the personal-message hash, at block_number (IDENT-060), with a gas cap. viem's
 * verifyHash reads an outage as false (and an EOA as true with no RPC at all), so the
 * call is made directly and its errors classified: a revert, a false result, or a
 * validation that cannot run within the gas cap (./client.ts) is invalid; a missing route, transport failure, timeout, node error or a route whose
 * node answers another chain id is unreachable (ChainUnreachableError, IDENT-061).
 *
 * Verdicts are cached by chain, block, account, hash and signature (./cache.ts): a
 * signature judged at a fixed block is judged once.
 */
import {
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  numberToHex,
  toHex,
  type Hex,
} from 'viem'
import { ChainUnreachableError } from '../core/errors'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'
import { cachedVerifier, ChainVerdictCache, type CachedVerifier } from './cache'
import { ChainClients, classifyChainError, type ChainClientOptions } from './client'

/** Gas cap of the verification call (chain.md §9: 377 k for a counterfactual wallet). */
export const DEFAULT_VERIFY_GAS = 5_000_000n

export interface ChainVerifierOptions extends ChainClientOptions {
  /** Gas cap of the verification call: factoryData is attacker-chosen code. Default 5 M. */
  readonly gas?: bigint
  /** The verdict cache: a shared one, or false for none. Default: a new 10,000-entry cache. */
  readonly cache?: ChainVerdictCache | false
}

/** The calldata of the deployless validator call: viem's ERC-6492 validator constructor with its arguments. */
function erc6492CallData(account: string, hash: Uint8Array | Hex, signature: Uint8Array | Hex): Hex {
  return encodeDeployData({
    abi: erc6492SignatureValidatorAbi,
    bytecode: erc6492SignatureValidatorByteCode,
    args: [
      account as Hex,
      typeof hash === 'string' ? hash : toHex(hash),
      typeof signature === 'string' ? signature : toHex(signature),
    ],
  })
}

/** The JSON-RPC request of the verification, exactly as the verifier sends it. */
export interface EthCallRequest {
  readonly jsonrpc: '2.0'
  readonly id: number
  readonly method: 'eth_call'
  readonly params: readonly [{ readonly data: Hex; readonly gas: Hex }, Hex]
}

export interface EthCallInput {
  readonly account: string
  readonly blockNumber: bigint
  readonly hash: Uint8Array | Hex
  readonly signature: Uint8Array | Hex
}

export function erc6492EthCall(req: EthCallInput, gas: bigint = DEFAULT_VERIFY_GAS): EthCallRequest {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_call',
    params: [
      { data: erc6492CallData(req.account, req.hash, req.signature), gas: numberToHex(gas) },
      numberToHex(req.blockNumber),
    ],
  }
}

/** The validator returns its bool as "deployed code": 0x01, or a word ending in 1. */
export function isValidResult(data: Hex | undefined): boolean {
  return data !== undefined && /^0x0*1$/.test(data)
}

export class ChainVerifier implements SmartWalletVerifier {
  readonly clients: ChainClients
  /** The verdict cache in front of the chain, or null when caching is off. */
  readonly cache: ChainVerdictCache | null
  private readonly front: CachedVerifier | null
  private readonly gas: bigint

  constructor(routes: ReadonlyMap<bigint, string> | ChainClients, options: ChainVerifierOptions = {}) {
    this.clients = routes instanceof ChainClients ? routes : new ChainClients(routes, options)
    this.gas = options.gas ?? DEFAULT_VERIFY_GAS
    const cache = options.cache === false ? null : (options.cache ?? new ChainVerdictCache())
    this.cache = cache
    this.front = cache ? cachedVerifier({ verify: (r) => this.verifyUncached(r) }, { cache }) : null
  }

  verify(req: SmartWalletRequest): Promise<'valid' | 'invalid'> {
    return this.front ? this.front.verify(req) : this.verifyUncached(req)
  }

  /** One verification on the chain, bypassing the cache. */
  async verifyUncached(req: SmartWalletRequest): Promise<'valid' | 'invalid'> {
    const client = await this.clients.ready(req.chainId)
    try {
      const { data } = await client.call({
        blockNumber: req.blockNumber,
        gas: this.gas,
        data: erc6492CallData(req.account, req.hash, req.signature),
      })
      return isValidResult(data) ? 'valid' : 'invalid'
    } catch (e) {
      const c = classifyChainError(e)
      // A revert, or a validation that cannot run within the gas cap: the result is not valid.
      if (c.kind === 'reverted' || c.kind === 'exceeded') return 'invalid'
      throw new ChainUnreachableError(req.chainId, `${c.kind} error at ${this.clients.url(req.chainId)}: ${c.reason}`)
    }
  }
}
