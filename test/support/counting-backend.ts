/** The noble verify backend with its signature checks counted: work observed, never timed. */
import type { VerifyBackend } from '../../src/crypto/backend'
import { nobleBackend } from '../../src/crypto/noble-backend'

/** A backend that verifies as nobleBackend does, and how many EIP-191 recoveries and Ed25519ph checks it ran. */
export function countingBackend(): { backend: VerifyBackend; count: () => number } {
  let n = 0
  return {
    count: () => n,
    backend: {
      ...nobleBackend,
      recoverEip191: (sig, digest) => {
        n++
        return nobleBackend.recoverEip191(sig, digest)
      },
      verifyEd25519ph: (sig, message, pk, ctx) => {
        n++
        return nobleBackend.verifyEd25519ph(sig, message, pk, ctx)
      },
    },
  }
}
