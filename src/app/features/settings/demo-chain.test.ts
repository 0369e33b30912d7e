import { describe, expect, it } from 'vitest'
import { parseDemoChain } from './demo-chain'

const w = (a: string) => ({
  address: `0x${a.repeat(40)}`,
  owner: `0x${'1'.repeat(40)}`,
  salt: `0x${'0'.repeat(64)}`,
  factory: `0x${'f'.repeat(40)}`,
  factoryData: '0xabcdef',
})
const good = {
  chainId: '31337',
  rpcUrl: 'http://127.0.0.1:8545',
  factory: `0x${'f'.repeat(40)}`,
  deployed: w('a'),
  counterfactual: w('b'),
  inboxId: 'c'.repeat(64),
  published: 2,
}

describe('parseDemoChain', () => {
  it('reads the JSON scripts/lib/demo-chain.ts prints', () => {
    expect(parseDemoChain(JSON.stringify(good))).toMatchObject({
      chainId: '31337',
      inboxId: 'c'.repeat(64),
      deployed: { address: `0x${'a'.repeat(40)}` },
    })
  })
  it.each([
    undefined,
    '',
    '{',
    'null',
    JSON.stringify({ ...good, chainId: '031337' }),
    JSON.stringify({ ...good, rpcUrl: 'ws://x' }),
    JSON.stringify({ ...good, deployed: { ...w('a'), address: '0x12' } }),
    JSON.stringify({ ...good, inboxId: 'zz' }),
  ])('is null for %j', (t) => expect(parseDemoChain(t)).toBeNull())
})
