import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { bytesToHex, utf8 } from './bytes'
import { sha256, sha512 } from './hash'
import { keccak256 } from './keccak'
import { loadWasmHashes } from './wasm-hashes'

const wasm = await loadWasmHashes()

describe('loadWasmHashes', () => {
  it('Keccak-256 (Ethereum padding, not SHA3-256) of the empty string', () => {
    expect(bytesToHex(wasm.keccak256(new Uint8Array()))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    )
  })
  it('SHA-256 of "abc" (FIPS 180-4 example)', () => {
    expect(bytesToHex(wasm.sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })
  it('SHA-512 of "abc" (FIPS 180-4 example)', () => {
    expect(bytesToHex(wasm.sha512(utf8('abc')))).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    )
  })
  it('equals @noble/hashes on random inputs, across the block sizes, calls interleaved (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        const ka = wasm.keccak256(a)
        const sb = wasm.sha512(b)
        expect(bytesToHex(wasm.sha256(a))).toBe(bytesToHex(sha256(a)))
        expect(bytesToHex(wasm.keccak256(b))).toBe(bytesToHex(keccak256(b)))
        expect(bytesToHex(ka)).toBe(bytesToHex(keccak256(a)))
        expect(bytesToHex(sb)).toBe(bytesToHex(sha512(b)))
      }),
      { numRuns: 300 },
    )
  })
  it.each(['keccak256', 'sha256', 'sha512'] as const)(
    '%s returns a fresh array each call (a caller may keep or mutate it)',
    (name) => {
      const a = wasm[name](utf8('x'))
      const copy = a.slice()
      wasm[name](utf8('y')).fill(0)
      expect(a).toEqual(copy)
    },
  )
})

describe('loadWasmHashes, long messages', () => {
  it('grows its memory for a message larger than it holds, and hashes short ones after it', () => {
    const big = new Uint8Array(3 * 65536 + 17).map((_, i) => i * 31)
    expect(bytesToHex(wasm.keccak256(big))).toBe(bytesToHex(keccak256(big)))
    expect(bytesToHex(wasm.sha512(big))).toBe(bytesToHex(sha512(big)))
    expect(bytesToHex(wasm.sha256(utf8('abc')))).toBe(bytesToHex(sha256(utf8('abc'))))
    // Grown again, from a view made after the first growth; a digest outlives the next call.
    const bigger = new Uint8Array(7 * 65536 + 3).map((_, i) => i * 7)
    const first = wasm.sha256(bigger)
    expect(bytesToHex(wasm.keccak256(utf8('abc')))).toBe(bytesToHex(keccak256(utf8('abc'))))
    expect(bytesToHex(first)).toBe(bytesToHex(sha256(bigger)))
  })
})
