/**
 * A node's claim policy (spec section 10: the checks only the backend applies when it
 * admits a claim, IDENT-084): reserved name parts and a minimum name length. The local
 * node applies it (src/devnode/admission.ts) and publishes it at CLAIM_POLICY_PATH, so an
 * app can say before any signer is asked that the node would refuse a claim. XMTP's nodes
 * publish no such document: a node that answers 404 has no published policy (null).
 * The answer is a claim like any other (IDENT-071): it is read strictly and only ever
 * used to warn, never to judge a log.
 */
export interface ClaimPolicy {
  /** The shortest name part (the handle before `#`) admitted; CONF owns the deployment's value. */
  readonly minHandleLength: number
  /** Name parts no inbox may claim. */
  readonly reserved: readonly string[]
  /** Least time between two claims of one inbox, in nanoseconds; 0n turns the check off. */
  readonly claimIntervalNs: bigint
}

export const CLAIM_POLICY_PATH = '/identity/v1/claim-policy'

/** The name part of a handle: before `#`. */
const namePart = (handle: string): string => handle.split('#')[0]!

/** The store-free policy checks of a claim (reserved, too short): the refusal's code and message, or null. */
export function claimPolicyProblem(
  handle: string,
  policy: ClaimPolicy,
): { readonly code: 'handle_reserved' | 'handle_too_short'; readonly message: string } | null {
  const name = namePart(handle)
  if (policy.reserved.includes(name))
    return { code: 'handle_reserved', message: `the name ${JSON.stringify(name)} is reserved on this node` }
  if (name.length < policy.minHandleLength)
    return {
      code: 'handle_too_short',
      message: `the name part ${JSON.stringify(name)} has ${name.length} character(s); this node admits names of at least ${policy.minHandleLength}`,
    }
  return null
}

/** The policy as the node serves it (JSON; the interval as a decimal string, a uint64). */
export function claimPolicyJson(p: ClaimPolicy): string {
  return JSON.stringify({
    min_handle_length: p.minHandleLength,
    reserved: p.reserved,
    claim_interval_ns: p.claimIntervalNs.toString(),
  })
}

/** Reads a served policy strictly; throws an Error naming what is wrong. */
export function parseClaimPolicy(text: string): ClaimPolicy {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    throw new Error('the claim policy is not JSON')
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the claim policy is not a JSON object')
  const o = v as Record<string, unknown>
  const min = o.min_handle_length
  if (typeof min !== 'number' || !Number.isInteger(min) || min < 0 || min > 1000)
    throw new Error('the claim policy has no whole min_handle_length from 0 to 1000')
  const reserved = o.reserved
  if (!Array.isArray(reserved) || reserved.length > 10_000 || !reserved.every((r) => typeof r === 'string'))
    throw new Error('the claim policy has no list of reserved names')
  const interval = o.claim_interval_ns
  if (typeof interval !== 'string' || !/^[0-9]{1,20}$/.test(interval))
    throw new Error('the claim policy has no decimal claim_interval_ns')
  return { minHandleLength: min, reserved: reserved as string[], claimIntervalNs: BigInt(interval) }
}

/** The node's published policy, null when it publishes none (404); throws an Error naming the node otherwise. */
export async function fetchClaimPolicy(
  baseUrl: string,
  doFetch: (url: string, init?: RequestInit) => Promise<Response> = (u, i) => fetch(u, i),
): Promise<ClaimPolicy | null> {
  const url = baseUrl.replace(/\/+$/, '') + CLAIM_POLICY_PATH
  let res: Response
  try {
    res = await doFetch(url, { method: 'GET' })
  } catch (e) {
    throw new Error(`the node at ${url} could not be reached: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (res.status === 404) return null
  if (!res.ok) throw new Error(`the node at ${url} answered HTTP ${res.status}`)
  try {
    return parseClaimPolicy(await res.text())
  } catch (e) {
    throw new Error(`the node at ${url}: ${e instanceof Error ? e.message : String(e)}`)
  }
}
