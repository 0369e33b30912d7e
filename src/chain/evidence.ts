/**
 * Evidence for one erc_6492 signature, for the inspector's evidence panel (issue 5):
 * the chain, the block and its time, the route used, whether the account has code at
 * that block, the ERC-6492 wrapper taken apart (factory, factoryData, inner signature),
 * and the exact eth_call JSON-RPC request that reproduces the verdict, with a curl
 * command line to paste.
 *
 * Never throws: a malformed account id (IDENT-060 form check) gives status 'malformed'
 * with no chain access; no route or a failing node gives status 'unreachable' with the
 * reason (IDENT-061), and the facts that could be read.
 */
import { isErc6492Signature, parseErc6492Signature, toHex, type Hex } from 'viem'
import { ChainUnreachableError } from '../core/errors'
import { parseEip155AccountId } from '../core/verify/signature'
import { ChainClients, classifyChainError, type ChainClientOptions } from './client'
import { DEFAULT_VERIFY_GAS, erc6492EthCall, isValidResult, type EthCallRequest } from './verifier'

export interface EvidenceInput {
  /** The erc_6492 signature as carried: account_id, block_number, signature bytes. */
  readonly signature: { readonly accountId: string; readonly blockNumber: bigint; readonly signature: Uint8Array | Hex }
  /** The personal-message hash (EIP-191) of the update's signature text. */
  readonly hash: Uint8Array | Hex
}

interface Erc6492Wrapper {
  /** The factory the validator calls when the account has no code. */
  readonly factory: Hex
  /** Calldata of that call (attacker-chosen code runs inside eth_call: the call is gas-capped). */
  readonly factoryData: Hex
  /** The signature the wallet's ERC-1271 isValidSignature is asked about. */
  readonly innerSignature: Hex
}

export interface SmartWalletEvidence {
  readonly status: 'ok' | 'unreachable' | 'malformed'
  /** Why the status is not 'ok'; '' otherwise. */
  readonly reason: string
  readonly accountId: string
  readonly chainId: bigint | null
  /** Lowercase address from the account id. */
  readonly account: Hex | null
  readonly blockNumber: bigint
  /** The block's timestamp (seconds) and as RFC 3339, when it could be read. */
  readonly blockTimestamp: bigint | null
  readonly blockTime: string | null
  /** The RPC URL of the route used, or null when there is none. */
  readonly routeUrl: string | null
  /** Whether the account has code at that block (getCode), when it could be read. */
  readonly hasCode: boolean | null
  readonly codeSize: number | null
  /** The signature bytes as carried. */
  readonly signatureHex: Hex
  /** The ERC-6492 wrapper taken apart, or null when the signature is not wrapped. */
  readonly wrapper: Erc6492Wrapper | null
  /** Set when the signature ends in the ERC-6492 magic but the wrapper does not decode. */
  readonly wrapperError: string | null
  readonly hash: Hex
  /** The eth_call that reproduces the verdict (null when the account id is malformed). */
  readonly ethCall: EthCallRequest | null
  /** A curl command line sending ethCall to the route (null without a route). */
  readonly curl: string | null
  /** The verdict of that call when it was run: 'valid', 'invalid' (a revert or false), or null. */
  readonly verdict: 'valid' | 'invalid' | null
  /** The call's raw result, or the revert message. */
  readonly callResult: string | null
}

/** What the chain told about the account at the block: nothing until it is read. */
type ChainFacts = {
  -readonly [K in
    | 'blockTimestamp'
    | 'blockTime'
    | 'hasCode'
    | 'codeSize'
    | 'verdict'
    | 'callResult']: SmartWalletEvidence[K]
}

function noChainFacts(): ChainFacts {
  return { blockTimestamp: null, blockTime: null, hasCode: null, codeSize: null, verdict: null, callResult: null }
}

export interface EvidenceOptions extends ChainClientOptions {
  /** The verifier's gas cap; default 5 M, as ChainVerifier. */
  readonly gas?: bigint
  /** Run the eth_call to show its verdict; default true. */
  readonly runCall?: boolean
}

