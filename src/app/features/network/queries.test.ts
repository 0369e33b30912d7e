import { describe, expect, it } from 'vitest'
import { hashQueryKey } from '../../model/query-key'
import { nodeKeys } from './node-keys'

describe('hashQueryKey', () => {
  it('hashes bigints without throwing, distinct from the same digits as a string', () => {
    const a = hashQueryKey(nodeKeys.newest('http://n', 'ab', 13n))
    expect(a).toContain('{"$bigint":"13"}')
    expect(a).not.toBe(hashQueryKey(['node', 'http://n', 'newest', 'ab', '13']))
    expect(a).toBe(hashQueryKey(nodeKeys.newest('http://n', 'ab', 13n)))
  })
  it('is independent of object key order', () => {
    expect(hashQueryKey([{ a: 1, b: 2n }])).toBe(hashQueryKey([{ b: 2n, a: 1 }]))
  })
})
