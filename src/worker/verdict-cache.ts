/**
 * The browser's verdict cache (src/core/verify/cache.ts) in IndexedDB, opened by the
 * replay worker: a reopened log replays from it at the cost of bookkeeping.
 *
 * Entries are `{ key, verdict }` under their full key. Lookups asked in one turn of the
 * event loop share one read-only transaction; writes are gathered and written in one
 * read-write transaction at `flush()` (after a replay's answer) or every WRITE_BATCH. What the store returns is checked by
 * the core (readVerdictEntry: same key, well-formed verdict), never trusted. A replay
 * may `prefetch` the keys of its log up front (`prefetchLog`): one read transaction in
 * log order instead of one per window of lookups, so a reopened log waits on IndexedDB
 * once. Entries read or written are also kept in memory (MEMORY_ENTRIES, oldest dropped
 * first), so a log reopened in the same session (a Retry, a second open) reads no store;
 * `memory = false` reads the store only. When
 * IndexedDB is missing or refuses to open (private mode, quota), `open` answers null and
 * replay runs without a cache.
 */
import { Lru } from '../core/lru'
import { textDigest, verdictKey, type VerdictCache, type VerdictEntry } from '../core/verify/cache'
import { signatureText } from '../core/text/signature-text'
import type { UnverifiedUpdate } from '../core/types'
import { signaturesOf } from '../core/verify/update'
import type { IDBPTransaction } from 'idb'
import { type Db, globalIndexedDb, type IdbFactoryLike, openIdb, StorageError } from '../storage/idb'

const VERDICT_DB = 'inbox-inspector-verdicts'
const STORE = 'verdicts'
/** Verdicts put before a write is started on its own (else they wait for flush()). */
const WRITE_BATCH = 4096
/** Entries the in-memory front keeps. */
const MEMORY_ENTRIES = 50_000
const VERSION = 1

interface Lookup {
  readonly key: string
  readonly resolve: (v: unknown) => void
}

export class IdbVerdictCache implements VerdictCache {
  private lookups: Lookup[] = []
  private writes: VerdictEntry[] = []
  private pendingWrite: Promise<void> = Promise.resolve()
  private writeScheduled = false
  /** Reads started by `prefetch`, each answered once by `get`. */
  private readonly prefetched = new Map<string, Promise<unknown>>()
  /** Keys looked up without a prefetch since the last dropPrefetched (a prefetch skips them). */
  private readonly asked = new Set<string>()
  /** Entries read or written, least recently used first. */
  private readonly front = new Lru<string, VerdictEntry>(MEMORY_ENTRIES)
  /** Whether `get` answers from the in-memory front. */
  memory = true
  hits = 0
  misses = 0
  /** Lookups answered from the in-memory front. */
  memoryHits = 0

  private constructor(private readonly db: Db) {}

  /** Opens (or creates) the cache; null when IndexedDB cannot be used here. */
  static async open(
    name = VERDICT_DB,
    factory: IdbFactoryLike | StorageError = globalIndexedDb(),
  ): Promise<IdbVerdictCache | null> {
    if (factory instanceof StorageError) return null
    try {
      return new IdbVerdictCache(await openIdb(factory, { name, version: VERSION, stores: { [STORE]: {} } }))
    } catch {
      return null
    }
  }

  private keep(entry: VerdictEntry): void {
    this.front.set(entry.key, entry)
  }

  get(key: string): Promise<unknown> {
    const kept = this.memory ? this.front.get(key) : undefined
    if (kept) {
      this.memoryHits++
      return Promise.resolve(kept)
    }
    const early = this.prefetched.get(key)
    if (early) {
      this.prefetched.delete(key)
      return early
    }
    this.asked.add(key)
    return new Promise((resolve) => {
      this.lookups.push({ key, resolve })
      if (this.lookups.length === 1) queueMicrotask(() => this.read())
    })
  }

  private read(): void {
    const batch = this.lookups
    this.lookups = []
    let tx: IDBPTransaction<unknown, [typeof STORE], 'readonly'>
    try {
      tx = this.db.transaction(STORE, 'readonly')
    } catch {
      for (const l of batch) l.resolve(undefined)
      return
    }
    tx.done.catch(() => {}) // a failed read answers "not found" below
    for (const l of batch) {
      tx.store.get(l.key).then(
        (v: unknown) => {
          if (v === undefined) this.misses++
          else {
            this.hits++
            // Kept only when well-formed for its key (the core checks it again on use).
            const e = v as Partial<VerdictEntry> | null
            if (e && typeof e === 'object' && e.key === l.key && e.verdict) this.keep(e as VerdictEntry)
          }
          l.resolve(v)
        },
        () => l.resolve(undefined),
      )
    }
  }

