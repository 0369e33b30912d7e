import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ed25519, ed25519ctx, ed25519ph } from '@noble/curves/ed25519.js'
import { bytesToHex, concatBytes, hexToBytes, utf8 } from './bytes'
import {
  ed25519PublicKey,
  IDENTITY_UPDATE_CONTEXT,
  randomSecretKey,
  signEd25519ph,
  verifyEd25519ph,
  verifyEd25519phWith,
} from './ed25519ph'
import { defaultFastLoaders } from './backend'
import { loadSodiumCombine } from './ed25519ph-sodium'
import { CryptoError } from './errors'
import { ED25519_L } from './ed25519ph-checks'
import { CREATE_INBOX_TEXT, codeOf } from './support.testkit'

const CTX = IDENTITY_UPDATE_CONTEXT
const L = ed25519.Point.Fn.ORDER
const le32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0')).reverse()
const leToBig = (b: Uint8Array) => BigInt(`0x${bytesToHex(b.slice().reverse())}`)

// RFC 8032 §7.3, "TEST abc" (Ed25519ph, empty context).
const RFC = {
  sk: hexToBytes('833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42'),
  pk: hexToBytes('ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf'),
  message: hexToBytes('616263'),
  sig: hexToBytes(
    '98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae41' +
      '31f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406',
  ),
}

// toolchain.md §6: sk = 32 × 0x11, the 253-byte create-inbox text, context IDENTITY UPDATE SIGNATURE.
const TEXT = CREATE_INBOX_TEXT
const XMTP = {
  sk: new Uint8Array(32).fill(0x11),
  pk: hexToBytes('d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737'),
  message: utf8(TEXT),
  sig: hexToBytes(
    '6b1a9c1ed81d7b63f49d348698ac0b3cd041fbd31caee39407a1e8994ed90b1f' +
      '35da860784b20add5ca5cc75720b411c5b5cb8c519bb97987c3be21d73c3720d',
  ),
}

const nobleStrict = (sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) =>
  ed25519ph.verify(sig, msg, pk, { context: CTX, zip215: false })
const nobleZip215 = (sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) =>
  ed25519ph.verify(sig, msg, pk, { context: CTX, zip215: true })

describe('IDENTITY_UPDATE_CONTEXT', () => {
  it('is the UTF-8 bytes of IDENTITY UPDATE SIGNATURE (spec section 4)', () => {
    expect(new TextDecoder().decode(IDENTITY_UPDATE_CONTEXT)).toBe('IDENTITY UPDATE SIGNATURE')
    expect(IDENTITY_UPDATE_CONTEXT.length).toBe(25)
  })
})

describe('ed25519PublicKey', () => {
  it('RFC 8032 §7.3 and the 32×0x11 vector', () => {
    expect(ed25519PublicKey(RFC.sk)).toEqual(RFC.pk)
    expect(ed25519PublicKey(XMTP.sk)).toEqual(XMTP.pk)
  })
  it('rejects a secret key that is not 32 bytes', () => {
    expect(codeOf(() => ed25519PublicKey(new Uint8Array(31)))).toBe('bad-length')
    expect(codeOf(() => ed25519PublicKey(new Uint8Array(64)))).toBe('bad-length')
  })
})

describe('signEd25519ph', () => {
  it('RFC 8032 §7.3 Ed25519ph "abc" with the empty context', () => {
    expect(signEd25519ph(RFC.sk, RFC.message, new Uint8Array())).toEqual(RFC.sig)
  })
  it('the 32×0x11 vector under IDENTITY UPDATE SIGNATURE', () => {
    expect(signEd25519ph(XMTP.sk, XMTP.message, CTX)).toEqual(XMTP.sig)
  })
  it('depends on the context: pure Ed25519 and empty-context Ed25519ph differ', () => {
    expect(signEd25519ph(XMTP.sk, XMTP.message, new Uint8Array())).not.toEqual(XMTP.sig)
    expect(ed25519.sign(XMTP.message, XMTP.sk)).not.toEqual(XMTP.sig)
  })
  it('rejects a bad secret key or an over-long context', () => {
    expect(codeOf(() => signEd25519ph(new Uint8Array(33), XMTP.message, CTX))).toBe('bad-length')
    expect(codeOf(() => signEd25519ph(XMTP.sk, XMTP.message, new Uint8Array(256)))).toBe('bad-context')
  })
})

