/**
 * The node's published claim policy (issue 15: a claim the node's policy would refuse is
 * found before any signer is asked): GET /identity/v1/claim-policy answers the policy the
 * node applies, read back strictly by the client; a node without it (404) publishes none.
 */
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimPolicyProblem, fetchClaimPolicy, parseClaimPolicy } from '../../src/network/claim-policy'
import { startNode, stopAll, tempDir, type RunningNode } from './harness'

const tmp = tempDir()
let node: RunningNode

beforeAll(async () => {
  node = await startNode({ db: tmp.path('policy.db'), args: ['--min-handle-length', '4', '--reserved', 'nick,bank'] })
})
afterAll(async () => {
  await stopAll()
  tmp.remove()
})

describe('the claim policy of the local node', () => {
  it('is served as the node applies it, with CORS open, and the client reads it', async () => {
    const res = await fetch(`${node.url}/identity/v1/claim-policy`)
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const policy = await fetchClaimPolicy(node.url)
    expect(policy).toEqual({ minHandleLength: 4, reserved: ['nick', 'bank'], claimIntervalNs: 0n })
    expect(claimPolicyProblem('nick#1234', policy!)?.code).toBe('handle_reserved')
    expect(claimPolicyProblem('abc', policy!)?.code).toBe('handle_too_short')
    expect(claimPolicyProblem('abcd', policy!)).toBeNull()
  })

  it('refuses a POST with 405 naming GET', async () => {
    const a = await node.post('/identity/v1/claim-policy', '{}', 'application/json')
    expect(a.status).toBe(405)
    expect(a.headers.get('allow')).toBe('GET, HEAD')
    expect(a.json().code).toBe('method_not_allowed')
  })
})

describe('reading a claim policy from a node that lies or has none', () => {
  it('a node that answers 404 publishes no policy: null, not an error', async () => {
    const s = createServer((_, res) => res.writeHead(404).end())
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
    const port = (s.address() as { port: number }).port
    try {
      expect(await fetchClaimPolicy(`http://127.0.0.1:${port}`)).toBeNull()
    } finally {
      s.close()
    }
  })

  it('every malformed answer names what is wrong', () => {
    expect(() => parseClaimPolicy('<html>')).toThrow('the claim policy is not JSON')
    expect(() => parseClaimPolicy('[]')).toThrow('not a JSON object')
    expect(() => parseClaimPolicy('{"min_handle_length":-1,"reserved":[],"claim_interval_ns":"0"}')).toThrow(
      'min_handle_length',
    )
    expect(() => parseClaimPolicy('{"min_handle_length":3,"reserved":[1],"claim_interval_ns":"0"}')).toThrow(
      'reserved names',
    )
    expect(() => parseClaimPolicy('{"min_handle_length":3,"reserved":[],"claim_interval_ns":5}')).toThrow(
      'claim_interval_ns',
    )
  })

  it('an unreachable node is named', async () => {
    await expect(fetchClaimPolicy('http://127.0.0.1:9')).rejects.toThrow(
      'the node at http://127.0.0.1:9/identity/v1/claim-policy could not be reached',
    )
  })
})
