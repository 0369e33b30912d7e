import { describe, expect, it } from 'vitest'
import {
  builtInProfiles,
  fetchAddressQuery,
  loadCustomProfiles,
  profileForAddress,
  profileProblem,
  readFetchAddress,
  saveCustomProfiles,
} from './profiles'

const INBOX = 'ab'.repeat(32)

function memoryStorage(): Storage {
  const m = new Map<string, string>()
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size
    },
  }
}

describe('network profiles', () => {
  it('the built-ins: the local node first, XMTP V3 dev and production over gRPC-web, an xmtpd node over Connect', () => {
    const p = builtInProfiles('http://127.0.0.1:9999')
    expect(p[0]).toMatchObject({ id: 'local', url: 'http://127.0.0.1:9999' })
    expect(p.find((x) => x.id === 'xmtp-dev')).toMatchObject({ api: 'identity', transport: 'grpc-web' })
    expect(p.find((x) => x.id === 'xmtp-production')).toMatchObject({ api: 'identity', transport: 'grpc-web' })
    expect(p.find((x) => x.id === 'xmtpd')).toMatchObject({ api: 'd14n', transport: 'connect' })
    for (const x of p) expect(profileProblem(x)).toBeNull()
  })

  it('custom profiles persist in storage; broken stored entries are dropped', () => {
    const s = memoryStorage()
    saveCustomProfiles(
      [{ id: 'c1', name: 'mine', url: 'https://node.example', api: 'd14n', transport: 'grpc-web', builtIn: false }],
      s,
    )
    expect(loadCustomProfiles(s)).toEqual([
      { id: 'c1', name: 'mine', url: 'https://node.example', api: 'd14n', transport: 'grpc-web', builtIn: false },
    ])
    s.setItem(
      'inbox-inspector.network-profiles',
      '[{"id":"x","name":"y","url":"ftp://z","api":"identity","transport":"connect"}, 5]',
    )
    expect(loadCustomProfiles(s)).toEqual([])
    s.setItem('inbox-inspector.network-profiles', 'not json')
    expect(loadCustomProfiles(s)).toEqual([])
  })

  it('a browser profile cannot be gRPC, nor d14n over the gateway', () => {
    expect(profileProblem({ url: 'https://a', api: 'identity', transport: 'grpc' })).toMatch(/cannot speak gRPC/)
    expect(profileProblem({ url: 'https://a', api: 'd14n', transport: 'gateway' })).toMatch(/no HTTP gateway/)
    expect(profileProblem({ url: 'nope', api: 'identity', transport: 'connect' })).toMatch(/not a URL/)
  })

  it('a fetch is addressable by URL and the address round-trips', () => {
    expect(readFetchAddress('')).toBeNull()
    expect(readFetchAddress('?node=http://127.0.0.1:5555')).toBeNull()
    const a = readFetchAddress(`?node=http://127.0.0.1:5555&api=d14n&inbox=${INBOX}`)
    expect(a).toEqual({
      url: 'http://127.0.0.1:5555',
      api: 'd14n',
      transport: 'connect',
      target: { kind: 'inbox', value: INBOX },
    })
    expect(readFetchAddress(fetchAddressQuery(a as never))).toEqual(a)
    expect(readFetchAddress('?node=http://x&handle=alice')).toMatchObject({ api: 'identity', transport: 'gateway' })
    expect(readFetchAddress('?node=http://x&handle=a&inbox=b')).toEqual({ error: expect.stringMatching(/give one/) })
    expect(readFetchAddress('?node=http://x&api=v9&inbox=b')).toEqual({ error: expect.stringMatching(/api=v9/) })
    expect(readFetchAddress('?node=http://x&address=0x12')).toEqual({
      error: expect.stringMatching(/Ethereum address/),
    })
  })
})

describe('profileForAddress', () => {
  const profiles = builtInProfiles('http://127.0.0.1:8787')
  const target = { kind: 'handle', value: 'alice' } as const

  it("picks the profile with the page address's node, API and transport (a trailing slash aside)", () => {
    const p = profileForAddress(profiles, { url: 'http://127.0.0.1:8787/', api: 'd14n', transport: 'grpc-web', target })
    expect(p.id).toBe('local-d14n')
    expect(profiles).toContain(p)
  })

  it('names an endpoint no profile has as its own profile, never as another one', () => {
    const p = profileForAddress(profiles, { url: 'http://127.0.0.1:8787', api: 'd14n', transport: 'connect', target })
    expect(profiles).not.toContain(p)
    expect(p).toMatchObject({ id: 'from-address', url: 'http://127.0.0.1:8787', api: 'd14n', transport: 'connect' })
  })
})
