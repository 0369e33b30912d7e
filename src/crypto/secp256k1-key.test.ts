import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { bytesToHex, hexToBytes } from './bytes'
import { ethAddressFromPrivateKey } from './eip191'
import { CryptoError } from './errors'
import {
  exportPrivateKeyBytes,
  exportPrivateKeyHex,
  parsePrivateKey,
  randomPrivateKey,
  SECP256K1_N,
} from './secp256k1-key'

const N_HEX = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'
const WEB3_KEY = '4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'
const WEB3_ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23'

function rejection(input: string | Uint8Array): string {
  try {
    parsePrivateKey(input)
  } catch (e) {
    expect(e).toBeInstanceOf(CryptoError)
    expect((e as CryptoError).code).toBe('bad-private-key')
    return (e as CryptoError).message
  }
  throw new Error('expected a rejection')
}

const fromN = (delta: bigint) => (SECP256K1_N + delta).toString(16).padStart(64, '0')

describe('SECP256K1_N', () => {
  it('is the secp256k1 group order', () => {
    expect(SECP256K1_N.toString(16)).toBe(N_HEX)
  })
})

describe('parsePrivateKey', () => {
  describe('valid (IDENT-089: either form, either case)', () => {
    it.each([
      [`0x${WEB3_KEY}`],
      [`0x${WEB3_KEY.toUpperCase()}`],
      [`0x${WEB3_KEY.slice(0, 32)}${WEB3_KEY.slice(32).toUpperCase()}`],
    ])('IDENT-089 hex %s restores the same account', (text) => {
      const sk = parsePrivateKey(text)
      expect(bytesToHex(sk)).toBe(WEB3_KEY)
      expect(ethAddressFromPrivateKey(sk)).toBe(WEB3_ADDRESS)
    })
    it('IDENT-089 32 big-endian bytes restore the same account, as a copy', () => {
      const input = hexToBytes(WEB3_KEY)
      const sk = parsePrivateKey(input)
      expect(sk).toEqual(input)
      expect(sk).not.toBe(input)
      expect(ethAddressFromPrivateKey(sk)).toBe(WEB3_ADDRESS)
    })
    it.each([
      ['1', `${'0'.repeat(63)}1`],
      ['n - 1', fromN(-1n)],
    ])('the range ends: %s', (_, hex) => {
      expect(bytesToHex(parsePrivateKey(`0x${hex}`))).toBe(hex)
      expect(bytesToHex(parsePrivateKey(hexToBytes(hex)))).toBe(hex)
    })
    it('IDENT-089 hex and bytes forms agree (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), (b, upper) => {
          const d = BigInt(`0x${bytesToHex(b)}`)
          fc.pre(d > 0n && d < SECP256K1_N)
          const hex = bytesToHex(b)
          expect(parsePrivateKey(`0x${upper ? hex.toUpperCase() : hex}`)).toEqual(parsePrivateKey(b))
        }),
      )
    })
  })
  describe('invalid', () => {
    it.each([
      ['31 bytes', new Uint8Array(31), /expected exactly 32 bytes, got 31/],
      ['33 bytes', new Uint8Array(33).fill(1), /expected exactly 32 bytes, got 33/],
      ['0 bytes', new Uint8Array(0), /expected exactly 32 bytes, got 0/],
      ['zero bytes', new Uint8Array(32), /the scalar is zero/],
      ['n as bytes', hexToBytes(N_HEX), /not below the secp256k1 group order n/],
      ['no 0x', WEB3_KEY, /missing the 0x prefix/],
      ['0X', `0X${WEB3_KEY}`, /lowercase 0x, got 0X/],
      ['empty', '', /not starting with 0x \(0 characters\)/],
      ['63 digits', `0x${WEB3_KEY.slice(1)}`, /expected exactly 64 hex digits after 0x, got 63/],
      ['65 digits', `0x0${WEB3_KEY}`, /expected exactly 64 hex digits after 0x, got 65/],
      ['bare 0x', '0x', /got 0/],
      ['non-hex', `0x${WEB3_KEY.slice(0, 10)}g${WEB3_KEY.slice(11)}`, /invalid hex character "g" at index 12/],
      ['space', `0x${WEB3_KEY} `, /invalid hex character " " at index 66/],
      ['zero', `0x${'0'.repeat(64)}`, /the scalar is zero/],
      ['n', `0x${N_HEX}`, /not below the secp256k1 group order n/],
      ['n + 1', `0x${fromN(1n)}`, /not below/],
      ['2^256 - 1', `0x${'f'.repeat(64)}`, /not below/],
    ])('%s', (_, input, message) => {
      expect(rejection(input)).toMatch(message)
    })
    it('a value of another type', () => {
      expect(rejection(123 as unknown as string)).toMatch(/expected a string or a Uint8Array, got number/)
    })
  })
})

describe('exportPrivateKeyHex', () => {
  it('IDENT-088 is 0x + 64 lowercase hex digits of the 32 big-endian bytes', () => {
    const sk = parsePrivateKey(`0x${WEB3_KEY.toUpperCase()}`)
    expect(exportPrivateKeyHex(sk)).toBe(`0x${WEB3_KEY}`)
    expect(exportPrivateKeyHex(parsePrivateKey(`0x${'0'.repeat(63)}1`))).toBe(`0x${'0'.repeat(63)}1`)
  })
  it('IDENT-088 round-trips through parsePrivateKey (property)', () => {
    fc.assert(
      fc.property(fc.constant(null), () => {
        const sk = randomPrivateKey()
        const hex = exportPrivateKeyHex(sk)
        expect(hex).toMatch(/^0x[0-9a-f]{64}$/)
        expect(parsePrivateKey(hex)).toEqual(sk)
      }),
      { numRuns: 20 },
    )
  })
  it('rejects an invalid key', () => {
    expect(() => exportPrivateKeyHex(new Uint8Array(32))).toThrow(/scalar is zero/)
  })
})

describe('exportPrivateKeyBytes', () => {
  it('IDENT-088 is exactly the 32 big-endian bytes, as a copy', () => {
    const sk = parsePrivateKey(`0x${WEB3_KEY}`)
    const out = exportPrivateKeyBytes(sk)
    expect(out.length).toBe(32)
    expect(bytesToHex(out)).toBe(WEB3_KEY)
    out[0] = 0
    expect(bytesToHex(sk)).toBe(WEB3_KEY)
  })
  it('rejects an invalid key', () => {
    expect(() => exportPrivateKeyBytes(new Uint8Array(31))).toThrow(/got 31/)
  })
})

describe('randomPrivateKey', () => {
  it('returns distinct valid 32-byte keys', () => {
    const a = randomPrivateKey()
    const b = randomPrivateKey()
    expect(a.length).toBe(32)
    expect(parsePrivateKey(a)).toEqual(a)
    expect(a).not.toEqual(b)
  })
})
