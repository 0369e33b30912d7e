import { describe, expect, it } from 'vitest'
import { splitEnds } from './run'

describe('splitEnds', () => {
  it('cuts every inbox once, in order, full batches first and smaller ones toward the end', () => {
    for (const [n, jobs] of [
      [0, 2],
      [1, 2],
      [31, 1],
      [300, 2],
      [5000, 2],
      [5000, 8],
      [20000, 0],
    ] as const) {
      const ends = splitEnds(n, jobs)
      expect(ends.at(-1) ?? 0).toBe(n)
      const sizes = ends.map((e, i) => e - (i ? ends[i - 1]! : 0))
      expect(sizes.every((s) => s > 0 && s <= 256)).toBe(true)
      // Never growing: the last batches are the smallest.
      expect(sizes.every((s, i) => i === 0 || s <= sizes[i - 1]!)).toBe(true)
    }
    const sizes = splitEnds(5000, 2).map((e, i, a) => e - (i ? a[i - 1]! : 0))
    expect(sizes[0]).toBe(256)
    expect(sizes.slice(-3).every((s) => s <= 32)).toBe(true)
  })
})
