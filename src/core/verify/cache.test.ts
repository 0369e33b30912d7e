import { describe, expect, it } from 'vitest'
import type { WireSignature } from '../types'
import { fixtureLogs } from '../../../test/verify/kit'
import {
  LruVerdictCache,
  readVerdictEntry,
  textDigest,
  verdictKey,
  type VerdictCache,
  type VerdictEntry,
} from './cache'
import { rememberVerdicts, verifyFromCache, verifyUpdate } from './update'
import type { SmartWalletVerifier } from './port'

const h = textDigest('some text')

const sigs: WireSignature[] = [
  { kind: 'erc_191', bytes: new Uint8Array([1, 2]) },
  { kind: 'installation_key', bytes: new Uint8Array([1, 2]), publicKey: new Uint8Array([3]) },
  {
    kind: 'passkey',
    publicKey: new Uint8Array([3]),
    signature: new Uint8Array([1, 2]),
    authenticatorData: new Uint8Array([4]),
    clientDataJson: new Uint8Array([5]),
  },
  {
    kind: 'passkey',
    publicKey: new Uint8Array([3]),
    signature: new Uint8Array([1, 2]),
    authenticatorData: new Uint8Array([4]),
    clientDataJson: new Uint8Array([6]),
  },
]

describe('verdictKey', () => {
  it('names kind, key, every signed byte and the text digest: different inputs, different keys', () => {
    const keys = sigs.map((s) => verdictKey(s, h))
    expect(new Set(keys).size).toBe(keys.length)
    expect(verdictKey(sigs[0]!, textDigest('other text'))).not.toBe(keys[0])
    expect(keys[1]).toBe(`v1|installation_key|03|0102|${h}`)
  })
  it('leaves erc_6492 out (src/chain keeps its own verdicts; IDENT-061)', () => {
    expect(
      verdictKey(
        { kind: 'erc_6492', accountId: `eip155:1:0x${'1'.repeat(40)}`, blockNumber: 1n, signature: new Uint8Array(1) },
        h,
      ),
    ).toBeNull()
  })
})

const valid: VerdictEntry = {
  key: 'k',
  verdict: {
    verdict: 'valid',
    signer: { kind: 'ethereum', text: `0x${'a'.repeat(40)}` },
    chainId: null,
    replayKey: 'ab',
    failRule: null,
    reason: '',
    evidence: { x: 'y' },
  },
}

describe('readVerdictEntry', () => {
  it('returns a well-formed entry stored under the same key', () => {
    expect(readVerdictEntry(structuredClone(valid), 'k')).toEqual(valid.verdict)
  })
  it('ignores a miss, an entry for another key and damaged entries', () => {
    const bad: unknown[] = [
      undefined,
      null,
      'k',
      { ...valid, key: 'other' },
      { key: 'k' },
      { key: 'k', verdict: { ...valid.verdict, verdict: 'unreachable' } },
      { key: 'k', verdict: { ...valid.verdict, verdict: 'unchecked' } },
      { key: 'k', verdict: { ...valid.verdict, signer: { kind: 'alien', text: 'x' } } },
      { key: 'k', verdict: { ...valid.verdict, chainId: 1 } },
      { key: 'k', verdict: { ...valid.verdict, replayKey: null } },
      { key: 'k', verdict: { ...valid.verdict, verdict: 'invalid' } },
      { key: 'k', verdict: { ...valid.verdict, failRule: 'IDENT-999' } },
      { key: 'k', verdict: { ...valid.verdict, evidence: { x: 1 } } },
      { key: 'k', verdict: { ...valid.verdict, reason: 5 } },
    ]
    for (const b of bad) expect(readVerdictEntry(b, 'k'), JSON.stringify(b)).toBeNull()
  })
})

describe('LruVerdictCache', () => {
  it('keeps at most capacity entries, evicting the least recently used', () => {
    const c = new LruVerdictCache(2)
    c.put({ ...valid, key: 'a' })
    c.put({ ...valid, key: 'b' })
    c.get('a')
    c.put({ ...valid, key: 'c' })
    expect(c.size).toBe(2)
    expect(c.get('b')).toBeUndefined()
    expect(c.get('a')?.key).toBe('a')
    expect(() => new LruVerdictCache(0)).toThrow('capacity 0')
  })
})

