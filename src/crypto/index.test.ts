import { describe, expect, it } from 'vitest'
import * as crypto from './index'

describe('index', () => {
  it('re-exports the whole API of src/crypto', () => {
    const functions = [
      // bytes
      'hexToBytes',
      'bytesToHex',
      'utf8',
      'concatBytes',
      'equalBytes',
      'base64urlNoPad',
      'base64ToBytes',
      'bytesToBase64',
      'bytesToBase64url',
      // hash
      'sha256',
      'sha512',
      'keccak256',
      // eip191
      'personalMessageHash',
      'recoverEip191',
      'signEip191',
      'ethAddressFromPrivateKey',
      'ethAddressFromPublicKey',
      // ed25519ph
      'verifyEd25519ph',
      'signEd25519ph',
      'ed25519PublicKey',
      'randomSecretKey',
      // p256
      'verifyP256Der',
      'p256PublicKey',
      'signP256Der',
      // secp256k1-key
      'parsePrivateKey',
      'exportPrivateKeyHex',
      'exportPrivateKeyBytes',
      'randomPrivateKey',
      // errors
      'CryptoError',
      'errorMessage',
      // backend
      'loadFastBackend',
      'buildFastBackend',
      'recoverEip191Digest',
      'verifyEd25519phWith',
      'parseP256Signature',
      'p256UncompressedKey',
    ] as const
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the test walks the public surface by name
    for (const name of functions) expect(typeof crypto[name], name).toBe('function')
    expect(crypto.IDENTITY_UPDATE_CONTEXT).toBeInstanceOf(Uint8Array)
    expect(typeof crypto.SECP256K1_N).toBe('bigint')
    expect(crypto.nobleBackend.name).toBe('noble')
  })
})
