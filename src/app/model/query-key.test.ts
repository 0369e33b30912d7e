import { describe, expect, it } from 'vitest'
import { hashQueryKey } from './query-key'

describe('hashQueryKey', () => {
  it('hashes bigints without throwing, distinct from the same digits as a string or number', () => {
    const a = hashQueryKey(['chain', 31337n, 'block', 2n])
    expect(a).toBe('["chain",{"$bigint":"31337"},"block",{"$bigint":"2"}]')
    expect(a).not.toBe(hashQueryKey(['chain', '31337', 'block', '2']))
    expect(a).not.toBe(hashQueryKey(['chain', 31337, 'block', 2]))
  })
  it('is independent of object key order, and hashes bytes by value', () => {
    expect(hashQueryKey([{ a: 1, b: 2n }])).toBe(hashQueryKey([{ b: 2n, a: 1 }]))
    expect(hashQueryKey([new Uint8Array([1, 255])])).toBe('[{"$bytes":"01ff"}]')
  })
})
