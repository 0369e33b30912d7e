import { describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../../../core/trace'
import { hashQueryKey } from '../../model/query-key'
import { ageText, chainIdOf, evidenceKeys, evidenceRequestOf, fetchEvidence, routeFor } from './evidence-query'

const check = (over: Partial<SignatureCheck> = {}): SignatureCheck => ({
  actionIndex: 0,
  role: 'existing_recovery_identifier_signature',
  kind: 'erc_6492',
  verdict: 'unreachable',
  signer: { kind: 'ethereum', text: `0x${'ab'.repeat(20)}` },
  chainId: 31337n,
  replayKey: 'c0ffee',
  failRule: null,
  reason: 'no route for chain eip155:31337',
  evidence: { 'account id': `eip155:31337:0x${'ab'.repeat(20)}`, block: '12', 'EIP-191 digest': '11'.repeat(32) },
  ...over,
})

describe('evidenceRequestOf', () => {
  it('reads account id, block and digest from the check, and the signature bytes from its replay key (spec section 6)', () => {
    expect(evidenceRequestOf(check())).toEqual({
      accountId: `eip155:31337:0x${'ab'.repeat(20)}`,
      blockNumber: 12n,
      hash: `0x${'11'.repeat(32)}`,
      signature: '0xc0ffee',
    })
  })
  it('is null for other kinds and for a check whose account id failed its form check (IDENT-060: no digest)', () => {
    expect(evidenceRequestOf(check({ kind: 'erc_191' }))).toBeNull()
    expect(
      evidenceRequestOf(check({ evidence: { 'account id': 'eip155:01:0x', block: '1' }, replayKey: null })),
    ).toBeNull()
  })
})

describe('chainIdOf and routeFor', () => {
  it('IDENT-060: only a well-formed eip155 account id names a chain; the route is found by its decimal id', () => {
    expect(chainIdOf(`eip155:8453:0x${'ab'.repeat(20)}`)).toBe(8453n)
    expect(chainIdOf(`eip155:08453:0x${'ab'.repeat(20)}`)).toBeNull()
    expect(chainIdOf('cosmos:1:0xab')).toBeNull()
    expect(routeFor([{ chainId: '8453', url: 'http://a' }], `eip155:8453:0x${'ab'.repeat(20)}`)).toBe('http://a')
    expect(routeFor([{ chainId: '1', url: 'http://a' }], `eip155:8453:0x${'ab'.repeat(20)}`)).toBeNull()
  })
})

describe('evidenceKeys', () => {
  it('keys on the chain, block, account, hash, signature and route, hashable with bigints', () => {
    const req = evidenceRequestOf(check())!
    const a = hashQueryKey(evidenceKeys.one(req, 'http://a'))
    expect(a).toContain('{"$bigint":"12"}')
    expect(a).not.toBe(hashQueryKey(evidenceKeys.one(req, null)))
    expect(a).not.toBe(hashQueryKey(evidenceKeys.one({ ...req, blockNumber: 13n }, 'http://a')))
  })
})

describe('fetchEvidence', () => {
  it('IDENT-061: no route is unreachable with the reason and makes no request; the eth_call is still shown', async () => {
    const v = await fetchEvidence(evidenceRequestOf(check())!, null)
    expect(v.evidence.status).toBe('unreachable')
    expect(v.evidence.reason).toMatch(/no RPC route for chain eip155:31337/)
    expect(v.evidence.ethCall?.method).toBe('eth_call')
    expect(v.head).toBeNull()
    expect(v.ageSeconds).toBeNull()
  })
})

describe('ageText', () => {
  it.each([
    [0n, '0 s'],
    [59n, '59 s'],
    [60n, '1 min'],
    [185n, '3 min 5 s'],
    [7260n, '2 h 1 min'],
    [93600n, '1 d 2 h'],
    [-5n, '−5 s'],
  ])('%s s is %s', (s, text) => expect(ageText(s)).toBe(text))
})
