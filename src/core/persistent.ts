/**
 * Persistent (immutable, structure-sharing) maps and sets with string keys: the association
 * state's members, its revocation index and its seen replay keys (see AssociationState).
 * Consecutive states of a log share all but the path an action changed, so a Trace holding
 * a state per action stays O(n) in the log.
 *
 * A hash array mapped trie: 32-way branch nodes indexed by five bits of a key's 32-bit hash
 * at a time, a bitmap saying which of the 32 slots are present. A set or delete copies the
 * nodes on the path to its key (at most seven), nothing else. Keys whose whole hash is equal
 * share a bucket. Deleting collapses a branch left with a single entry into that entry.
 * Iteration follows the hashes: the same keys iterate in the same order whatever the order
 * of the edits that made the map (not insertion order: callers that show or report sort).
 *
 * Written for this use rather than taken from a library: the general-purpose ones are either
 * large (immutable.js, 63 KB minified, loaded in the page and in every worker) or unmaintained,
 * and these states need only string keys and the operations below. Checked against the
 * built-in Map by property tests (persistent.test.ts).
 */

const BITS = 5
const MASK = (1 << BITS) - 1

/** 32-bit FNV-1a of the UTF-16 code units, then murmur3's finalizer so every bit depends on every unit. */
export function hashKey(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number
}

class Leaf<V> {
  constructor(
    readonly hash: number,
    readonly key: string,
    readonly value: V,
  ) {}
}

/** Entries whose keys hash alike, all 32 bits (at least two). */
class Bucket<V> {
  constructor(
    readonly hash: number,
    readonly leaves: readonly Leaf<V>[],
  ) {}
}

class Branch<V> {
  constructor(
    readonly bitmap: number,
    readonly slots: readonly Node<V>[],
  ) {}
}

type Node<V> = Leaf<V> | Bucket<V> | Branch<V>

/** Set by `put` when it added a key (not replaced one). */
let added = false

function withSlot<V>(slots: readonly Node<V>[], i: number, node: Node<V>): Node<V>[] {
  const copy = slots.slice()
  copy[i] = node
  return copy
}

/** A branch (or nested branches) holding two leaves or buckets of different hashes, from `shift` on. */
function join<V>(shift: number, a: Leaf<V> | Bucket<V>, b: Leaf<V> | Bucket<V>): Branch<V> {
  const ia = (a.hash >>> shift) & MASK
  const ib = (b.hash >>> shift) & MASK
  if (ia === ib) return new Branch(1 << ia, [join(shift + BITS, a, b)])
  return new Branch((1 << ia) | (1 << ib), ia < ib ? [a, b] : [b, a])
}

function put<V>(node: Node<V>, shift: number, leaf: Leaf<V>): Node<V> {
  if (node instanceof Branch) {
    const bit = 1 << ((leaf.hash >>> shift) & MASK)
    const i = popcount(node.bitmap & (bit - 1))
    if ((node.bitmap & bit) === 0) {
      added = true
      const slots = node.slots.slice()
      slots.splice(i, 0, leaf)
      return new Branch(node.bitmap | bit, slots)
    }
    const child = node.slots[i]!
    const next = put(child, shift + BITS, leaf)
    return next === child ? node : new Branch(node.bitmap, withSlot(node.slots, i, next))
  }
  if (node instanceof Leaf) {
    if (node.key === leaf.key) return Object.is(node.value, leaf.value) ? node : leaf
    added = true
    return node.hash === leaf.hash ? new Bucket(node.hash, [node, leaf]) : join(shift, node, leaf)
  }
  // A bucket.
  if (node.hash !== leaf.hash) {
    added = true
    return join(shift, node, leaf)
  }
  const at = node.leaves.findIndex((l) => l.key === leaf.key)
  if (at < 0) {
    added = true
    return new Bucket(node.hash, [...node.leaves, leaf])
  }
  if (Object.is(node.leaves[at]!.value, leaf.value)) return node
  const leaves = node.leaves.slice()
  leaves[at] = leaf
  return new Bucket(node.hash, leaves)
}

/** The node without `key`: the same node when it is absent, undefined when nothing is left. */
function remove<V>(node: Node<V>, shift: number, hash: number, key: string): Node<V> | undefined {
  if (node instanceof Branch) {
    const bit = 1 << ((hash >>> shift) & MASK)
    if ((node.bitmap & bit) === 0) return node
    const i = popcount(node.bitmap & (bit - 1))
    const child = node.slots[i]!
    const next = remove(child, shift + BITS, hash, key)
    if (next === child) return node
    if (next !== undefined) {
      // A branch whose only slot is now a leaf or a bucket is that entry (the canonical shape).
      if (node.slots.length === 1 && !(next instanceof Branch)) return next
      return new Branch(node.bitmap, withSlot(node.slots, i, next))
    }
    if (node.slots.length === 1) return undefined
    const slots = node.slots.slice()
    slots.splice(i, 1)
    if (slots.length === 1 && !(slots[0] instanceof Branch)) return slots[0]
    return new Branch(node.bitmap & ~bit, slots)
  }
  if (node instanceof Leaf) return node.key === key ? undefined : node
  if (node.hash !== hash) return node
  const leaves = node.leaves.filter((l) => l.key !== key)
  if (leaves.length === node.leaves.length) return node
  return leaves.length === 1 ? leaves[0] : new Bucket(node.hash, leaves)
}