  /**
   * Starts reading `keys` now, all in one transaction (asked in one turn); a later `get`
   * of one of them answers from that read. Resolves to the number of keys found.
   */
  prefetch(keys: Iterable<string>): Promise<number> {
    const reads: Promise<unknown>[] = []
    for (const key of keys) {
      if (this.prefetched.has(key) || this.asked.has(key)) continue
      const r = this.get(key)
      this.prefetched.set(key, r)
      reads.push(r)
    }
    return Promise.all(reads).then((vs) => vs.filter((v) => v !== undefined).length)
  }

  /** Forgets prefetched reads no `get` asked for (the end of a replay). */
  dropPrefetched(): void {
    this.prefetched.clear()
    this.asked.clear()
  }

  /**
   * Keeps a verdict; it is written with the next WRITE_BATCH of them, or at `flush()`
   * (the replay worker flushes after its answer, so no write competes with a replay).
   */
  put(entry: VerdictEntry): void {
    this.keep(entry)
    this.writes.push(entry)
    if (this.writes.length >= WRITE_BATCH) this.scheduleWrite()
  }

  private scheduleWrite(): void {
    if (this.writeScheduled) return
    this.writeScheduled = true
    // Gather whatever is put until the timer fires into one write transaction.
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
              // A failed write is only a verdict computed again: each put's failure is the
              // transaction's, which ends the batch.
              for (const e of batch) tx.store.put(e, e.key).catch(() => {})
              tx.done.then(resolve, () => resolve())
            } catch {
              resolve()
            }
          }, 0)
        }),
    )
  }

  /** Writes every verdict put so far and waits until they are written (or the write failed). */
  async flush(): Promise<void> {
    while (this.writeScheduled || this.writes.length) {
      this.scheduleWrite()
      await this.pendingWrite
    }
    await this.pendingWrite
  }

  /** Removes every entry (the benchmark's cold run). */
  async clear(): Promise<void> {
    await this.flush()
    this.dropPrefetched()
    this.front.clear()
    await this.db.clear(STORE)
  }

  /** Writes a raw value under a key: for tests of a damaged store only. */
  async putRaw(key: string, value: unknown): Promise<void> {
    this.front.delete(key)
    await this.db.put(STORE, value, key)
  }

  close(): void {
    this.db.close()
  }
}

/** The cache keys of an update's signatures (erc_6492 has none), as verifyFromCache asks them. */
export function verdictKeysOf(u: UnverifiedUpdate): string[] {
  const textHash = textDigest(signatureText(u))
  const keys: string[] = []
  for (const action of u.actions) {
    for (const [, sig] of signaturesOf(action)) {
      const key = verdictKey(sig, textHash)
      if (key !== null) keys.push(key)
    }
  }
  return keys
}

/**
 * Prefetches the verdicts of a log's updates: the first `head` updates' keys (a probe),
 * and when all of those are found (a log seen before) every other key not looked up
 * meanwhile, in one read. A log the cache has not seen costs the probe only. Resolves,
 * once the probe is answered, to whether the cache has seen the log, and `rest`, the
 * prefetch of the other keys still going on; never rejects.
 */
export async function prefetchLog(
  cache: IdbVerdictCache,
  updates: readonly UnverifiedUpdate[],
  head: number,
): Promise<{ readonly seen: boolean; readonly rest: Promise<void> }> {
  const none = Promise.resolve()
  try {
    const first = new Set(updates.slice(0, head).flatMap(verdictKeysOf))
    const found = await cache.prefetch(first)
    if (found < first.size) return { seen: false, rest: none }
    if (updates.length <= head) return { seen: true, rest: none }
    const rest = cache.prefetch(updates.slice(head).flatMap(verdictKeysOf)).then(
      () => undefined,
      () => undefined,
    )
    return { seen: true, rest }
  } catch {
    // A prefetch is only a head start: lookups ask the store themselves.
    return { seen: true, rest: none }
  }
}
