import { describe, expect, it } from 'vitest'
import { hashNodeKey, nodeKeys } from './queries'

describe('hashNodeKey', () => {
  it('hashes bigints without throwing, distinct from the same digits as a string', () => {
    const a = hashNodeKey(nodeKeys.newest('http://n', 'ab', 13n))
    expect(a).toContain('{"$bigint":"13"}')
    expect(a).not.toBe(hashNodeKey(['node', 'http://n', 'newest', 'ab', '13']))
    expect(a).toBe(hashNodeKey(nodeKeys.newest('http://n', 'ab', 13n)))
  })
  it('is independent of object key order', () => {
    expect(hashNodeKey([{ a: 1, b: 2n }])).toBe(hashNodeKey([{ b: 2n, a: 1 }]))
  })
})
