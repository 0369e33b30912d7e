import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { bytesToHex, utf8 } from './bytes'
import { sha256, sha512 } from './hash'
import { keccak256 } from './keccak'

const hex = (b: Uint8Array) => bytesToHex(b)

describe.each([
  {
    name: 'sha256',
    hash: sha256,
    vectors: [
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'], // FIPS 180-2 B.1
    ],
  },
  {
    name: 'sha512',
    hash: sha512,
    vectors: [
      [
        '',
        'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
      ],
      [
        'abc',
        'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
      ], // FIPS 180-2 C.1
    ],
  },
])('$name', ({ name, hash, vectors }) => {
  it.each(vectors)('%j', (text, digest) => {
    expect(hex(hash(utf8(text)))).toBe(digest)
  })
  it('agrees with node:crypto (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(hex(hash(b))).toBe(createHash(name).update(b).digest('hex'))
      }),
    )
  })
})

describe('keccak256', () => {
  it.each([
    ['', 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'],
    ['abc', '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45'],
  ])('%j (Ethereum Keccak-256)', (text, digest) => {
    expect(hex(keccak256(utf8(text)))).toBe(digest)
  })
  it('is not FIPS 202 SHA3-256 (different padding)', () => {
    const sha3 = createHash('sha3-256').update('').digest('hex')
    expect(sha3).toBe('a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a')
    expect(hex(keccak256(new Uint8Array()))).not.toBe(sha3)
  })
})
