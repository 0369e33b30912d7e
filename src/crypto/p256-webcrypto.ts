/**
 * ECDSA P-256 verification through WebCrypto (`crypto.subtle.verify`, W3C Web Cryptography
 * API §23): BoringSSL in Chromium, OpenSSL in Node. The same verification as ./p256's
 * `verifyP256Der`, with the work split so that only the curve arithmetic is native:
 *
 * - the DER signature is parsed strictly by ./p256-checks (same errors, same order), and
 *   its low-s twin r || s (IEEE P1363, the form WebCrypto takes) is what is verified,
 *   as noble verifies it; WebCrypto itself accepts either half of s and hashes the
 *   message with SHA-256, as `prehash: true` does;
 * - the SEC1 key (compressed or uncompressed) is checked and decompressed by ./p256-checks
 *   when it is a curve point, else by noble (./p256, loaded then: it throws 'bad-point'),
 *   and imported uncompressed as 'raw', which every WebCrypto
 *   accepts (compressed 'raw' import is optional in the spec). Imported keys are cached
 *   per key bytes, so a key's check and import are paid once;
 * - r and s are in [1, n-1] before WebCrypto sees them, and for such inputs ECDSA
 *   verification has one answer (FIPS 186-5 §6.4.2): the verdict is noble's. An
 *   unexpected WebCrypto failure (not a verdict) falls back to noble for that call.
 */
import { bytesToHex } from './bytes'
import { parseP256Signature, uncompressedP256Key, type P256Verification } from './p256-checks'

/** The reference (@noble/curves), loaded for what the checks and WebCrypto leave to it. */
const reference = () => import('./p256')

type Subtle = NonNullable<typeof globalThis.crypto>['subtle']
type Key = Awaited<ReturnType<Subtle['importKey']>>

/** The host's SubtleCrypto, or null when it has none (an old runtime, a non-secure context). */
export function hostSubtle(): Subtle | null {
  const c = (globalThis as { crypto?: { subtle?: Subtle } }).crypto
  return c?.subtle && typeof c.subtle.verify === 'function' && typeof c.subtle.importKey === 'function'
    ? c.subtle
    : null
}

const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const

/** Bound on cached keys: a log names a handful of passkeys; the bound only stops unbounded growth. */
const KEY_CACHE_LIMIT = 4096

export type P256Verify = (der: Uint8Array, message: Uint8Array, sec1PublicKey: Uint8Array) => Promise<P256Verification>

/**
 * A verifier over `subtle`, with its own key cache. Throws exactly what `verifyP256Der`
 * throws for malformed input; answers what it answers otherwise.
 */
export function webCryptoP256Verifier(subtle: Subtle): P256Verify {
  const keys = new Map<string, Promise<Key>>()
  const keyFor = (sec1: Uint8Array): Promise<Key> => {
    const id = bytesToHex(sec1)
    let key = keys.get(id)
    if (!key) {
      // A key the checks leave to noble: its parse (throws CryptoError 'bad-point', not cached).
      const checked = uncompressedP256Key(sec1)
      const raw = checked
        ? Promise.resolve(checked)
        : reference().then(({ p256UncompressedKey }) => p256UncompressedKey(sec1))
      key = raw.then((r) => subtle.importKey('raw', r as Uint8Array<ArrayBuffer>, ECDSA_P256, false, ['verify']))
      if (keys.size >= KEY_CACHE_LIMIT) keys.clear()
      keys.set(id, key)
      key.catch(() => keys.delete(id))
    }
    return key
  }
  return async (der, message, sec1PublicKey) => {
    const sig = parseP256Signature(der) // throws 'bad-der' / 'scalar-out-of-range' first, as verifyP256Der
    let valid: boolean
    try {
      const key = await keyFor(sec1PublicKey)
      valid = await subtle.verify(ECDSA_SHA256, key, sig.lowS as Uint8Array<ArrayBuffer>, new Uint8Array(message))
    } catch {
      // A bad key ('bad-point', thrown by noble's own check) or a failed WebCrypto call: noble's answer.
      return (await reference()).verifyP256Der(der, message, sec1PublicKey)
    }
    return { valid, r: sig.r, s: sig.s, lowS: sig.lowS, highS: sig.highS }
  }
}
