import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { exportLocalKey, importLocalKey } from './keys'

const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'

describe('importLocalKey', () => {
  it('IDENT-089: either hex case and 32 raw bytes restore the same Ethereum identifier', () => {
    const a = importLocalKey(KEY)
    expect(a.identifier).toBe('0x2c7536e3605d9c16a7a3d7b1898e529396a65c23')
    expect(importLocalKey(`0x${KEY.slice(2).toUpperCase()}`).identifier).toBe(a.identifier)
    expect(importLocalKey(exportLocalKey(a, 'bytes')).identifier).toBe(a.identifier)
  })
  it('IDENT-089: malformed keys are refused with a reason', () => {
    for (const bad of [
      '0x12',
      KEY.slice(2),
      `${KEY}00`,
      `0x${'0'.repeat(64)}`,
      `0x${'g'.repeat(64)}`,
      new Uint8Array(31),
      new Uint8Array(33),
    ]) {
      expect(() => importLocalKey(bad as string)).toThrow(/./)
    }
  })
})

describe('exportLocalKey', () => {
  it('IDENT-088: exports exactly 32 big-endian bytes or 0x + 64 lowercase hex, and round-trips', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => b.some((x) => x !== 0) && b[0]! < 0xff),
        (raw) => {
          const k = importLocalKey(raw)
          const hex = exportLocalKey(k, 'hex')
          const bytes = exportLocalKey(k, 'bytes')
          expect(hex).toMatch(/^0x[0-9a-f]{64}$/)
          expect(bytes).toHaveLength(32)
          expect(Buffer.from(bytes).toString('hex')).toBe(hex.slice(2))
          expect(importLocalKey(hex).identifier).toBe(k.identifier)
        },
      ),
      { numRuns: 40 },
    )
  })
})