describe('randomSecretKey', () => {
  it('returns distinct 32-byte keys that sign and verify', () => {
    const a = randomSecretKey()
    const b = randomSecretKey()
    expect(a.length).toBe(32)
    expect(a).not.toEqual(b)
    const m = utf8('hello')
    expect(verifyEd25519ph(signEd25519ph(a, m, CTX), m, ed25519PublicKey(a), CTX)).toBe(true)
  })
})

// The edge vectors of verifyEd25519ph run against noble and against the fast backend's path
// (libsodium point arithmetic, the WASM SHA-512 of ./wasm-hashes), composed as ./backend composes them.
const sodium = await loadSodiumCombine()
const wasmHashes = await defaultFastLoaders.hashes()
const VERIFIERS = [
  ['noble', verifyEd25519ph],
  [
    'fast (libsodium WASM + WASM SHA-512)',
    (sig: Uint8Array, m: Uint8Array, pk: Uint8Array, ctx: Uint8Array) =>
      verifyEd25519phWith(sodium.combine, sig, m, pk, ctx, wasmHashes.sha512),
  ],
] as const

describe.each(VERIFIERS)('verifyEd25519ph — %s', (_name, verifyEd25519ph) => {
  /** Our verdict, with an undecodable key counted as a rejection (noble returns false there). */
  function oursOrFalse(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array, ctx = CTX): boolean {
    try {
      return verifyEd25519ph(sig, msg, pk, ctx)
    } catch (e) {
      if (e instanceof CryptoError && e.code === 'bad-point') return false
      throw e
    }
  }

  describe('valid', () => {
    it('RFC 8032 §7.3 Ed25519ph "abc" (empty context)', () => {
      expect(verifyEd25519ph(RFC.sig, RFC.message, RFC.pk, new Uint8Array())).toBe(true)
    })
    it('the 32×0x11 vector under IDENTITY UPDATE SIGNATURE', () => {
      expect(verifyEd25519ph(XMTP.sig, XMTP.message, XMTP.pk, CTX)).toBe(true)
    })
    it('agrees with noble ed25519ph.verify (zip215: false) on random valid signatures (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 300 }), (sk, m) => {
          const pk = ed25519PublicKey(sk)
          const sig = signEd25519ph(sk, m, CTX)
          expect(verifyEd25519ph(sig, m, pk, CTX)).toBe(true)
          expect(nobleStrict(sig, m, pk)).toBe(true)
        }),
        { numRuns: 50 },
      )
    })
  })

  describe('invalid', () => {
    it.each([
      ['another message', XMTP.sig, utf8(`${TEXT} `), XMTP.pk, CTX],
      ['the empty context', XMTP.sig, XMTP.message, XMTP.pk, new Uint8Array()],
      ['another context', XMTP.sig, XMTP.message, XMTP.pk, utf8('IDENTITY UPDATE SIGNATURE.')],
      ['another key', XMTP.sig, XMTP.message, RFC.pk, CTX],
      ['the RFC vector under a context', RFC.sig, RFC.message, RFC.pk, CTX],
      ['a pure Ed25519 signature', ed25519.sign(XMTP.message, XMTP.sk), XMTP.message, XMTP.pk, CTX],
      [
        'an Ed25519ctx signature (phflag 0, same context)',
        ed25519ctx.sign(XMTP.message, XMTP.sk, { context: CTX }),
        XMTP.message,
        XMTP.pk,
        CTX,
      ],
      ['R is not a point at all (y = 2)', concatBytes(le32(2n), XMTP.sig.subarray(32)), XMTP.message, XMTP.pk, CTX],
      ['all-zero signature', new Uint8Array(64), XMTP.message, XMTP.pk, CTX],
    ])('%s', (_, sig, m, pk, ctx) => {
      expect(verifyEd25519ph(sig, m, pk, ctx)).toBe(false)
    })
    it('agrees with noble ed25519ph.verify (zip215: false) on random corruptions (property)', () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.uint8Array({ maxLength: 100 }),
          fc.constantFrom('sig', 'msg', 'pk'),
          fc.nat(),
          fc.integer({ min: 0, max: 7 }),
          (sk, m, where, at, bit) => {
            const pk = ed25519PublicKey(sk)
            const sig = signEd25519ph(sk, m, CTX)
            const target = where === 'sig' ? sig : where === 'pk' ? pk : m
            if (target.length === 0) m = Uint8Array.of(1 << bit)
            else target[at % target.length]! ^= 1 << bit
            const ours = oursOrFalse(sig, m, pk)
            expect(ours).toBe(false)
            expect(ours).toBe(nobleStrict(sig, m, pk))
          },
        ),
        { numRuns: 150 },
      )
    })
  })

  describe('malformed input throws CryptoError', () => {
    it.each([
      ['63-byte signature', XMTP.sig.subarray(0, 63), XMTP.pk, CTX, 'bad-length'],
      ['65-byte signature', concatBytes(XMTP.sig, Uint8Array.of(0)), XMTP.pk, CTX, 'bad-length'],
      ['31-byte key', XMTP.sig, XMTP.pk.subarray(0, 31), CTX, 'bad-length'],
      ['33-byte key', XMTP.sig, concatBytes(XMTP.pk, Uint8Array.of(0)), CTX, 'bad-length'],
      // y = 2: (y² − 1)/(d·y² + 1) is not a square mod p. dalek fails at VerifyingKey::from_bytes;
      // noble's verify returns false. We throw so the caller can say "the key is not a point".
      ['key not on the curve (y = 2)', XMTP.sig, le32(2n), CTX, 'bad-point'],
      ['256-byte context', XMTP.sig, XMTP.pk, new Uint8Array(256), 'bad-context'],
    ])('%s', (_, sig, pk, ctx, code) => {
      expect(codeOf(() => verifyEd25519ph(sig, XMTP.message, pk, ctx))).toBe(code)
    })
    it('noble returns false for the off-curve key (for the record)', () => {
      expect(nobleZip215(XMTP.sig, XMTP.message, le32(2n))).toBe(false)
    })
    it('a 255-byte context is allowed', () => {
      const ctx = new Uint8Array(255).fill(7)
      const sig = signEd25519ph(XMTP.sk, XMTP.message, ctx)
      expect(verifyEd25519ph(sig, XMTP.message, XMTP.pk, ctx)).toBe(true)
    })
  })

  // Where dalek's cofactorless verify_prehashed and noble's verify disagree (or could).
  // Every vector is under CTX. Crafting: r0 = 0x1234567890abcdef, R0 = [r0]B; the small-order
  // point T8 (order 8) = c7176a70…ac037a; a = the secret scalar of the "real" and mixed keys.
  // `ours` is the reference verdict (ed25519-dalek 2.x verify_prehashed); the noble columns
  // document how noble's cofactored verify (strict / ZIP-215) judges the same bytes.
  describe('edge vectors (cofactorless dalek semantics vs noble)', () => {
    const IDENTITY = '0100000000000000000000000000000000000000000000000000000000000000'
    const T8 = 'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'
    const R0 = 'c4c1227d7fff941a976049ecefad7b663fa5121d769cbbd79a53d344e4773e98'
    const S0 = 'efcdab9078563412000000000000000000000000000000000000000000000000' // r0 little-endian
    const MIXED = 'bf24d0c343b42b0403f659db45a3c320140c78dd70719bd238c8574f9c1865aa' // [a]B + T8
    const REAL = '0be80521f1dec9622ecdeb37ee56504afbc1653414ed3be88612e23182220831' // [a]B

    const vectors: {
      name: string
      why: string
      sig: string
      pk: string
      msg: string
      ours: boolean
      strict: boolean
      zip215: boolean
    }[] = [
      {
        name: 'small-order key: the identity point (0100…00)',
        why: '[k]A = O for every k, so [S]B − [k]A = [r0]B = R: dalek accepts any message; noble strict refuses small-order keys',
        sig: R0 + S0,
        pk: IDENTITY,
        msg: 'edge: identity key',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'small-order key: the identity point, S = 0, R = identity',
        why: 'the trivial forgery: [0]B − [k]O = O encodes to 0100…00 = R, for every message',
        sig: IDENTITY + '00'.repeat(32),
        pk: IDENTITY,
        msg: 'edge: identity key, zero S',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'small-order key: an order-8 point, k ≡ 0 (mod 8)',
        why: 'message chosen so that k ≡ 0 mod 8, hence [k]T8 = O and [S]B − [k]A = R0: dalek accepts',
        sig: R0 + S0,
        pk: T8,
        msg: 'edge: order-8 key 9',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'small-order key: an order-8 point, torsion in R, k ≢ 0 (mod 8)',
        why: 'R = R0 + T8 and k ≡ 7 (mod 8), so [S]B − [k]T8 = R0 + T8 = R exactly: R is never decoded or checked for torsion',
        sig: `c2ecc2af9bfefd06ee0f9cbb9adf4abda71f6a01db3f1a78458754856f6bd5c4${S0}`,
        pk: T8,
        msg: 'edge: order-8 key, torsion in R 1',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'mixed-order key [a]B + T8, k ≢ 0 (mod 8): THE disagreement',
        why: 'S = r0 + k·a, so [S]B − [k]A = R0 − [k]T8 ≠ R0: cofactorless rejects; the cofactored check (×8) kills [k]T8, so noble accepts even in strict mode (the key is not small-order)',
        sig: `${R0}27354dbe38bc9ecc6bf419754c0d8636d25dd1f76471cf5b912113dc7dc1ed0d`,
        pk: MIXED,
        msg: 'edge: mixed-order key 0',
        ours: false,
        strict: true,
        zip215: true,
      },
      {
        name: 'mixed-order key [a]B + T8, k ≡ 0 (mod 8)',
        why: 'the torsion term [k]T8 vanishes, both equations hold: everyone accepts',
        sig: `${R0}47afe4d9b6fdcf728f9c23d044dbb142c811f4fb881f401d1662e40526439e03`,
        pk: MIXED,
        msg: 'edge: mixed-order key 2',
        ours: true,
        strict: true,
        zip215: true,
      },
      {
        name: 'non-canonical R: the identity as y = p + 1 (eeff…7f)',
        why: 'S = k·a makes [S]B − [k]A = O, whose canonical encoding 0100…00 ≠ R bytes: dalek rejects; noble ZIP-215 decodes R as O and accepts',
        sig:
          'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f' +
          '14e8906f3e8104e1941f284cc296271d6e96355ded86aee58668439dbfe19e0a',
        pk: REAL,
        msg: 'edge: non-canonical R',
        ours: false,
        strict: false,
        zip215: true,
      },
      {
        name: 'non-canonical R: the identity with the sign bit set (0100…80)',
        why: 'x = 0 with sign bit 1 is a second spelling of O; the recomputed R encodes as 0100…00 ≠ R bytes: dalek rejects',
        sig:
          '0100000000000000000000000000000000000000000000000000000000000080' +
          '6173a0d1cf56a6c26d79512b5552f5216cc204bfd45cad3e53cd5b9c50dd9102',
        pk: REAL,
        msg: 'edge: non-canonical R',
        ours: false,
        strict: false,
        zip215: true,
      },
      {
        name: 'non-canonical key: the identity as y = p + 1 (eeff…7f)',
        why: 'curve25519-dalek decompress takes y mod p, so the key decodes (to O) and the signature verifies as for 0100…00; noble strict refuses y ≥ p',
        sig: R0 + S0,
        pk: 'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
        msg: 'edge: non-canonical identity key',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'non-canonical key: the identity with the sign bit set (0100…80)',
        why: 'dalek decompress negates x = 0 to 0 and accepts; noble strict refuses x = 0 with sign bit 1',
        sig: R0 + S0,
        pk: '0100000000000000000000000000000000000000000000000000000000000080',
        msg: 'edge: non-canonical identity key',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'non-canonical key: an order-4 point as y = p (edff…7f), k hashed from the bytes as given',
        why: 'R = R0 + [j]A4 with k + j ≡ 0 (mod 4) for k hashed over edff…7f; see the next test for the canonical spelling',
        sig: `293edd8280006be5689fb61310528499c05aede28963442865ac2cbb1b88c167${S0}`,
        pk: 'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
        msg: 'edge: non-canonical order-4 key 2',
        ours: true,
        strict: false,
        zip215: true,
      },
      {
        name: 'the same order-4 point spelled canonically (0000…00), same signature',
        why: 'k is hashed over the key bytes as given, so a re-encoded key gives another k (here k + j ≢ 0 mod 4): dalek rejects; the cofactored check ignores the torsion and ZIP-215 noble accepts',
        sig: `293edd8280006be5689fb61310528499c05aede28963442865ac2cbb1b88c167${S0}`,
        pk: '00'.repeat(32),
        msg: 'edge: non-canonical order-4 key 2',
        ours: false,
        strict: false,
        zip215: true,
      },
    ]

    it.each(vectors)('$name', ({ sig, pk, msg, ours, strict, zip215 }) => {
      const s = hexToBytes(sig)
      const k = hexToBytes(pk)
      const m = utf8(msg)
      expect(verifyEd25519ph(s, m, k, CTX)).toBe(ours)
      expect(nobleStrict(s, m, k)).toBe(strict)
      expect(nobleZip215(s, m, k)).toBe(zip215)
    })

    it('the crafted keys are what they claim', () => {
      const P = ed25519.Point
      const dec = (h: string) => P.fromBytes(hexToBytes(h), true)
      expect(dec(IDENTITY).is0()).toBe(true)
      expect(dec(T8).isSmallOrder()).toBe(true)
      expect(dec(T8).multiplyUnsafe(4n).is0()).toBe(false) // order exactly 8
      expect(dec(MIXED).isSmallOrder()).toBe(false)
      expect(dec(MIXED).isTorsionFree()).toBe(false)
      expect(dec(MIXED).subtract(dec(T8)).equals(dec(REAL))).toBe(true)
      expect(dec(REAL).isTorsionFree()).toBe(true)
      expect(dec('eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f').is0()).toBe(true)
      expect(dec('0100000000000000000000000000000000000000000000000000000000000080').is0()).toBe(true)
      expect(dec('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f').toHex()).toBe('00'.repeat(32))
      expect(P.BASE.multiply(0x1234567890abcdefn).toHex()).toBe(R0)
    })

    it('non-canonical S (S + L) is rejected by everyone', () => {
      // dalek: Scalar::from_canonical_bytes fails. S + L < 2^253, so it fits the 32 bytes.
      const S = leToBig(XMTP.sig.subarray(32))
      const sig = concatBytes(XMTP.sig.subarray(0, 32), le32(S + L))
      expect(verifyEd25519ph(sig, XMTP.message, XMTP.pk, CTX)).toBe(false)
      expect(nobleStrict(sig, XMTP.message, XMTP.pk)).toBe(false)
      expect(nobleZip215(sig, XMTP.message, XMTP.pk)).toBe(false)
    })
    it('S = L is rejected (the smallest non-canonical S)', () => {
      const sig = concatBytes(XMTP.sig.subarray(0, 32), le32(L))
      expect(verifyEd25519ph(sig, XMTP.message, XMTP.pk, CTX)).toBe(false)
    })
    it('S ≥ 2^253 (top three bits set) is rejected by everyone', () => {
      // dalek without legacy_compatibility: not canonical. With it, `bytes[31] & 224 != 0` fails too.
      const sig = XMTP.sig.slice()
      sig[63]! |= 0xe0
      expect(verifyEd25519ph(sig, XMTP.message, XMTP.pk, CTX)).toBe(false)
      expect(nobleStrict(sig, XMTP.message, XMTP.pk)).toBe(false)
      expect(nobleZip215(sig, XMTP.message, XMTP.pk)).toBe(false)
    })
    it('the valid vector with R re-spelled non-canonically (sign bit flipped) is rejected', () => {
      // Flipping the sign bit of R names −R (a different point), so the recomputed R differs.
      const sig = XMTP.sig.slice()
      sig[31]! ^= 0x80
      expect(verifyEd25519ph(sig, XMTP.message, XMTP.pk, CTX)).toBe(false)
      expect(nobleStrict(sig, XMTP.message, XMTP.pk)).toBe(false)
    })
  })
})

describe('the fast path behind the vectors above', () => {
  it('ran valid signatures through libsodium and declined the crafted edge cases to noble', () => {
    // Both counters move: the equivalence above is not only noble agreeing with itself.
    expect(sodium.stats.sodium).toBeGreaterThan(50)
    expect(sodium.stats.declined).toBeGreaterThan(5)
  })
})

describe('ED25519_L', () => {
  it("is noble's ed25519 group order", () => {
    expect(ED25519_L).toBe(ed25519.Point.Fn.ORDER)
  })
})
