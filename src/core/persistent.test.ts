import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PMap, PSet, hashKey } from './persistent'

/** Pairs of keys whose whole 32-bit hashes are equal (found by search): they share a bucket. */
const COLLIDING = [
  ['installation:d669', 'installation:b7f02'],
  ['installation:d668', 'installation:b7f03'],
] as const

type Op =
  | { readonly op: 'set'; readonly key: string; readonly value: number }
  | { readonly op: 'delete'; readonly key: string }

/** Keys from a small universe (so deletes hit), colliding pairs among them. */
const key = fc.oneof(
  fc.integer({ min: 0, max: 300 }).map((i) => `k${i}`),
  fc.constantFrom(...COLLIDING.flat()),
)
const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ op: fc.constant('delete' as const), key }),
  ),
  { maxLength: 400 },
)

function run(list: readonly Op[]): {
  map: PMap<number>
  model: Map<string, number>
  history: [PMap<number>, Map<string, number>][]
} {
  let map = PMap.empty<number>()
  const model = new Map<string, number>()
  const history: [PMap<number>, Map<string, number>][] = []
  for (const o of list) {
    const before = map
    if (o.op === 'set') {
      const same = model.get(o.key) === o.value
      map = map.set(o.key, o.value)
      model.set(o.key, o.value)
      // A set that changes nothing returns the same map (the core relies on it: IDENT-050's seen check).
      expect(map === before).toBe(same)
    } else {
      const had = model.delete(o.key)
      map = map.delete(o.key)
      expect(map === before).toBe(!had)
    }
    history.push([map, new Map(model)])
  }
  return { map, model, history }
}

describe('PMap', () => {
  it('colliding keys hash alike (the bucket cases below are real)', () => {
    for (const [a, b] of COLLIDING) expect(hashKey(a)).toBe(hashKey(b))
  })

  it('agrees with a Map after any sequence of sets and deletes, and every earlier version is unchanged', () => {
    fc.assert(
      fc.property(ops, (list) => {
        const { history } = run(list)
        for (const [map, model] of history) {
          expect(map.size).toBe(model.size)
          expect(new Map(map)).toEqual(model)
          for (const k of model.keys()) {
            expect(map.has(k)).toBe(true)
            expect(map.get(k)).toBe(model.get(k))
          }
          for (const [a, b] of COLLIDING) {
            expect(map.has(a)).toBe(model.has(a))
            expect(map.get(b)).toBe(model.get(b))
          }
          expect(map.has('absent')).toBe(false)
        }
      }),
      { numRuns: 150 },
    )
  })

  it('iterates in an order set by the keys alone, not by the order of edits', () => {
    fc.assert(
      fc.property(ops, fc.integer(), (list, seed) => {
        const { map, model } = run(list)
        // The same entries, inserted in another order into a map that held and lost other keys.
        const entries = [...model].sort((a, b) => ((hashKey(a[0]) ^ seed) >>> 0) - ((hashKey(b[0]) ^ seed) >>> 0))
        let other = PMap.of([...entries, ['extra-1', 9] as const, ['extra-2', 9] as const])
        other = other.delete('extra-1').delete('extra-2')
        const order = (m: PMap<number>) => [...m.keys()].filter((k) => !COLLIDING.flat().includes(k as never)) // a bucket keeps insertion order
        expect(order(other)).toEqual(order(map))
      }),
      { numRuns: 100 },
    )
  })

  it('deleteAll deletes each key, absent ones ignored', () => {
    const m = PMap.of([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ])
    const d = m.deleteAll(['a', 'c', 'zz'])
    expect([...d]).toEqual([['b', 2]])
    expect(m.size).toBe(3)
    expect(m.deleteAll(['zz'])).toBe(m)
    expect(PMap.empty().delete('a')).toBe(PMap.empty())
  })

  it('holds 20,000 keys, each found, all iterated once', () => {
    let m = PMap.empty<number>()
    for (let i = 0; i < 20_000; i++) m = m.set(`installation:${i.toString(16).padStart(64, '0')}`, i)
    expect(m.size).toBe(20_000)
    for (let i = 0; i < 20_000; i += 97) expect(m.get(`installation:${i.toString(16).padStart(64, '0')}`)).toBe(i)
    const values = [...m.values()].sort((a, b) => a - b)
    expect(values).toEqual(Array.from({ length: 20_000 }, (_, i) => i))
  })
})

describe('PSet', () => {
  it('agrees with a Set; add of a member and delete of a non-member return the same set', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), key), { maxLength: 300 }), (list) => {
        let set = PSet.empty()
        const model = new Set<string>()
        for (const [add, k] of list) {
          const before = set
          if (add) {
            set = set.add(k)
            expect(set === before).toBe(model.has(k))
            model.add(k)
          } else {
            set = set.delete(k)
            expect(set === before).toBe(!model.has(k))
            model.delete(k)
          }
          expect(set.size).toBe(model.size)
        }
        expect(new Set(set)).toEqual(model)
        for (const k of model) expect(set.has(k)).toBe(true)
      }),
      { numRuns: 150 },
    )
  })

  it('union adds every key and returns the same set when none is new', () => {
    const s = PSet.of(['a', 'b'])
    expect(new Set(s.union(['b', 'c']))).toEqual(new Set(['a', 'b', 'c']))
    expect(s.union(['a', 'b', 'a'])).toBe(s)
    expect(s.size).toBe(2)
  })
})