/** A store that answers whatever it was told, and records what was written. */
class RawStore implements VerdictCache {
  readonly data = new Map<string, unknown>()
  get(key: string): unknown {
    return this.data.get(key)
  }
  put(e: VerdictEntry): void {
    this.data.set(e.key, e)
  }
}

const unreachableChains: SmartWalletVerifier = {
  verify: async () => {
    throw new Error('no route (test)')
  },
}

describe('verifyUpdate with a verdict cache', () => {
  const updates = fixtureLogs()
    .filter((f) => f.file.endsWith('.json') && !f.file.includes('gateway'))
    .flatMap((f) => f.log.entries.map((e) => ({ f, u: e.update })))
    .flatMap((x) => ('error' in x.u ? [] : [{ f: x.f, u: x.u }]))

  it('a hit gives the same VerifiedUpdate as a miss, for every fixture update (valid and invalid verdicts)', async () => {
    const cache = new LruVerdictCache()
    for (const { f, u } of updates) {
      const plain = await verifyUpdate(u, f.ctx)
      const miss = await verifyUpdate(u, { ...f.ctx, verdicts: cache })
      const hit = await verifyUpdate(u, { ...f.ctx, verdicts: cache })
      expect(miss).toEqual(plain)
      expect(hit).toEqual(plain)
    }
    expect(cache.hits).toBeGreaterThan(100)
  })

  it('verifyFromCache answers only when every signature is a hit; rememberVerdicts fills it', async () => {
    const { f, u } = updates.find((x) => x.f.name === 'valid-full-life')!
    const cache = new LruVerdictCache()
    expect(await verifyFromCache(u, cache)).toBeNull()
    const v = await verifyUpdate(u, f.ctx)
    rememberVerdicts(v, cache)
    expect(await verifyFromCache(u, cache)).toEqual(v)
  })

  it('a corrupted entry is ignored, not trusted: the signature is verified again and the entry rewritten', async () => {
    const { u } = updates.find((x) => x.f.name === 'valid-full-life')!
    const store = new RawStore()
    const good = await verifyUpdate(u, { verdicts: store })
    const keys = [...store.data.keys()]
    expect(keys.length).toBeGreaterThan(0)
    // Flip every stored verdict to a plausible lie for another key, and to garbage.
    for (const [i, k] of keys.entries()) {
      const e = store.data.get(k) as VerdictEntry
      store.data.set(
        k,
        i % 2 ? { ...e, key: `${k}x` } : { key: k, verdict: { ...e.verdict, verdict: 'valid', replayKey: null } },
      )
    }
    expect(await verifyUpdate(u, { verdicts: store })).toEqual(good)
    expect(await verifyFromCache(u, store)).toEqual(good)
  })

  it('a store that throws is a miss, never an error', async () => {
    const { u } = updates[0]!
    const broken: VerdictCache = {
      get: () => {
        throw new Error('disk on fire')
      },
      put: () => {
        throw new Error('disk on fire')
      },
    }
    expect(await verifyUpdate(u, { verdicts: broken })).toEqual(await verifyUpdate(u))
  })

  it('never keeps an unreachable verdict (IDENT-061) nor any erc_6492 verdict', async () => {
    const withSw = updates.filter((x) =>
      x.u.actions.some((a) =>
        JSON.stringify(a, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)).includes('erc_6492'),
      ),
    )
    expect(withSw.length).toBeGreaterThan(0)
    const store = new RawStore()
    let unreachable = 0
    for (const { u } of withSw) {
      const v = await verifyUpdate(u, { smartWallets: unreachableChains, verdicts: store })
      unreachable += v.checks.filter((c) => c.verdict === 'unreachable').length
    }
    expect(unreachable).toBeGreaterThan(0)
    for (const e of store.data.values()) {
      expect((e as VerdictEntry).verdict.verdict).not.toBe('unreachable')
      expect((e as VerdictEntry).key.startsWith('v1|erc_6492')).toBe(false)
    }
  })
})