function find<V>(root: Node<V> | undefined, key: string): Leaf<V> | undefined {
  if (root === undefined) return undefined
  const hash = hashKey(key)
  let node: Node<V> = root
  // Two hashes that differ do so by shift 30 (the top two bits): no branch sits deeper.
  for (let shift = 0; ; shift += BITS) {
    if (node instanceof Branch) {
      const bit = 1 << ((hash >>> shift) & MASK)
      if ((node.bitmap & bit) === 0) return undefined
      node = node.slots[popcount(node.bitmap & (bit - 1))]!
    } else if (node instanceof Leaf) {
      return node.key === key ? node : undefined
    } else {
      return node.hash === hash ? node.leaves.find((l) => l.key === key) : undefined
    }
  }
}

/** Every leaf under `node`, in trie order, appended to `out` (an array is faster to walk than nested generators). */
function collect<V, T>(node: Node<V> | undefined, out: T[], pick: (l: Leaf<V>) => T): T[] {
  if (node === undefined) return out
  if (node instanceof Leaf) out.push(pick(node))
  else if (node instanceof Bucket) for (const l of node.leaves) out.push(pick(l))
  else for (const s of node.slots) collect(s, out, pick)
  return out
}

const leafEntry = <V>(l: Leaf<V>): [string, V] => [l.key, l.value]
const leafKey = <V>(l: Leaf<V>): string => l.key
const leafValue = <V>(l: Leaf<V>): V => l.value

/** A root: a single entry is kept as a leaf; any more as a branch. */
function rootPut<V>(root: Node<V> | undefined, leaf: Leaf<V>): Node<V> {
  if (root === undefined) {
    added = true
    return leaf
  }
  return put(root, 0, leaf)
}

/** A persistent map from strings. Every change returns a new map; the old one is unchanged. */
export class PMap<V> implements Iterable<[string, V]> {
  private constructor(
    private readonly root: Node<V> | undefined,
    readonly size: number,
  ) {}

  private static readonly EMPTY = new PMap<never>(undefined, 0)

  static empty<V>(): PMap<V> {
    return PMap.EMPTY
  }

  static of<V>(entries: Iterable<readonly [string, V]>): PMap<V> {
    let m = PMap.empty<V>()
    for (const [k, v] of entries) m = m.set(k, v)
    return m
  }

  get(key: string): V | undefined {
    return find(this.root, key)?.value
  }

  has(key: string): boolean {
    return find(this.root, key) !== undefined
  }

  /** This map when `key` already maps to `value` (Object.is). */
  set(key: string, value: V): PMap<V> {
    added = false
    const root = rootPut(this.root, new Leaf(hashKey(key), key, value))
    return root === this.root ? this : new PMap(root, added ? this.size + 1 : this.size)
  }

  /** This map when `key` is absent. */
  delete(key: string): PMap<V> {
    if (this.root === undefined) return this
    const root = remove(this.root, 0, hashKey(key), key)
    if (root === this.root) return this
    return root === undefined ? PMap.empty() : new PMap(root, this.size - 1)
  }

  deleteAll(keys: Iterable<string>): PMap<V> {
    let m: PMap<V> = this
    for (const k of keys) m = m.delete(k)
    return m
  }

  entries(): IterableIterator<[string, V]> {
    return collect(this.root, [] as [string, V][], leafEntry)[Symbol.iterator]()
  }

  keys(): IterableIterator<string> {
    return collect(this.root, [] as string[], leafKey)[Symbol.iterator]()
  }

  values(): IterableIterator<V> {
    return collect(this.root, [] as V[], leafValue)[Symbol.iterator]()
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries()
  }
}

/** A persistent set of strings. Every change returns a new set; the old one is unchanged. */
export class PSet implements Iterable<string> {
  private constructor(private readonly map: PMap<true>) {}

  private static readonly EMPTY = new PSet(PMap.empty())

  static empty(): PSet {
    return PSet.EMPTY
  }

  static of(keys: Iterable<string>): PSet {
    return PSet.EMPTY.union(keys)
  }

  get size(): number {
    return this.map.size
  }

  has(key: string): boolean {
    return this.map.has(key)
  }

  /** This set when `key` is in it already. */
  add(key: string): PSet {
    const map = this.map.set(key, true)
    return map === this.map ? this : new PSet(map)
  }

  /** This set when `key` is not in it. */
  delete(key: string): PSet {
    const map = this.map.delete(key)
    return map === this.map ? this : map.size === 0 ? PSet.EMPTY : new PSet(map)
  }

  /** This set when every key is in it already. */
  union(keys: Iterable<string>): PSet {
    let map = this.map
    for (const k of keys) map = map.set(k, true)
    return map === this.map ? this : new PSet(map)
  }

  values(): IterableIterator<string> {
    return this.map.keys()
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.map.keys()
  }
}
