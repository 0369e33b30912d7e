import { describe, expect, it } from 'vitest'
import { plural } from './format'

describe('plural (issue #12: "1 actions · 1 updates")', () => {
  it('uses the singular for one and groups thousands', () => {
    expect(plural(1, 'action')).toBe('1 action')
    expect(plural(0, 'update')).toBe('0 updates')
    expect(plural(10000, 'update')).toBe('10,000 updates')
  })
})
