/**
 * A verification backend in one line, for a verification worker's `ready` message:
 * 'fast' when every primitive runs its fast path, else the primitives left on noble and
 * why; with the time the worker took to load it. And `timedBackend`: the same backend,
 * counting calls and the time each call holds the thread (for WebCrypto, the call's
 * own overhead: the verification itself runs off the thread).
 */
import type { VerifyBackend } from '../crypto/backend'

/** Calls and milliseconds per backend method. */
export type PrimitiveTimings = Record<string, { calls: number; ms: number }>

export function timedBackend(b: VerifyBackend, into: PrimitiveTimings, now: () => number): VerifyBackend {
  const count = (name: string, t0: number): void => {
    const t = (into[name] ??= { calls: 0, ms: 0 })
    t.calls++
    t.ms += now() - t0
  }
  const sync =
    <A extends unknown[], R>(name: string, f: (...a: A) => R) =>
    (...a: A): R => {
      const t0 = now()
      try {
        return f(...a)
      } finally {
        count(name, t0)
      }
    }
  // Timed to the return of the call: the synchronous work (WASM, noble), not the wait
  // for the answer, which, in a batch verified with Promise.all, includes the other calls.
  const async =
    <A extends unknown[], R>(name: string, f: (...a: A) => Promise<R>) =>
    (...a: A): Promise<R> => {
      const t0 = now()
      try {
        return f(...a)
      } finally {
        count(name, t0)
      }
    }
  return {
    name: b.name,
    // A getter: a backend's hashes switch to their fast path when it has loaded (src/crypto/backend.ts).
    get primitives() {
      return b.primitives
    },
    recoverEip191: async('secp256k1-recover', b.recoverEip191),
    verifyP256Der: async('p256-verify', b.verifyP256Der),
    verifyEd25519ph: async('ed25519ph-verify', b.verifyEd25519ph),
    keccak256: sync('keccak256', b.keccak256),
    sha256: sync('sha256', b.sha256),
    sha512: sync('sha512', b.sha512),
  }
}

export function describeBackend(backend: VerifyBackend | undefined, loadMs: number): string {
  if (!backend) return `noble (no backend given), loaded in ${Math.round(loadMs)} ms`
  const slow = Object.entries(backend.primitives).filter(([, p]) => p.fallback !== undefined)
  const what =
    backend.name === 'noble'
      ? 'noble'
      : slow.length === 0
        ? 'fast'
        : `fast except ${slow.map(([name, p]) => `${name} (${p.fallback})`).join(', ')}`
  return `${what}, loaded in ${Math.round(loadMs)} ms`
}
