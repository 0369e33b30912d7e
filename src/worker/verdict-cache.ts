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
 * once; a large prefetch reads the whole store in bulk when it is not much larger than the
 * log (BULK_KEYS). Entries read or written are also kept in memory (MEMORY_ENTRIES, oldest dropped
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
import { type Db, globalIndexedDb, type IdbFactoryLike, openIdbOrNull, type StorageError } from '../storage/idb'

const VERDICT_DB = 'inbox-inspector-verdicts'
const STORE = 'verdicts'
/** Verdicts put before a write is started on its own (else they wait for flush()). */
const WRITE_BATCH = 4096
/** Entries the in-memory front keeps. */
const MEMORY_ENTRIES = 50_000
const VERSION = 1
/**
 * A prefetch of at least BULK_KEYS keys reads the whole store in two requests (its keys,
 * its values) when the store holds at most BULK_FACTOR entries per key asked: each get is
 * a round trip to the browser's storage process, and a reopened 10,000-update log's
 * 17,940 gets took longer (3.6 s) than verifying its signatures again (2.7 s); the bulk
 * read of the same store takes 0.75-0.93 s.
 */
const BULK_KEYS = 512
const BULK_FACTOR = 4

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
    const db = await openIdbOrNull(factory, { name, version: VERSION, stores: { [STORE]: {} } })
    return db && new IdbVerdictCache(db)
  }

  private keep(entry: VerdictEntry): void {
    this.front.set(entry.key, entry)
  }

  get(key: string): Promise<unknown> {
    const kept = this.fromMemory(key)
    if (kept) return kept
    const early = this.prefetched.get(key)
    if (early) {
      this.prefetched.delete(key)
      return early
    }
    this.asked.add(key)
    return this.lookup(key)
  }

  /** The in-memory front's entry for `key` (when `memory` is on), counted as a memory hit. */
  private fromMemory(key: string): Promise<unknown> | undefined {
    const kept = this.memory ? this.front.get(key) : undefined
    if (!kept) return undefined
    this.memoryHits++
    return Promise.resolve(kept)
  }

  /** Asks the store for `key` with the other lookups of this turn (one transaction). */
  private lookup(key: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.lookups.push({ key, resolve })
      if (this.lookups.length === 1) queueMicrotask(() => this.read())
    })
  }

  /** Counts a read's answer and keeps a well-formed entry in memory (the core checks it again on use). */
  private answered(key: string, v: unknown): void {
    if (v === undefined) {
      this.misses++
      return
    }
    this.hits++
    const e = v as Partial<VerdictEntry> | null
    if (e && typeof e === 'object' && e.key === key && e.verdict) this.keep(e as VerdictEntry)
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
          this.answered(l.key, v)
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
    const want = new Set<string>()
    for (const key of keys) if (!this.prefetched.has(key) && !this.asked.has(key)) want.add(key)
    if (want.size >= BULK_KEYS) return this.prefetchBulk([...want])
    const reads: Promise<unknown>[] = []
    for (const key of want) {
      const r = this.get(key)
      this.prefetched.set(key, r)
      reads.push(r)
    }
    return Promise.all(reads).then((vs) => vs.filter((v) => v !== undefined).length)
  }

  /**
   * A large prefetch (see BULK_KEYS): the whole store's keys and values in one read
   * transaction when it is small enough for them, else a get per key (as `prefetch`).
   * Keys held in memory answer from there, as `get` does.
   */
  private prefetchBulk(want: readonly string[]): Promise<number> {
    // The keys the store is asked for, each with its prefetched read's resolve.
    const asked = new Map<string, (v: unknown) => void>()
    const reads: Promise<unknown>[] = []
    for (const key of want) {
      const r = this.fromMemory(key) ?? new Promise((resolve) => asked.set(key, resolve))
      this.prefetched.set(key, r)
      reads.push(r)
    }
    const answer = (byKey: ReadonlyMap<IDBValidKey, unknown> | null): void => {
      for (const [key, resolve] of asked) {
        if (!byKey) {
          void this.lookup(key).then(resolve)
          continue
        }
        const v = byKey.get(key)
        this.answered(key, v)
        resolve(v)
      }
    }
    if (asked.size > 0)
      void (async () => {
        try {
          const tx = this.db.transaction(STORE, 'readonly')
          tx.done.catch(() => {}) // a failed bulk read falls back to a get per key
          if ((await tx.store.count()) > BULK_FACTOR * want.length) return answer(null)
          // One transaction, no write between them: both lists are in key order.
          const [ks, vs] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()])
          if (ks.length !== vs.length) return answer(null)
          answer(new Map(ks.map((k, i) => [k, vs[i]])))
        } catch {
          answer(null)
        }
      })()
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
            this.writeBatch(batch).then(resolve)
          }, 0)
        }),
    )
  }

  /** Verdicts put and not yet written. */
  get unwritten(): number {
    return this.writes.length
  }

  /**
   * Writes up to `max` of the verdicts put so far, oldest first, in one transaction, and
   * waits until it is written (or failed): the replay worker's writes in slices.
   */
  async writeSome(max: number): Promise<void> {
    await this.pendingWrite
    const batch = this.writes.splice(0, max)
    if (batch.length > 0) await this.writeBatch(batch)
  }

  /** Writes one batch in one transaction; resolves when it is written or has failed. */
  private writeBatch(batch: readonly VerdictEntry[]): Promise<void> {
    return new Promise<void>((resolve) => {
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
    })
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
