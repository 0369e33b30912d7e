import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../crypto/bytes'
import { KeyPackageError, MAX_KEY_PACKAGE_BYTES, readKeyPackage } from './keypackage'
import { credentialInboxId } from './mls'

/** A key package libxmtp 1.10 uploaded to the local node (cipher suite 3), captured once. */
const REAL = hexToBytes(
  readFileSync(new URL('../../test/devnode/fixtures/libxmtp-key-package.hex', import.meta.url), 'utf8').trim(),
)
const INSTALLATION = '966dacb5f6bca30eab9eeda06600b375b5e4e6f62a98708fdbf416bd28e2a260'
const INBOX = '62a0b110129a81e3e4e27bc5762f4b18339b8fce8ac9de7c6f8227322e884eab'

/** A time inside the captured package's lifetime. */
const NOW = readKeyPackage(REAL, 0n).notBefore + 60n

const rule = (bytes: Uint8Array, now = NOW): string => {
  try {
    readKeyPackage(bytes, now)
    return 'accepted'
  } catch (e) {
    if (e instanceof KeyPackageError) return e.rule
    throw e
  }
}

describe('readKeyPackage', () => {
  it("reads libxmtp's key package: version, suite, the installation key, the credential's inbox", () => {
    const kp = readKeyPackage(REAL, NOW)
    expect(kp.version).toBe(1)
    expect(kp.cipherSuite).toBe(3)
    expect(bytesToHex(kp.installationKey)).toBe(INSTALLATION)
    expect(credentialInboxId(kp.credentialIdentity)).toBe(INBOX)
    expect(kp.keyPackage).toEqual(REAL)
  })

  it('reads the same key package wrapped in an MLSMessage (wire format 5)', () => {
    const wrapped = new Uint8Array([0, 1, 0, 5, ...REAL])
    expect(bytesToHex(readKeyPackage(wrapped, NOW).installationKey)).toBe(INSTALLATION)
    expect(readKeyPackage(wrapped, NOW).keyPackage).toEqual(REAL)
  })

  it('KP-001: an empty or oversized key package', () => {
    expect(rule(new Uint8Array())).toBe('KP-001')
    expect(rule(new Uint8Array(MAX_KEY_PACKAGE_BYTES + 1))).toBe('KP-001')
  })

  it('KP-002: truncated, or with bytes after the signature', () => {
    expect(rule(REAL.subarray(0, REAL.length - 1))).toBe('KP-002')
    expect(rule(REAL.subarray(0, 40))).toBe('KP-002')
    expect(rule(new Uint8Array([...REAL, 0]))).toBe('KP-002')
  })

  it('KP-003: another protocol version', () => {
    const v2 = new Uint8Array(REAL)
    v2[1] = 2
    expect(rule(v2)).toBe('KP-003')
  })

  it('KP-004: a cipher suite that does not sign with Ed25519', () => {
    const p256 = new Uint8Array(REAL)
    p256[3] = 2
    expect(rule(p256)).toBe('KP-004')
  })

  it('KP-005: a lifetime that is over', () => {
    const kp = readKeyPackage(REAL, NOW)
    expect(rule(REAL, kp.notAfter + 1n)).toBe('KP-005')
  })

  it('KP-007: a signature that does not verify (any flipped bit of the signed part or the signature)', () => {
    for (const at of [10, REAL.length - 70, REAL.length - 1]) {
      const bad = new Uint8Array(REAL)
      bad[at]! ^= 0x01
      expect([`at ${at}`, rule(bad)]).toEqual([`at ${at}`, 'KP-007'])
    }
  })
})

describe('credentialInboxId', () => {
  it('is null for an identity that is not an MlsCredential naming a 64-hex inbox', () => {
    expect(credentialInboxId(new Uint8Array([0x0a, 0x02, 0x61, 0x62]))).toBeNull()
    expect(credentialInboxId(new Uint8Array([0xff]))).toBeNull()
  })
})
