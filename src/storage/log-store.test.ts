import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import type { IdbFactoryLike } from './idb'
import { IdbLogStore, inputDigest, logRecordId, type LogRecord } from './log-store'
import { StorageError } from './errors'

const fresh = (): IdbFactoryLike => new IDBFactory() as unknown as IdbFactoryLike

const record = (id: string, verdicts = '{"v":1}'): LogRecord => ({
  id,
  updates: 3,
  name: 'log.json',
  savedAt: 1,
  verdicts,
})

describe('the log store', () => {
  it('keeps one record per log across a reopen, replaced when written again', async () => {
    const factory = fresh()
    const store = (await IdbLogStore.open('logs', factory))!
    const id = logRecordId('ab', 0)
    expect(await store.get(id)).toBeNull()
    expect(await store.put(record(id))).toBe(true)
    expect(await store.put(record(id, '{"v":1,"again":true}'))).toBe(true)
    store.close()
    const again = (await IdbLogStore.open('logs', factory))!
    expect(await again.get(id)).toEqual(record(id, '{"v":1,"again":true}'))
    // another log of the same input is another record
    expect(await again.get(logRecordId('ab', 1))).toBeNull()
    await again.clear()
    expect(await again.get(id)).toBeNull()
    again.close()
  })

  it('reads a record of another shape as none', async () => {
    const factory = fresh()
    const store = (await IdbLogStore.open('logs', factory))!
    await store.put({ ...record('x'), verdicts: 7 } as unknown as LogRecord)
    expect(await store.get('x')).toBeNull()
    store.close()
  })

  it('reads as none and writes nothing once its database is closed, without throwing', async () => {
    const store = (await IdbLogStore.open('logs', fresh()))!
    store.close()
    expect(await store.get('x')).toBeNull()
    expect(await store.put(record('x'))).toBe(false)
  })

  it('is null where IndexedDB cannot be used', async () => {
    expect(await IdbLogStore.open('logs', new StorageError('unavailable', 'none here'))).toBeNull()
    const refusing: IdbFactoryLike = {
      open: () => {
        throw new Error('InvalidStateError')
      },
    }
    expect(await IdbLogStore.open('logs', refusing)).toBeNull()
  })
})

describe('inputDigest', () => {
  it('is the SHA-256 of the input, a string hashed as its UTF-8 bytes', async () => {
    expect(await inputDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(await inputDigest(new TextEncoder().encode('é'))).toBe(await inputDigest('é'))
  })
})
