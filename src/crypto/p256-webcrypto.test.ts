import { describe, expect, it } from 'vitest'
import { utf8 } from './bytes'
import { p256PublicKey, signP256Der } from './p256'
import { expectSameAsNoble } from './p256-equivalence.testkit'
import { hostSubtle, webCryptoP256Verifier } from './p256-webcrypto'

const subtle = hostSubtle()!
const verify = webCryptoP256Verifier(subtle)

describe('hostSubtle', () => {
  it('finds Node 20 WebCrypto', () => {
    expect(subtle).not.toBeNull()
  })
})

describe('webCryptoP256Verifier ≡ verifyP256Der (noble)', () => {
  it('same verdict, replay key and error on random mixes of valid and invalid signatures (property)', async () => {
    await expectSameAsNoble(verify, 400)
  })
})

describe('webCryptoP256Verifier key cache', () => {
  const SK = new Uint8Array(32).fill(7)
  const MSG = utf8('cache')
  const counting = () => {
    let imports = 0
    const s: typeof subtle = {
      ...subtle,
      importKey: ((...a: Parameters<typeof subtle.importKey>) => (
        imports++, subtle.importKey(...a)
      )) as typeof subtle.importKey,
      verify: subtle.verify.bind(subtle),
    }
    return { s, imports: () => imports }
  }
  it('imports a key once however often it verifies, compressed and uncompressed spellings apart', async () => {
    const c = counting()
    const v = webCryptoP256Verifier(c.s)
    for (let i = 0; i < 5; i++) expect((await v(signP256Der(SK, MSG), MSG, p256PublicKey(SK))).valid).toBe(true)
    expect((await v(signP256Der(SK, MSG), MSG, p256PublicKey(SK, true))).valid).toBe(true)
    expect(c.imports()).toBe(2)
  })
  it('does not cache a bad key: it throws bad-point every time', async () => {
    const c = counting()
    const v = webCryptoP256Verifier(c.s)
    const bad = p256PublicKey(SK).slice()
    bad[64]! ^= 1
    for (let i = 0; i < 2; i++)
      await expect(v(signP256Der(SK, MSG), MSG, bad)).rejects.toMatchObject({ code: 'bad-point' })
    expect(c.imports()).toBe(0)
  })
  it("an unexpected WebCrypto failure gives noble's verdict, never a wrong one", async () => {
    const broken: typeof subtle = {
      ...subtle,
      importKey: subtle.importKey.bind(subtle),
      verify: (async () => {
        throw new Error('engine failure')
      }) as typeof subtle.verify,
    }
    const v = webCryptoP256Verifier(broken)
    expect((await v(signP256Der(SK, MSG), MSG, p256PublicKey(SK))).valid).toBe(true)
    expect((await v(signP256Der(SK, MSG), utf8('other'), p256PublicKey(SK))).valid).toBe(false)
  })
})
