/**
 * A bounded map that drops its least recently used entry: the one LRU behind the verdict
 * caches (core/verify/cache.ts, chain/cache.ts, the worker's in-memory front). A Map keeps
 * insertion order, so a read or a write moves its key last and the first key is the oldest.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>()
  /** Reads that found their key, and reads that did not. */
  hits = 0
  misses = 0

  /** @param what names the capacity in the RangeError for a capacity below 1 or not an integer. */
  constructor(
    readonly capacity: number,
    what = 'LRU capacity',
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`${what} ${capacity} is not a positive integer`)
  }

  get size(): number {
    return this.map.size
  }

  /** The value, marking it most recently used; counts a hit or a miss. */
  get(key: K): V | undefined {
    const v = this.map.get(key)
    if (v === undefined) {
      this.misses++
      return undefined
    }
    this.hits++
    this.map.delete(key)
    this.map.set(key, v)
    return v
  }

  /** Stores the value as most recently used, dropping the oldest entries past the capacity. */
  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K)
  }

  delete(key: K): boolean {
    return this.map.delete(key)
  }

  /** Empties the map and zeroes the counters. */
  clear(): void {
    this.map.clear()
    this.hits = 0
    this.misses = 0
  }
}
