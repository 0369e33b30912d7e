import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../crypto/bytes'
import { buildFastBackend, type VerifyBackend } from '../crypto/backend'
import { nobleBackend } from '../crypto/noble-backend'
import { ed25519PublicKey, IDENTITY_UPDATE_CONTEXT, signEd25519ph } from '../crypto/ed25519ph'
import { ethAddressFromPrivateKey, personalMessageHash, signEip191 } from '../crypto/eip191'
import { sha256 } from '../crypto/hash'
import { p256PublicKey, signP256Der } from '../crypto/p256'
import { MESSAGE, VECTORS, warmRound, warmUp } from './warm-up'

const SECRET = hexToBytes('0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20')
const clock = (): number => 0
const pause = (): Promise<void> => Promise.resolve()

describe('warm-up known-answer vectors (issue #13)', () => {
  it("are what this project's noble signers make from the fixed key and message", () => {
    expect(bytesToHex(signEip191(SECRET, MESSAGE))).toBe(bytesToHex(VECTORS.erc191.signature))
    expect(ethAddressFromPrivateKey(SECRET)).toBe(VECTORS.erc191.address)
    expect(bytesToHex(personalMessageHash(MESSAGE))).toBe(VECTORS.erc191.digest)
    expect(bytesToHex(signEd25519ph(SECRET, MESSAGE, IDENTITY_UPDATE_CONTEXT))).toBe(
      bytesToHex(VECTORS.ed25519ph.signature),
    )
    expect(bytesToHex(ed25519PublicKey(SECRET))).toBe(bytesToHex(VECTORS.ed25519ph.publicKey))
    expect(bytesToHex(signP256Der(SECRET, MESSAGE))).toBe(bytesToHex(VECTORS.p256.der))
    expect(bytesToHex(p256PublicKey(SECRET, true))).toBe(bytesToHex(VECTORS.p256.publicKey))
    expect(bytesToHex(sha256(MESSAGE))).toBe(VECTORS.sha256)
  })

  it('pass on noble and on the fast backend, for as many rounds as asked', async () => {
    expect(await warmRound(nobleBackend)).toBeNull()
    const fast = await buildFastBackend()
    expect(Object.values(fast.primitives).every((p) => p.fallback === undefined)).toBe(true)
    const r = await warmUp(fast, { rounds: 3, pause, now: clock })
    expect(r).toEqual({ rounds: 3, ms: 0 })
  })

  it('end after the round under way once real work arrives', async () => {
    let work = false
    const r = await warmUp(nobleBackend, {
      rounds: 10,
      stop: () => work,
      pause: async () => {
        work = true
      },
      now: clock,
    })
    expect(r.rounds).toBe(1)
    expect(r.mismatch).toBeUndefined()
  })

  const broken = (patch: Partial<VerifyBackend>): VerifyBackend => ({ ...nobleBackend, ...patch })

  it('report a backend that recovers another signer, accepts a tampered signature, or throws', async () => {
    const wrongKey = broken({
      recoverEip191: async (sig, digest) => ({
        ...(await nobleBackend.recoverEip191(sig, digest)),
        address: '0x0000000000000000000000000000000000000001',
      }),
    })
    expect(await warmRound(wrongKey)).toMatch(/^erc_191: recovered 0x0+1, expected 0x6370/)
    const acceptsAll = broken({ verifyEd25519ph: async () => true })
    expect(await warmRound(acceptsAll)).toMatch(/^installation_key \(Ed25519ph\): valid true, tampered true/)
    const p256Rejects = broken({
      verifyP256Der: async (der, m, k) => ({ ...(await nobleBackend.verifyP256Der(der, m, k)), valid: false }),
    })
    expect(await warmRound(p256Rejects)).toMatch(/^passkey \(P-256\): valid false/)
    const badHash = broken({ sha256: () => new Uint8Array(32) })
    expect(await warmRound(badHash)).toMatch(/^sha256: 0{64}, expected e29b/)
    const badKeccak = broken({ keccak256: () => new Uint8Array(32) })
    expect(await warmRound(badKeccak)).toMatch(/^keccak256: personal-message hash 0{64}/)
    const throws = broken({
      verifyEd25519ph: async () => {
        throw new Error('wasm trap')
      },
    })
    expect(await warmRound(throws)).toBe('a known-answer vector threw: wasm trap')
    const stopped = await warmUp(acceptsAll, { rounds: 5, pause, now: clock })
    expect(stopped.rounds).toBe(1)
    expect(stopped.mismatch).toMatch(/tampered true/)
  })
})
