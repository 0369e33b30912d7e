import { describe, expect, it } from 'vitest'
import { stepUpdate } from './step-update'

// Rows of three updates: k=0 has two actions, k=1 one, k=2 three.
const rows = [
  { k: 0, i: 0 },
  { k: 0, i: 1 },
  { k: 1, i: 0 },
  { k: 2, i: 0 },
  { k: 2, i: 1 },
  { k: 2, i: 2 },
]

describe('stepUpdate (issue #12: Arrow Left/Right step whole updates)', () => {
  it('moves to the first row of the next update', () => {
    expect(stepUpdate(rows, 0, 'next-update')).toBe(2)
    expect(stepUpdate(rows, 1, 'next-update')).toBe(2)
    expect(stepUpdate(rows, 2, 'next-update')).toBe(3)
    expect(stepUpdate(rows, 4, 'next-update')).toBe(4) // the last update: stays
  })
  it('moves to the first row of the previous update', () => {
    expect(stepUpdate(rows, 5, 'prev-update')).toBe(2)
    expect(stepUpdate(rows, 2, 'prev-update')).toBe(0)
    expect(stepUpdate(rows, 1, 'prev-update')).toBe(0) // the first update: its first row
  })
})
