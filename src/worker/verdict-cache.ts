/**
 * The browser's verdict cache (src/core/verify/cache.ts) in IndexedDB, opened by the
 * replay worker: a reopened log replays from it at the cost of bookkeeping.
 *
 * Entries are `{ key, verdict }` under their full key. Lookups asked in one turn of the
 * event loop share one read-only transaction; writes are gathered and written in one
 * read-write transaction (`flush()` waits for them). What the store returns is checked by
 * the core (readVerdictEntry: same key, well-formed verdict), never trusted. When
 * IndexedDB is missing or refuses to open (private mode, quota), `open` answers null and
 * replay runs without a cache.
 */
import type { VerdictCache, VerdictEntry } from '../core/verify/cache'

// The part of IndexedDB used here, typed structurally so the module also type-checks
// (and is unit-tested with fake-indexeddb) without the DOM library.
interface IdbRequest<T> {
  readonly result: T
  readonly error: unknown
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface IdbOpenRequest extends IdbRequest<IdbDatabase> {
  onupgradeneeded: (() => void) | null
}
interface IdbStore {
  get(key: string): IdbRequest<unknown>
  put(value: unknown, key: string): IdbRequest<unknown>
  clear(): IdbRequest<undefined>
}
interface IdbTransaction {
  objectStore(name: string): IdbStore
  oncomplete: (() => void) | null
  onerror: (() => void) | null
  onabort: (() => void) | null
}
interface IdbDatabase {
  readonly objectStoreNames: { contains(name: string): boolean }
  createObjectStore(name: string): unknown
  transaction(store: string, mode: 'readonly' | 'readwrite', options?: { durability?: 'default' | 'strict' | 'relaxed' }): IdbTransaction
  close(): void
}
export interface IdbFactoryLike {
  open(name: string, version: number): IdbOpenRequest
}

export const VERDICT_DB = 'inbox-inspector-verdicts'
const STORE = 'verdicts'
const VERSION = 1

interface Lookup {
  readonly key: string
  readonly resolve: (v: unknown) => void
}

function request<T>(r: IdbRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result)
    r.onerror = () => reject(r.error instanceof Error ? r.error : new Error('IndexedDB request failed'))
  })
}

export class IdbVerdictCache implements VerdictCache {
  private lookups: Lookup[] = []
  private writes: VerdictEntry[] = []
  private pendingWrite: Promise<void> = Promise.resolve()
  private writeScheduled = false
  hits = 0
  misses = 0

  private constructor(private readonly db: IdbDatabase) {}

  /** Opens (or creates) the cache; null when IndexedDB cannot be used here. */
  static async open(
    name = VERDICT_DB,
    factory: IdbFactoryLike | undefined = (globalThis as { indexedDB?: IdbFactoryLike }).indexedDB,
  ): Promise<IdbVerdictCache | null> {
    if (!factory) return null
    try {
      const req = factory.open(name, VERSION)
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE)
      }
      return new IdbVerdictCache(await request(req))
    } catch {
      return null
    }
  }

  get(key: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.lookups.push({ key, resolve })
      if (this.lookups.length === 1) queueMicrotask(() => this.read())
    })
  }

  private read(): void {
    const batch = this.lookups
    this.lookups = []
    let tx: IdbTransaction
    try {
      tx = this.db.transaction(STORE, 'readonly')
    } catch {
      for (const l of batch) l.resolve(undefined)
      return
    }
    const store = tx.objectStore(STORE)
    for (const l of batch) {
      const r = store.get(l.key)
      r.onsuccess = () => {
        if (r.result === undefined) this.misses++
        else this.hits++
        l.resolve(r.result)
      }
      r.onerror = () => l.resolve(undefined)
    }
  }

  put(entry: VerdictEntry): void {
    this.writes.push(entry)
    if (this.writeScheduled) return
    this.writeScheduled = true
    // Gather a whole batch of verdicts before one write transaction.
    this.pendingWrite = this.pendingWrite.then(
      () =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            this.writeScheduled = false
            const batch = this.writes
            this.writes = []
            try {
              // Relaxed: a verdict lost in a crash is only computed again; no fsync per batch.
              const tx = this.db.transaction(STORE, 'readwrite', { durability: 'relaxed' })
              const store = tx.objectStore(STORE)
              for (const e of batch) store.put(e, e.key)
              tx.oncomplete = () => resolve()
              tx.onerror = () => resolve()
              tx.onabort = () => resolve()
            } catch {
              resolve()
            }
          }, 0)
        }),
    )
  }

  /** Waits until every verdict put so far is written (or its write failed). */
  async flush(): Promise<void> {
    while (this.writeScheduled || this.writes.length) await this.pendingWrite
    await this.pendingWrite
  }

  /** Removes every entry (the benchmark's cold run). */
  async clear(): Promise<void> {
    await this.flush()
    const tx = this.db.transaction(STORE, 'readwrite')
    await request(tx.objectStore(STORE).clear())
  }

  /** Writes a raw value under a key: for tests of a damaged store only. */
  async putRaw(key: string, value: unknown): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite')
    await request(tx.objectStore(STORE).put(value, key))
  }

  close(): void {
    this.db.close()
  }
}
