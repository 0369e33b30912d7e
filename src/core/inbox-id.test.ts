import { describe, expect, it } from 'vitest'
import { deriveInboxId } from './inbox-id'
import { sha256 } from '../crypto/hash'
import { bytesToHex, utf8 } from '../crypto/bytes'

describe('deriveInboxId', () => {
  it('IDENT-010: SHA-256 of the identifier text followed by the decimal nonce, lowercase hex', () => {
    const a = `0x${'11'.repeat(20)}`
    expect(deriveInboxId(a, 0n)).toBe(bytesToHex(sha256(utf8(`${a}0`))))
    expect(deriveInboxId(a, 18446744073709551615n)).toBe(bytesToHex(sha256(utf8(`${a}18446744073709551615`))))
    expect(deriveInboxId(a, 1n)).not.toBe(deriveInboxId(a, 0n))
    expect(deriveInboxId(a, 0n)).toMatch(/^[0-9a-f]{64}$/)
  })
  it('IDENT-010: refuses a nonce outside uint64', () => {
    expect(() => deriveInboxId('x', -1n)).toThrow(RangeError)
    expect(() => deriveInboxId('x', 1n << 64n)).toThrow(RangeError)
  })
})
