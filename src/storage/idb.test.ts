import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { globalIndexedDb, type IdbFactoryLike, inStore, openIdb, StorageError } from './idb'

const fresh = (): IdbFactoryLike => new IDBFactory() as unknown as IdbFactoryLike
const stores = { records: { keyPath: 'id' }, loose: {} }

afterEach(() => vi.unstubAllGlobals())

describe('openIdb', () => {
  it('creates the missing stores on first open and keeps what was written across a reopen', async () => {
    const factory = fresh()
    const db = await openIdb(factory, { name: 't', version: 1, stores })
    expect([...db.objectStoreNames].sort()).toEqual(['loose', 'records'])
    await inStore(db, 'records', 'readwrite', 'writing', (s) => s.put({ id: 'a', n: 1 }))
    await inStore(db, 'loose', 'readwrite', 'writing', (s) => s.put('v', 'k'))
    db.close()
    const again = await openIdb(factory, { name: 't', version: 1, stores })
    expect(await inStore(again, 'records', 'readonly', 'reading', (s) => s.get('a'))).toEqual({ id: 'a', n: 1 })
    expect(await again.get('loose', 'k')).toBe('v')
    again.close()
  })

  it('lets a newer version opened elsewhere take the database instead of blocking it', async () => {
    const factory = fresh()
    const old = await openIdb(factory, { name: 'v', version: 1, stores: { records: { keyPath: 'id' } } })
    const newer = await openIdb(factory, { name: 'v', version: 2, stores, timeoutMs: 2_000 })
    expect([...newer.objectStoreNames].sort()).toEqual(['loose', 'records'])
    newer.close()
    expect(() => old.transaction('records', 'readonly')).toThrow() // closed by its versionchange
  })

  it('names a database that never opens (blocked) after the timeout, as blocked', async () => {
    const never: IdbFactoryLike = {
      open: () => ({ onsuccess: null, onerror: null, onupgradeneeded: null }) as unknown as IDBOpenDBRequest,
    }
    await expect(openIdb(never, { name: 'stuck', version: 1, stores, timeoutMs: 10 })).rejects.toMatchObject({
      name: 'StorageError',
      code: 'blocked',
      message: expect.stringContaining('stuck did not open within 10 ms'),
    })
  })

  it('names a factory that throws and a request that fails, as unavailable', async () => {
    const throwing: IdbFactoryLike = {
      open() {
        throw Object.assign(new Error('no mutations'), { name: 'InvalidStateError' })
      },
    }
    await expect(openIdb(throwing, { name: 'x', version: 1, stores })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'IndexedDB refused to open x: InvalidStateError: no mutations',
    })
    const failing: IdbFactoryLike = {
      open() {
        const req = { error: { name: 'UnknownError', message: 'backing store' }, onerror: null } as unknown as {
          onerror: (() => void) | null
        }
        setTimeout(() => req.onerror?.(), 0)
        return req as unknown as IDBOpenDBRequest
      },
    }
    await expect(openIdb(failing, { name: 'y', version: 1, stores })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'IndexedDB could not open y: UnknownError: backing store',
    })
  })
})

describe('inStore', () => {
  it('turns a missing store, a failed request and an aborted commit into StorageError failed', async () => {
    const db = await openIdb(fresh(), { name: 'f', version: 1, stores })
    await expect(inStore(db, 'absent', 'readonly', 'reading absent', (s) => s.getAll())).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringMatching(/^IndexedDB reading absent failed: NotFoundError/),
    })
    await inStore(db, 'records', 'readwrite', 'writing a', (s) => s.add({ id: 'a' }))
    await expect(inStore(db, 'records', 'readwrite', 'adding a', (s) => s.add({ id: 'a' }))).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringMatching(/^IndexedDB adding a failed: ConstraintError/),
    })
    await expect(
      inStore(db, 'records', 'readwrite', 'writing b', async (s) => {
        await s.put({ id: 'b' })
        s.transaction.abort()
      }),
    ).rejects.toMatchObject({ code: 'failed', message: expect.stringMatching(/^IndexedDB writing b was aborted: /) })
    // Nothing of the failed transactions was kept; the database still works.
    expect(await inStore(db, 'records', 'readonly', 'reading', (s) => s.getAllKeys())).toEqual(['a'])
    db.close()
  })
})

describe('globalIndexedDb', () => {
  it('is the global factory when there is one', () => {
    expect(globalIndexedDb()).toBe(globalThis.indexedDB)
  })

  it('says why when there is none, or reading it throws', () => {
    vi.stubGlobal('indexedDB', undefined)
    expect(globalIndexedDb()).toMatchObject({ name: 'StorageError', code: 'unavailable' })
    vi.unstubAllGlobals()
    const desc = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB')
    Object.defineProperty(globalThis, 'indexedDB', {
      configurable: true,
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
    })
    try {
      const got = globalIndexedDb()
      expect(got).toBeInstanceOf(StorageError)
      expect((got as StorageError).message).toBe(
        'IndexedDB is not allowed here: SecurityError: The operation is insecure.',
      )
    } finally {
      if (desc) Object.defineProperty(globalThis, 'indexedDB', desc)
    }
  })
})
