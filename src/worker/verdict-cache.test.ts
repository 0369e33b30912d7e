import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import { fixtureLogs } from '../../test/verify/kit'
import type { UnverifiedUpdate } from '../core/types'
import type { VerdictEntry } from '../core/verify/cache'
import { verifyFromCache, verifyUpdate } from '../core/verify/update'
import type { IdbFactoryLike } from '../storage/idb'
import { IdbVerdictCache, prefetchLog, verdictKeysOf } from './verdict-cache'

const factory = () => new IDBFactory() as unknown as IdbFactoryLike

const updates = fixtureLogs()
  .filter((f) => f.name === 'valid-full-life' || f.name.startsWith('IDENT-030') || f.name.startsWith('IDENT-050'))
  .filter((f) => f.file.endsWith('.json') && !f.file.includes('gateway'))
  .flatMap((f) => f.log.entries.map((e) => e.update))
  .filter((u): u is UnverifiedUpdate => !('error' in u))

describe('IdbVerdictCache', () => {
  it('answers null where IndexedDB is missing', async () => {
    vi.stubGlobal('indexedDB', undefined)
    try {
      expect(await IdbVerdictCache.open('x')).toBeNull()
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('keeps verdicts across a reopen: a hit gives the same VerifiedUpdate as a miss', async () => {
    const idb = factory()
    const a = (await IdbVerdictCache.open('verdicts', idb))!
    const plain = await Promise.all(updates.map((u) => verifyUpdate(u)))
    const cold = await Promise.all(updates.map((u) => verifyUpdate(u, { verdicts: a })))
    expect(cold).toEqual(plain)
    await a.flush()
    a.close()
    const b = (await IdbVerdictCache.open('verdicts', idb))!
    const warm = await Promise.all(updates.map((u) => verifyFromCache(u, b)))
    expect(warm).toEqual(plain)
    expect(b.hits).toBeGreaterThan(updates.length)
    expect(b.misses).toBe(0)
    await b.clear()
    expect(await verifyFromCache(updates[0]!, b)).toBeNull()
    b.close()
  })

  it('writeSome writes the oldest verdicts put, at most the number asked, each in one write', async () => {
    const idb = factory()
    const a = (await IdbVerdictCache.open('verdicts', idb))!
    const entry = (i: number) => ({ key: `k${i}`, verdict: { verdict: 'valid' } }) as unknown as VerdictEntry
    for (let i = 0; i < 5; i++) a.put(entry(i))
    expect(a.unwritten).toBe(5)
    await a.writeSome(2)
    expect(a.unwritten).toBe(3)
    a.close()
    const b = (await IdbVerdictCache.open('verdicts', idb))!
    b.memory = false
    expect(await b.get('k0')).toEqual(entry(0))
    expect(await b.get('k1')).toEqual(entry(1))
    expect(await b.get('k2')).toBeUndefined()
    b.close()
  })

  it('a corrupted entry is ignored: the verdict is computed again, the same', async () => {
    const idb = factory()
    const c = (await IdbVerdictCache.open('verdicts', idb))!
    const u = updates[0]!
    const good = await verifyUpdate(u, { verdicts: c })
    await c.flush()
    // Overwrite every entry with garbage of the right key, then with another key's entry.
    const keys: string[] = []
    const spy = { get: (k: string) => (keys.push(k), c.get(k)), put: () => undefined }
    await verifyFromCache(u, spy)
    expect(keys.length).toBeGreaterThan(0)
    for (const k of keys) await c.putRaw(k, { key: k, verdict: { verdict: 'valid', signer: 'me', replayKey: 1 } })
    expect(await verifyFromCache(u, c)).toBeNull()
    expect(await verifyUpdate(u, { verdicts: c })).toEqual(good)
    for (const k of keys) await c.putRaw(k, { key: `${k}-other`, verdict: good.checks[0] })
    expect(await verifyFromCache(u, c)).toBeNull()
    c.close()
  })

  it('prefetchLog reads a seen log ahead: lookups answer from it with the same verdicts; an unseen log costs only its head', async () => {
    const idb = factory()
    const a = (await IdbVerdictCache.open('verdicts', idb))!
    const plain = await Promise.all(updates.map((u) => verifyUpdate(u)))
    // Unseen: only the head's keys are read, all misses.
    expect((await prefetchLog(a, updates, 2)).seen).toBe(false)
    expect(a.misses).toBe(new Set(updates.slice(0, 2).flatMap(verdictKeysOf)).size)
    expect(a.hits).toBe(0)
    a.dropPrefetched()
    await Promise.all(updates.map((u) => verifyUpdate(u, { verdicts: a })))
    await a.flush()
    a.close()
    const b = (await IdbVerdictCache.open('verdicts', idb))!
    const keys = updates.flatMap(verdictKeysOf)
    const pre = await prefetchLog(b, updates, 2)
    expect(pre.seen).toBe(true)
    await pre.rest
    expect(b.hits).toBe(new Set(keys).size)
    expect(b.misses).toBe(0)
    // Every lookup now answers from the prefetched reads (a key asked twice: from the
    // in-memory front those reads filled): no further read of the store.
    const reads = b.hits + b.misses
    const warm = await Promise.all(updates.map((u) => verifyFromCache(u, b)))
    expect(warm).toEqual(plain)
    expect(b.hits + b.misses - reads).toBe(0)
    b.close()
  })

  it('the in-memory front answers what this instance read or wrote, with the same verdicts; memory = false reads the store', async () => {
    const c = (await IdbVerdictCache.open('verdicts', factory()))!
    const plain = await Promise.all(updates.map((u) => verifyUpdate(u)))
    await Promise.all(updates.map((u) => verifyUpdate(u, { verdicts: c })))
    await c.flush()
    const reads = c.hits + c.misses
    expect(await Promise.all(updates.map((u) => verifyFromCache(u, c)))).toEqual(plain)
    expect(c.hits + c.misses).toBe(reads)
    expect(c.memoryHits).toBe(updates.flatMap(verdictKeysOf).length)
    c.memory = false
    expect(await Promise.all(updates.map((u) => verifyFromCache(u, c)))).toEqual(plain)
    expect(c.hits).toBe(updates.flatMap(verdictKeysOf).length)
    // Emptied: the front goes with the store.
    c.memory = true
    await c.clear()
    expect(await verifyFromCache(updates[0]!, c)).toBeNull()
    c.close()
  })

  /** A store with the fixture updates' verdicts and `fillers` more entries (copies of one under other keys). */
  async function storeWith(idb: IdbFactoryLike, fillers: number) {
    const a = (await IdbVerdictCache.open('verdicts', idb))!
    await Promise.all(updates.map((u) => verifyUpdate(u, { verdicts: a })))
    const keys = [...new Set(updates.flatMap(verdictKeysOf))]
    const one = (await a.get(keys[0]!)) as { verdict: VerdictEntry['verdict'] }
    const filler = Array.from({ length: fillers }, (_, i) => `filler-${i}`)
    for (const key of filler) a.put({ key, verdict: one.verdict })
    await a.flush()
    // A damaged entry: stored under one key, naming another.
    await a.putRaw('filler-0', { key: 'filler-1', verdict: one.verdict })
    a.close()
    return { keys, filler }
  }

  /** The answers of a get per key, from an instance that reads the store only. */
  async function perKey(idb: IdbFactoryLike, asked: readonly string[]): Promise<unknown[]> {
    const ref = (await IdbVerdictCache.open('verdicts', idb))!
    ref.memory = false
    const want = await Promise.all(asked.map((k) => ref.get(k)))
    ref.close()
    return want
  }

  it('a large prefetch reads the store in two bulk requests, with the answers of a get per key', async () => {
    const idb = factory()
    const { keys, filler } = await storeWith(idb, 600)
    const plain = await Promise.all(updates.map((u) => verifyUpdate(u)))
    const asked = [...keys, ...filler, 'missing-1', 'missing-2']
    const want = await perKey(idb, asked)
    const b = (await IdbVerdictCache.open('verdicts', idb))!
    const gets = vi.spyOn(IDBObjectStore.prototype, 'get')
    try {
      expect(await b.prefetch(asked)).toBe(keys.length + filler.length)
      expect(gets, 'no get per key').not.toHaveBeenCalled()
      expect(b.hits).toBe(keys.length + filler.length)
      expect(b.misses).toBe(2)
      expect(await Promise.all(asked.map((k) => b.get(k)))).toEqual(want)
      expect(await Promise.all(updates.map((u) => verifyFromCache(u, b)))).toEqual(plain)
      expect(gets, 'every answer came from the bulk read').not.toHaveBeenCalled()
    } finally {
      gets.mockRestore()
      b.close()
    }
  })

  it('a store far larger than the prefetch is read a key at a time, with the same answers', async () => {
    const idb = factory()
    const { keys, filler } = await storeWith(idb, 2600)
    const asked = [...keys, ...filler.slice(0, 600), 'missing-1']
    const want = await perKey(idb, asked)
    const b = (await IdbVerdictCache.open('verdicts', idb))!
    const all = vi.spyOn(IDBObjectStore.prototype, 'getAll')
    try {
      expect(await b.prefetch(asked)).toBe(keys.length + 600)
      expect(all, 'no bulk read of a store over four entries per key asked').not.toHaveBeenCalled()
      expect(b.misses).toBe(1)
      expect(await Promise.all(asked.map((k) => b.get(k)))).toEqual(want)
    } finally {
      all.mockRestore()
      b.close()
    }
  })
})
