import { describe, expect, it } from 'vitest'
import {
  defaultChainRoutes,
  parseRouteList,
  parseRouteSetting,
  readSavedRoutes,
  routeListProblems,
  routeMap,
  routeSpec,
  writeSavedRoutes,
} from './chain-routes'

const memory = () => {
  const m = new Map<string, string>()
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  }
}

describe('parseRouteSetting', () => {
  it('reads a decimal chain id (or eip155:<id>) and an http(s) URL, trimmed', () => {
    expect(parseRouteSetting(' 31337 ', ' http://127.0.0.1:8545 ')).toEqual({
      chainId: '31337',
      url: 'http://127.0.0.1:8545',
    })
    expect(parseRouteSetting('eip155:8453', 'https://rpc.example/v1?key=a=b')).toEqual({
      chainId: '8453',
      url: 'https://rpc.example/v1?key=a=b',
    })
  })
  it.each([
    ['', 'http://x', /chain id is empty/],
    ['1', '', /RPC URL for eip155:1 is empty/],
    ['031337', 'http://x', /"031337" is not a decimal number with no sign and no leading zero/],
    ['-1', 'http://x', /not a decimal number/],
    ['0x7a69', 'http://x', /not a decimal number/],
    ['1', 'ws://x', /^the RPC URL must be http or https, found ws:$/],
    ['1', 'not a url', /^"not a url" is not a URL$/],
    ['9007199254740993', 'http://x', /above 2\^53 - 1/],
  ])('refuses chain id %j with URL %j, saying why', (id, url, why) => {
    const r = parseRouteSetting(id, url)
    expect(r).toHaveProperty('problem')
    expect((r as { problem: string }).problem).toMatch(why)
  })
})

describe('routeListProblems', () => {
  it('names each bad route by position, and a second route for one chain', () => {
    expect(
      routeListProblems([
        { chainId: '1', url: 'http://a' },
        { chainId: '10', url: 'http://b' },
      ]),
    ).toEqual([])
    expect(
      routeListProblems([
        { chainId: '1', url: 'http://a' },
        { chainId: '01', url: 'http://b' },
        { chainId: '1', url: 'http://c' },
      ]),
    ).toEqual([
      'route 2: chain id "01" is not a decimal number with no sign and no leading zero',
      'route 3: a second route for chain eip155:1 (route 1 is one already)',
    ])
  })
})

describe('parseRouteList and defaultChainRoutes (VITE_CHAIN_ROUTES)', () => {
  it('reads specs separated by commas or spaces; refuses two routes for one chain', () => {
    expect(parseRouteList('eip155:31337=http://127.0.0.1:8545, eip155:1=https://a  eip155:10=https://b')).toEqual([
      { chainId: '31337', url: 'http://127.0.0.1:8545' },
      { chainId: '1', url: 'https://a' },
      { chainId: '10', url: 'https://b' },
    ])
    expect(() => parseRouteList('eip155:1=http://a,eip155:1=http://b')).toThrow(/two routes for chain eip155:1/)
  })
  it('is empty when unset or malformed (and says so), never throws', () => {
    expect(defaultChainRoutes(undefined)).toEqual([])
    expect(defaultChainRoutes('')).toEqual([])
    expect(defaultChainRoutes('eip155:31337=http://127.0.0.1:8545')).toEqual([
      { chainId: '31337', url: 'http://127.0.0.1:8545' },
    ])
    const warn = console.warn
    const seen: unknown[] = []
    console.warn = (m: unknown) => void seen.push(m)
    try {
      expect(defaultChainRoutes('cosmos:1=http://x')).toEqual([])
    } finally {
      console.warn = warn
    }
    expect(String(seen[0])).toMatch(/VITE_CHAIN_ROUTES is ignored: .*not eip155:<chain id>=<rpc url>/)
  })
})

describe('readSavedRoutes / writeSavedRoutes', () => {
  it('round-trips through storage; null (never saved) differs from an empty list; bad entries are dropped', () => {
    const s = memory()
    expect(readSavedRoutes(s)).toBeNull()
    writeSavedRoutes([], s)
    expect(readSavedRoutes(s)).toEqual([])
    writeSavedRoutes([{ chainId: '31337', url: 'http://127.0.0.1:8545' }], s)
    expect(readSavedRoutes(s)).toEqual([{ chainId: '31337', url: 'http://127.0.0.1:8545' }])
    s.setItem(
      'inbox-inspector.chain-routes',
      JSON.stringify([
        { chainId: '01', url: 'http://a' },
        { chainId: 5, url: 'http://b' },
        { chainId: '7', url: 'http://c' },
      ]),
    )
    expect(readSavedRoutes(s)).toEqual([{ chainId: '7', url: 'http://c' }])
    s.setItem('inbox-inspector.chain-routes', '{not json')
    expect(readSavedRoutes(s)).toBeNull()
    writeSavedRoutes(null, s)
    expect(s.m.size).toBe(0)
  })
})

describe('routeMap and routeSpec', () => {
  it('gives the chain code its bigint table, leaving out invalid or repeated chains', () => {
    const m = routeMap([
      { chainId: '31337', url: 'http://a' },
      { chainId: 'x', url: 'http://b' },
      { chainId: '31337', url: 'http://c' },
    ])
    expect([...m]).toEqual([[31337n, 'http://a']])
    expect(routeSpec({ chainId: '1', url: 'https://a' })).toBe('eip155:1=https://a')
  })
})
