import { describe, expect, it } from 'vitest'
import { ChainRouteError, parseChainRoute, routeTable } from './routes'

describe('parseChainRoute', () => {
  it('reads eip155:<decimal id>=<http(s) url>', () => {
    expect(parseChainRoute('eip155:31337=http://127.0.0.1:8545')).toEqual({
      chainId: 31337n,
      url: 'http://127.0.0.1:8545',
    })
    expect(parseChainRoute('eip155:1=https://rpc.example/v1?key=a=b')).toEqual({
      chainId: 1n,
      url: 'https://rpc.example/v1?key=a=b',
    })
  })
  it.each([
    'eip155:031337=http://x',
    'eip155:-1=http://x',
    'cosmos:1=http://x',
    'eip155:1',
    'eip155:1=ws://x',
    'eip155:1=not a url',
  ])('refuses %s', (s) => {
    expect(() => parseChainRoute(s)).toThrow(ChainRouteError)
  })
})

describe('routeTable', () => {
  it('refuses two routes for one chain', () => {
    expect(routeTable([parseChainRoute('eip155:1=http://a'), parseChainRoute('eip155:10=http://b')]).get(10n)).toBe(
      'http://b',
    )
    expect(() => routeTable([parseChainRoute('eip155:1=http://a'), parseChainRoute('eip155:1=http://b')])).toThrow(
      /two routes for chain eip155:1/,
    )
  })
})
