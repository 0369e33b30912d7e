/**
 * IDENT-062, fresh block at admission: an erc_6492 signature of an update not yet
 * stored names a block that is at most the chain's head and whose timestamp is at
 * most 1800 seconds before the head's (exactly 1800 s is fresh). Checked once, by the
 * local node's admission and the composer, never when a stored log is replayed.
 *
 * "Cannot tell" is not "stale": when the head or the block cannot be read the check
 * throws ChainUnreachableError (IDENT-061: the update is not admitted now and may be
 * tried again). The head is the route's node's own: a lagging node can put an honest
 * block above it; the result's `code` ('above_head') lets a caller say "retry".
 */
import type { PublicClient } from 'viem'
import { ChainUnreachableError } from '../core/errors'
import type { SignatureRole, UnverifiedUpdate } from '../core/types'
import { parseEip155AccountId } from '../core/verify/signature'
import { signaturesOf } from '../core/verify/update'
import { ChainClients, classifyChainError, type ChainClientOptions } from './client'
import type { ChainRoute } from './routes'

export const MAX_BLOCK_AGE_SECONDS = 1800

export interface FreshnessOptions {
  /** Default 1800 (IDENT-062). */
  readonly maxAgeSeconds?: number | bigint
}

interface HeadFacts {
  readonly blockNumber: bigint
  readonly headNumber: bigint
  readonly headTimestamp: bigint
}

export type FreshBlock =
  | (HeadFacts & { readonly fresh: true; readonly blockTimestamp: bigint; readonly ageSeconds: bigint })
  | (HeadFacts & {
      readonly fresh: false
      readonly code: 'above_head' | 'too_old'
      readonly reason: string
      readonly blockTimestamp?: bigint
      readonly ageSeconds?: bigint
    })

function isRoute(x: PublicClient | ChainRoute): x is ChainRoute {
  return typeof (x as Partial<ChainRoute>).url === 'string' && typeof (x as Partial<ChainRoute>).chainId === 'bigint'
}

async function readOrThrow<T>(chainId: bigint, what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f()
  } catch (e) {
    const c = classifyChainError(e)
    throw new ChainUnreachableError(chainId, `could not read ${what} (${c.kind} error): ${c.reason}`)
  }
}

/**
 * IDENT-062 against one client or route. A route (chain id + URL) gets a client of
 * its own whose node's chain id is checked first; a client is used as given.
 */
export async function checkFreshBlock(
  target: PublicClient | ChainRoute,
  blockNumber: bigint,
  options: FreshnessOptions & ChainClientOptions = {},
): Promise<FreshBlock> {
  let client: PublicClient
  let chainId: bigint
  if (isRoute(target)) {
    chainId = target.chainId
    client = await new ChainClients(new Map([[target.chainId, target.url]]), options).ready(target.chainId)
  } else {
    client = target
    chainId = BigInt(target.chain?.id ?? -1)
  }
  return freshAgainst(client, chainId, blockNumber, options)
}

async function freshAgainst(
  client: PublicClient,
  chainId: bigint,
  blockNumber: bigint,
  options: FreshnessOptions,
): Promise<FreshBlock> {
  const maxAge = BigInt(options.maxAgeSeconds ?? MAX_BLOCK_AGE_SECONDS)
  const head = await readOrThrow(chainId, 'the head block', () => client.getBlock({ blockTag: 'latest' }))
  if (head.number === null) throw new ChainUnreachableError(chainId, 'the head block has no number')
  const facts: HeadFacts = { blockNumber, headNumber: head.number, headTimestamp: head.timestamp }
  // IDENT-062: a block above the head is not fresh.
  if (blockNumber > head.number) {
    return {
      ...facts,
      fresh: false,
      code: 'above_head',
      reason: `block ${blockNumber} is above the head of chain eip155:${chainId} (block ${head.number})`,
    }
  }
  const block =
    blockNumber === head.number
      ? head
      : await readOrThrow(chainId, `block ${blockNumber}`, () => client.getBlock({ blockNumber }))
  const ageSeconds = head.timestamp - block.timestamp
  // IDENT-062: more than 1800 seconds before the head's timestamp is not fresh; exactly 1800 is.
  if (ageSeconds > maxAge) {
    return {
      ...facts,
      fresh: false,
      code: 'too_old',
      blockTimestamp: block.timestamp,
      ageSeconds,
      reason: `block ${blockNumber} of chain eip155:${chainId} is ${ageSeconds} s older than the head (block ${head.number}); at most ${maxAge} s is fresh`,
    }
  }
  return { ...facts, fresh: true, blockTimestamp: block.timestamp, ageSeconds }
}

/** IDENT-062 over the same routes as ChainVerifier: for the local node's admission and the composer. */
export class ChainFreshness {
  readonly clients: ChainClients
  constructor(
    routes: ReadonlyMap<bigint, string> | ChainClients,
    private readonly options: FreshnessOptions & ChainClientOptions = {},
  ) {
    this.clients = routes instanceof ChainClients ? routes : new ChainClients(routes, options)
  }

  /**
   * Throws ChainUnreachableError: no route, an unreachable node, another chain id, an
   * unreadable block. Takes `(chainId, blockNumber)` or `{ chainId, blockNumber }` (the
   * local node's FreshnessCheck port).
   */
  check(request: { readonly chainId: bigint; readonly blockNumber: bigint }): Promise<FreshBlock>
  check(chainId: bigint, blockNumber: bigint): Promise<FreshBlock>
  async check(a: bigint | { readonly chainId: bigint; readonly blockNumber: bigint }, b?: bigint): Promise<FreshBlock> {
    const { chainId, blockNumber } = typeof a === 'bigint' ? { chainId: a, blockNumber: b! } : a
    if (typeof blockNumber !== 'bigint') throw new TypeError('ChainFreshness.check: blockNumber must be a bigint')
    const client = await this.clients.ready(chainId)
    return freshAgainst(client, chainId, blockNumber, this.options)
  }
}

export type UpdateFreshness =
  | { readonly fresh: true; readonly checked: number }
  | {
      readonly fresh: false
      readonly actionIndex: number
      readonly role: SignatureRole
      readonly code: 'above_head' | 'too_old'
      readonly reason: string
    }

/**
 * IDENT-062 for every erc_6492 signature of an update, in action then role order; the
 * first stale one is reported. A malformed account_id is skipped (IDENT-060 rejects it
 * before any chain access). Throws ChainUnreachableError as ChainFreshness.check does.
 */
export async function checkUpdateFreshness(
  update: Pick<UnverifiedUpdate, 'actions'>,
  freshness: { check(chainId: bigint, blockNumber: bigint): Promise<FreshBlock> },
): Promise<UpdateFreshness> {
  let checked = 0
  for (const [actionIndex, action] of update.actions.entries()) {
    for (const [role, sig] of signaturesOf(action)) {
      if (sig.kind !== 'erc_6492') continue
      const account = parseEip155AccountId(sig.accountId)
      if (typeof account === 'string') continue
      const r = await freshness.check(account.chainId, sig.blockNumber)
      checked++
      if (!r.fresh)
        return { fresh: false, actionIndex, role, code: r.code, reason: `${role.replaceAll('_', ' ')}: ${r.reason}` }
    }
  }
  return { fresh: true, checked }
}