const shellQuote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`

function curlFor(url: string, request: EthCallRequest): string {
  return `curl -s -X POST -H 'Content-Type: application/json' --data ${shellQuote(JSON.stringify(request))} ${shellQuote(url)}`
}

function rfc3339(seconds: bigint): string | null {
  const ms = Number(seconds) * 1000
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z')
}

function unwrap(sig: Hex): { wrapper: Erc6492Wrapper | null; wrapperError: string | null } {
  try {
    if (!isErc6492Signature(sig)) return { wrapper: null, wrapperError: null }
    const p = parseErc6492Signature(sig)
    if (!p.address || p.data === undefined)
      return { wrapper: null, wrapperError: 'the ERC-6492 wrapper names no factory' }
    return {
      wrapper: { factory: p.address.toLowerCase() as Hex, factoryData: p.data, innerSignature: p.signature },
      wrapperError: null,
    }
  } catch (e) {
    return {
      wrapper: null,
      wrapperError: `ends in the ERC-6492 magic bytes but does not decode: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
    }
  }
}

const reasonOf = (e: unknown): string => {
  if (e instanceof ChainUnreachableError) return e.reason
  const c = classifyChainError(e)
  return `${c.kind} error: ${c.reason}`
}

/** The evidence of one erc_6492 signature, read through the routes (or a ChainVerifier's clients). */
export async function smartWalletEvidence(
  input: EvidenceInput,
  routes: ReadonlyMap<bigint, string> | ChainClients,
  options: EvidenceOptions = {},
): Promise<SmartWalletEvidence> {
  const clients = routes instanceof ChainClients ? routes : new ChainClients(routes, options)
  const { accountId, blockNumber } = input.signature
  const signatureHex =
    typeof input.signature.signature === 'string' ? input.signature.signature : toHex(input.signature.signature)
  const hash = typeof input.hash === 'string' ? input.hash : toHex(input.hash)
  const { wrapper, wrapperError } = unwrap(signatureHex)
  const base = {
    accountId,
    blockNumber,
    signatureHex,
    wrapper,
    wrapperError,
    hash,
    ...noChainFacts(),
  }
  const parsed = parseEip155AccountId(accountId)
  if (typeof parsed === 'string') {
    return {
      ...base,
      status: 'malformed',
      reason: `IDENT-060: ${parsed}`,
      chainId: null,
      account: null,
      routeUrl: null,
      ethCall: null,
      curl: null,
    }
  }
  const account = parsed.address as Hex
  const ethCall = erc6492EthCall(
    { account: parsed.address, blockNumber, hash, signature: signatureHex },
    options.gas ?? DEFAULT_VERIFY_GAS,
  )
  const routeUrl = clients.url(parsed.chainId) ?? null
  const found = {
    ...base,
    chainId: parsed.chainId,
    account,
    routeUrl,
    ethCall,
    curl: routeUrl ? curlFor(routeUrl, ethCall) : null,
  }
  let client
  try {
    client = await clients.ready(parsed.chainId)
  } catch (e) {
    return { ...found, status: 'unreachable', reason: reasonOf(e) }
  }
  const facts = noChainFacts()
  const problems: string[] = []
  const [block, code, call] = await Promise.allSettled([
    client.getBlock({ blockNumber }),
    client.getCode({ address: account, blockNumber }),
    options.runCall === false
      ? Promise.resolve(null)
      : client.request({ method: 'eth_call', params: ethCall.params as unknown as [{ data: Hex; gas: Hex }, Hex] }),
  ])
  if (block.status === 'fulfilled') {
    facts.blockTimestamp = block.value.timestamp
    facts.blockTime = rfc3339(block.value.timestamp)
  } else problems.push(`block ${blockNumber}: ${reasonOf(block.reason)}`)
  if (code.status === 'fulfilled') {
    const c = code.value ?? '0x'
    facts.codeSize = (c.length - 2) / 2
    facts.hasCode = facts.codeSize > 0
  } else problems.push(`getCode: ${reasonOf(code.reason)}`)
  if (call.status === 'fulfilled') {
    if (call.value !== null) {
      facts.callResult = String(call.value)
      facts.verdict = isValidResult(call.value as Hex) ? 'valid' : 'invalid'
    }
  } else {
    const c = classifyChainError(call.reason)
    if (c.kind === 'reverted' || c.kind === 'exceeded') {
      facts.verdict = 'invalid'
      facts.callResult = `${c.kind}: ${c.reason}`
    } else problems.push(`eth_call: ${c.kind} error: ${c.reason}`)
  }
  if (problems.length) return { ...found, ...facts, status: 'unreachable', reason: problems.join('; ') }
  return { ...found, ...facts, status: 'ok', reason: '' }
}
