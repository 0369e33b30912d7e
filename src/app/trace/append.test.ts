import { describe, expect, it } from 'vitest'
import { AppendError, appendToBundle } from './append'

const b = (...xs: number[]) => new Uint8Array(xs)

describe('appendToBundle', () => {
  it('keeps every earlier update’s bytes and gives the new one the next sequence id', () => {
    const r = appendToBundle(
      [
        { sequenceId: 1n, bytes: b(1, 2) },
        { sequenceId: 5n, bytes: b(3) },
      ],
      'ab'.repeat(32),
      b(9, 9),
    )
    expect(r.sequenceId).toBe(6n)
    expect(r.entries).toBe(3)
    expect(JSON.parse(r.bundle)).toEqual({
      inbox_id: 'ab'.repeat(32),
      updates: [
        { sequence_id: '1', update_hex: '0102' },
        { sequence_id: '5', update_hex: '03' },
        { sequence_id: '6', update_hex: '0909' },
      ],
    })
  })
  it('starts a new log at sequence id 1', () => {
    const r = appendToBundle([], null, b(7))
    expect(r.sequenceId).toBe(1n)
    expect(JSON.parse(r.bundle)).toEqual({ updates: [{ sequence_id: '1', update_hex: '07' }] })
  })
  it('refuses a log with an entry that has no bytes, naming it', () => {
    expect(() => appendToBundle([{ sequenceId: 2n, bytes: null }], null, b(1))).toThrow(AppendError)
    expect(() => appendToBundle([{ sequenceId: 2n, bytes: null }], null, b(1))).toThrow(
      /sequence id 2 carries no bytes/,
    )
    expect(() => appendToBundle([], null, b())).toThrow(/no bytes/)
  })
})
