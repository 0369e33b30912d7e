/**
 * The reference backend: @noble/curves and @noble/hashes, nothing to load. Its own module,
 * so that code which only uses the fast backend (./backend) does not load noble's curves.
 */
import type { PrimitiveImpl, VerifyBackend } from './backend'
import { recoverEip191Digest } from './eip191'
import { verifyEd25519ph } from './ed25519ph'
import { sha256, sha512 } from './hash'
import { keccak256 } from './keccak'
import { verifyP256Der } from './p256'

const NOBLE_CURVES: PrimitiveImpl = { impl: '@noble/curves' }

export const nobleBackend: VerifyBackend = {
  name: 'noble',
  primitives: {
    'secp256k1-recover': NOBLE_CURVES,
    'p256-verify': NOBLE_CURVES,
    'ed25519ph-verify': NOBLE_CURVES,
    keccak256: { impl: '@noble/hashes' },
    sha256: { impl: '@noble/hashes' },
  },
  recoverEip191: async (sig, digest) => recoverEip191Digest(sig, digest),
  verifyP256Der: async (der, message, key) => verifyP256Der(der, message, key),
  verifyEd25519ph: async (sig, message, key, context) => verifyEd25519ph(sig, message, key, context),
  keccak256,
  sha256,
  sha512,
}
