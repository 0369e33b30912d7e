/**
 * The chain evidence of one erc_6492 signature (src/chain/evidence.ts), fetched on
 * demand through TanStack Query: the evidence itself (chain, block and its time, route,
 * code at the block, the ERC-6492 wrapper taken apart, the exact eth_call and a curl
 * line, the verdict) and the chain's head, for the block's age. Keys come from a
 * factory and hold bigints, hashed by src/app/model/query-key.ts.
 *
 * The signature's parts are read from its SignatureCheck: account id and block from the
 * check's evidence, the EIP-191 digest of the signature text, and the signature bytes,
 * which are its replay key (spec section 6: an erc_6492 replay key is its bytes as given).
 */
import { useQuery } from '@tanstack/react-query'
import type { Hex } from 'viem'
import { ChainClients } from '../../../chain/client'
import { smartWalletEvidence, type SmartWalletEvidence } from '../../../chain/evidence'
import type { SignatureCheck } from '../../../core/trace'
import type { ChainRouteWire } from '../../../worker/protocol'

export interface EvidenceRequest {
  readonly accountId: string
  readonly blockNumber: bigint
  readonly hash: Hex
  readonly signature: Hex
}

/** The parts of an erc_6492 check the evidence needs, or null (another kind, or a check that names no block). */
export function evidenceRequestOf(check: SignatureCheck): EvidenceRequest | null {
  if (check.kind !== 'erc_6492') return null
  const accountId = check.evidence['account id']
  const block = check.evidence.block
  const digest = check.evidence['EIP-191 digest']
  if (accountId === undefined || block === undefined || !/^[0-9]+$/.test(block) || !digest || check.replayKey === null)
    return null
  return {
    accountId,
    blockNumber: BigInt(block),
    hash: `0x${digest.replace(/^0x/, '')}`,
    signature: `0x${check.replayKey.replace(/^0x/, '')}`,
  }
}

/** The eip155 chain id an account id names, when its form is right (IDENT-060), else null. */
export function chainIdOf(accountId: string): bigint | null {
  const m = /^eip155:(0|[1-9][0-9]*):0x[0-9a-fA-F]{40}$/.exec(accountId)
  return m ? BigInt(m[1]!) : null
}

/** The route URL for an account id's chain among the routes, or null. */
export function routeFor(routes: readonly ChainRouteWire[], accountId: string): string | null {
  const id = chainIdOf(accountId)
  if (id === null) return null
  return routes.find((r) => r.chainId === id.toString())?.url ?? null
}

export const evidenceKeys = {
  all: ['chain-evidence'] as const,
  one: (req: EvidenceRequest, routeUrl: string | null) =>
    [
      'chain-evidence',
      chainIdOf(req.accountId),
      req.blockNumber,
      req.accountId,
      req.hash,
      req.signature,
      routeUrl,
    ] as const,
}

interface HeadFacts {
  readonly number: bigint
  readonly timestamp: bigint
}

export interface EvidenceView {
  readonly evidence: SmartWalletEvidence
  /** The chain's head when the evidence was read; null when it could not be read. */
  readonly head: HeadFacts | null
  /** Seconds from the block to the head (head timestamp − block timestamp), when both are known. */
  readonly ageSeconds: bigint | null
}

/** Reads the evidence (never throws: an unreachable chain is a status with its reason). */
export async function fetchEvidence(
  req: EvidenceRequest,
  routeUrl: string | null,
  timeoutMs = 5000,
): Promise<EvidenceView> {
  const chainId = chainIdOf(req.accountId)
  const clients = new ChainClients(chainId !== null && routeUrl ? new Map([[chainId, routeUrl]]) : new Map(), {
    timeoutMs,
  })
  const evidence = await smartWalletEvidence(
    { signature: { accountId: req.accountId, blockNumber: req.blockNumber, signature: req.signature }, hash: req.hash },
    clients,
  )
  let head: HeadFacts | null = null
  if (evidence.status === 'ok' && chainId !== null) {
    try {
      const b = await (await clients.ready(chainId)).getBlock({ blockTag: 'latest' })
      if (b.number !== null) head = { number: b.number, timestamp: b.timestamp }
    } catch {
      /* the age stays unknown; the evidence itself was read */
    }
  }
  const ageSeconds = head && evidence.blockTimestamp !== null ? head.timestamp - evidence.blockTimestamp : null
  return { evidence, head, ageSeconds }
}

export function useEvidence(req: EvidenceRequest, routeUrl: string | null, enabled: boolean) {
  return useQuery({
    queryKey: evidenceKeys.one(req, routeUrl),
    queryFn: () => fetchEvidence(req, routeUrl),
    enabled,
    staleTime: 60_000,
  })
}

/** "42 s", "3 min 5 s", "2 h 1 min", "4 d 2 h": a duration in seconds, for the block's age. */
export function ageText(seconds: bigint): string {
  const s = seconds < 0n ? -seconds : seconds
  const sign = seconds < 0n ? '−' : ''
  if (s < 60n) return `${sign}${s} s`
  if (s < 3600n) return `${sign}${s / 60n} min${s % 60n ? ` ${s % 60n} s` : ''}`
  if (s < 86400n) return `${sign}${s / 3600n} h${(s % 3600n) / 60n ? ` ${(s % 3600n) / 60n} min` : ''}`
  return `${sign}${s / 86400n} d${(s % 86400n) / 3600n ? ` ${(s % 86400n) / 3600n} h` : ''}`
}
