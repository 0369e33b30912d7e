/**
 * The verification backend switch: the three signature verifications of spec section 4
 * (erc_191 recovery, passkey P-256, installation_key Ed25519ph) and the Keccak-256 of the
 * EIP-191 personal-message hash, behind one interface, so that the core picks an
 * implementation without knowing any library.
 *
 * - `nobleBackend` (./noble-backend): @noble/curves and @noble/hashes, the reference.
 * - `loadFastBackend()`: native or WebAssembly paths, each measured against noble first
 *   (bench/primitives.bench.ts) and kept only where it wins:
 *     P-256 verify        WebCrypto `crypto.subtle.verify` (./p256-webcrypto); in Node
 *                         OpenSSL, through the native addon first, else node:crypto (./p256-node)
 *     secp256k1 recovery  libsecp256k1 in WASM, built here (./secp256k1-wasm, ./wasm); in
 *                         Node the native addon's build of it first (./native-crypto, ./native)
 *     Ed25519ph [S]B-[k]A ref10's double-scalar multiplication in WASM, built here
 *                         (./ed25519ph-wasm, ./wasm); in Node libsodium's on 51-bit limbs in
 *                         the native addon first; hashing and checks stay noble's code
 *     Keccak-256, SHA-256, SHA-512  XKCP, libsecp256k1's and orlp's, in WASM built here
 *                         (./wasm-hashes, ./wasm)
 *   Measured per CPU-second in Node 20 (V8 11): secp256k1 recovery 5×, Ed25519ph 5×,
 *   P-256 23×, Keccak-256 10×, SHA-2 2×; on a mixed signature set 5.6×. In Chromium 159,
 *   whose BigInt arithmetic makes noble 2-3× faster than in Node 20, the WASM curve paths
 *   win 1.2-1.7×, WebCrypto 5-11×, the hashes 3-9×, the mix 2× (numbers in the report of
 *   e2e/primitives-perf.spec.ts; the machine was shared, so each is a best round).
 *   Every fast path gives noble's verdict, signer, replay key and error for every input
 *   (the *.test.ts beside them prove it with property tests and the edge vectors).
 *   WebCrypto's digest is not used for SHA-256: it is asynchronous and several times
 *   slower than noble on inputs this small (a signature text, a client data JSON).
 *   Batch Ed25519 verification is not used. A batch checks one random linear combination
 *   [8](sum z_i S_i B - sum z_i R_i - sum z_i k_i A_i) = O: it decodes R (so a non-canonical
 *   spelling of R passes, while the fixed equation compares R's bytes), and the factor 8
 *   erases torsion (so the mixed-order-key vector of ed25519ph.test.ts passes, while the
 *   cofactorless equation rejects it). Without the factor 8 the torsion parts of a bad
 *   signature cancel for about 1 in 8 choices of z, so even a cofactorless batch accepts
 *   what single verification rejects. Making its verdicts identical would need, per
 *   signature, a canonical-R check and a prime-order check of A and R (an [L]P = O
 *   scalar multiplication each, more than the single verification costs), and it would
 *   still be a probabilistic (1 in L) agreement, not an identity. The speed comes from
 *   the WASM point arithmetic above, the verification pool and the verdict cache instead.
 *
 * `loadFastBackend` never throws: a primitive whose fast path cannot load (no WebCrypto,
 * WASM refused by a Content-Security-Policy, a missing module) stays noble's, and
 * `primitives` records which implementation each primitive uses and why.
 */
import { recoverWithStep, type Eip191Recovery, type Keccak256, type Secp256k1Recover } from './eip191-checks'
import { verifyWithCombine, type Ed25519phCombine, type Ed25519phMessage, type Sha512 } from './ed25519ph-checks'
import type { P256Verification } from './p256-checks'
import { errorMessage } from './errors'

export type PrimitiveName = 'secp256k1-recover' | 'p256-verify' | 'ed25519ph-verify' | 'keccak256' | 'sha256'

export interface PrimitiveImpl {
  /** The implementation in use, e.g. '@noble/curves' or 'WebCrypto'. */
  readonly impl: string
  /** Why a fast path was not used (absent when it is, and on the noble backend). */
  readonly fallback?: string
}

export interface VerifyBackend {
  /** 'noble', or 'fast' (some primitives may still be noble's: see `primitives`). */
  readonly name: 'noble' | 'fast'
  readonly primitives: Readonly<Record<PrimitiveName, PrimitiveImpl>>
  /** EIP-191 recovery from the personal-message hash (./eip191 `recoverEip191Digest`). */
  recoverEip191(sig: Uint8Array, digest: Uint8Array): Promise<Eip191Recovery>
  /** DER P-256 over SHA-256(message), either half of s (./p256 `verifyP256Der`). */
  verifyP256Der(der: Uint8Array, message: Uint8Array, sec1PublicKey: Uint8Array): Promise<P256Verification>
  /** Ed25519ph, ed25519-dalek `verify_prehashed` semantics (./ed25519ph `verifyEd25519ph`). */
  verifyEd25519ph(
    signature: Uint8Array,
    message: Ed25519phMessage,
    publicKey: Uint8Array,
    context: Uint8Array,
  ): Promise<boolean>
  /** Keccak-256, synchronous (the personal-message hash). */
  keccak256(b: Uint8Array): Uint8Array
  /** SHA-256, synchronous (the passkey client data hash). */
  sha256(b: Uint8Array): Uint8Array
  /** SHA-512, synchronous (the Ed25519ph prehash of a signature text). */
  sha512(b: Uint8Array): Uint8Array
}

/**
 * The reference implementations (./noble-backend's modules, @noble/curves), loaded the
 * first time a fast path leaves a verdict to them: a primitive whose fast path did not
 * load, or an input a fast path declines. The checks every path shares come from the
 * ./*-checks modules, which hold no curve code.
 */
const reference = {
  eip191: () => import('./eip191'),
  ed25519ph: () => import('./ed25519ph'),
  p256: () => import('./p256'),
  keccak: async () => (await import('./keccak')).keccak256,
  sha2: () => import('./hash'),
}

/**
 * What a loader that chooses between implementations loaded: the function, the name of the
 * implementation, and why a faster one was not used (absent when the first choice loaded).
 */
export interface Chosen<T> {
  readonly fn: T
  readonly impl: string
  readonly fallback?: string
}

/**
 * The loaders of the fast paths (replaceable in tests to exercise the fallbacks). A loader
 * returns its function, or a `Chosen` one when it picks between implementations, so
 * `primitives` names the one in use.
 */
export interface FastLoaders {
  p256(): Promise<VerifyBackend['verifyP256Der'] | Chosen<VerifyBackend['verifyP256Der']>>
  secp256k1(): Promise<Secp256k1Recover | Chosen<Secp256k1Recover>>
  ed25519(): Promise<Ed25519phCombine | Chosen<Ed25519phCombine>>
  hashes(): Promise<{
    readonly keccak256: Keccak256
    readonly sha256: (b: Uint8Array) => Uint8Array
    readonly sha512: Sha512
  }>
}

/** True in Node (the command line, its workers, the local node, tests), false in a browser. */
export function isNode(): boolean {
  const host = globalThis as { process?: { versions?: { node?: unknown } } }
  return typeof host.process?.versions?.node === 'string'
}

export const NODE_P256 = 'OpenSSL (node:crypto)'
export const WASM_SECP256K1 = 'libsecp256k1 (WASM, built from secp256k1@5.0.2: src/crypto/wasm)'
export const WASM_ED25519 = 'ref10 double-scalar multiplication (WASM, built from ed25519@0.0.5: src/crypto/wasm)'

/** The native addon's loaders (./native-crypto), Node only: imported once for both curves. */
let nativeModule: Promise<typeof import('./native-crypto')> | undefined
const nativeCrypto = () => (nativeModule ??= import('./native-crypto'))

/** In Node, `native` unless it fails to load, then `other` with the reason; elsewhere `other`. */
async function nativeFirst<T>(
  native: () => Promise<Chosen<T>>,
  other: () => Promise<T>,
  otherImpl: string,
): Promise<Chosen<T>> {
  if (!isNode()) return { fn: await other(), impl: otherImpl }
  const n = await attempt(native)
  if ('ok' in n) return n.ok
  return { fn: await other(), impl: otherImpl, fallback: n.reason }
}

export const defaultFastLoaders: FastLoaders = {
  async p256() {
    // Node: node:crypto's synchronous verify (./p256-node: WebCrypto there is a thread-pool job per call).
    if (isNode()) {
      return nativeFirst(
        async () => {
          const { loadNativeP256Verify, NATIVE_P256 } = await nativeCrypto()
          return { fn: await loadNativeP256Verify(), impl: NATIVE_P256 }
        },
        async () => {
          const { loadNodeCrypto, nodeP256Verifier } = await import('./p256-node')
          return nodeP256Verifier(await loadNodeCrypto())
        },
        NODE_P256,
      )
    }
    const { hostSubtle, webCryptoP256Verifier } = await import('./p256-webcrypto')
    const subtle = hostSubtle()
    if (!subtle) throw new Error('this runtime has no globalThis.crypto.subtle')
    return { fn: webCryptoP256Verifier(subtle), impl: 'WebCrypto' }
  },
  secp256k1: () =>
    nativeFirst(
      async () => {
        const { loadNativeSecp256k1Recover, NATIVE_SECP256K1 } = await nativeCrypto()
        return { fn: await loadNativeSecp256k1Recover(), impl: NATIVE_SECP256K1 }
      },
      async () => (await import('./secp256k1-wasm')).loadWasmSecp256k1Recover(),
      WASM_SECP256K1,
    ),
  ed25519: () =>
    nativeFirst(
      async () => {
        const { loadNativeEd25519Combine, NATIVE_ED25519 } = await nativeCrypto()
        return { fn: await loadNativeEd25519Combine(), impl: NATIVE_ED25519 }
      },
      async () => (await (await import('./ed25519ph-wasm')).loadWasmEd25519Combine()).combine,
      WASM_ED25519,
    ),
  async hashes() {
    const { loadWasmHashes } = await import('./wasm-hashes')
    return loadWasmHashes()
  },
}

async function attempt<T>(load: () => Promise<T>): Promise<{ ok: T } | { reason: string }> {
  try {
    return { ok: await load() }
  } catch (e) {
    return { reason: errorMessage(e) }
  }
}

/** A loader's result as a `Chosen` (a bare function: its implementation is named by the caller). */
function chosen<T extends (...args: never[]) => unknown>(r: T | Chosen<T>): Chosen<T> | { fn: T; impl?: undefined } {
  return typeof r === 'function' ? { fn: r } : r
}

/** What `primitives` says of a curve loader's result: its implementation (or `named`), or noble's and why. */
function chosenImpl(
  r: { ok: { impl?: string; fallback?: string } } | { reason: string },
  named: string,
): PrimitiveImpl {
  if (!('ok' in r)) return { impl: '@noble/curves', fallback: `${named} unavailable: ${r.reason}` }
  const { impl = named, fallback } = r.ok
  return fallback ? { impl, fallback } : { impl }
}

/**
 * Builds a fast backend from `loaders`, each primitive falling back to noble (with the
 * reason recorded in `primitives`) when its loader fails. Never throws.
 *
 * Every loader is awaited: each is one small WebAssembly module or a built-in (in Node,
 * 2-12 ms each, the hashes' module under 1 ms; see the bench's "load" line). Until this
 * session the hashes came from hash-wasm, 216 KB of JavaScript holding base64 WebAssembly
 * (about 100 ms of a start), so they were not awaited and noble hashed meanwhile.
 */
export async function buildFastBackend(loaders: FastLoaders = defaultFastLoaders): Promise<VerifyBackend> {
  const [p256, secp, ed, hashes] = await Promise.all([
    attempt(async () => chosen(await loaders.p256())),
    attempt(async () => chosen(await loaders.secp256k1())),
    attempt(async () => chosen(await loaders.ed25519())),
    attempt(loaders.hashes),
  ])
  const used = (fast: string, r: { ok: unknown } | { reason: string }, noble = '@noble/curves'): PrimitiveImpl =>
    'ok' in r ? { impl: fast } : { impl: noble, fallback: `${fast} unavailable: ${r.reason}` }
  const { keccak256, sha512, sha256 } =
    'ok' in hashes ? hashes.ok : { keccak256: await reference.keccak(), ...(await reference.sha2()) }
  const hashImpl = used(WASM_HASHES, hashes, '@noble/hashes')
  const recover = 'ok' in secp ? secp.ok.fn : undefined
  const combine = 'ok' in ed ? ed.ok.fn : undefined
  const primitives = {
    'secp256k1-recover': chosenImpl(secp, WASM_SECP256K1),
    'p256-verify': chosenImpl(p256, isNode() ? NODE_P256 : 'WebCrypto'),
    'ed25519ph-verify': chosenImpl(ed, WASM_ED25519),
    keccak256: hashImpl,
    sha256: hashImpl,
  }
  return {
    name: 'fast',
    primitives,
    recoverEip191: recover ? fastRecoverEip191(recover, keccak256) : referenceRecoverEip191(keccak256),
    verifyP256Der:
      'ok' in p256
        ? p256.ok.fn
        : async (der, message, key) => (await reference.p256()).verifyP256Der(der, message, key),
    verifyEd25519ph: combine ? fastVerifyEd25519ph(combine, sha512) : referenceVerifyEd25519ph(sha512),
    keccak256,
    sha256,
    sha512,
  }
}

/** noble's EIP-191 recovery with the backend's Keccak-256. */
const referenceRecoverEip191 =
  (keccak: Keccak256): VerifyBackend['recoverEip191'] =>
  async (sig, digest) =>
    (await reference.eip191()).recoverEip191Digest(sig, digest, { keccak })

/** ./eip191 `recoverEip191Digest` with a faster recovery step: when the step throws, noble recovers (or says why not, same message). */
function fastRecoverEip191(recover: Secp256k1Recover, keccak: Keccak256): VerifyBackend['recoverEip191'] {
  const slow = referenceRecoverEip191(keccak)
  return async (sig, digest) => recoverWithStep(recover, sig, digest, keccak) ?? slow(sig, digest)
}

/** noble's Ed25519ph verification with the backend's SHA-512. */
const referenceVerifyEd25519ph =
  (sha512: Sha512): VerifyBackend['verifyEd25519ph'] =>
  async (sig, message, key, context) =>
    (await reference.ed25519ph()).verifyEd25519ph(sig, message, key, context, sha512)

/** ./ed25519ph `verifyEd25519phWith`: noble verifies what `combine` declines (and S >= L). */
function fastVerifyEd25519ph(combine: Ed25519phCombine, sha512: Sha512): VerifyBackend['verifyEd25519ph'] {
  const slow = referenceVerifyEd25519ph(sha512)
  return async (sig, message: Ed25519phMessage, key, context) =>
    verifyWithCombine(combine, sig, message, key, context, sha512) ?? slow(sig, message, key, context)
}

/** The name `primitives` gives the hashes of ./wasm-hashes. */
export const WASM_HASHES = 'XKCP Keccak, libsecp256k1 SHA-256, orlp SHA-512 (WASM, built here: src/crypto/wasm)'

let shared: Promise<VerifyBackend> | undefined

/**
 * The fast backend of this realm (a page, a worker, a Node process), loaded once and
 * shared. Never throws; see `primitives` for what it uses.
 */
export function loadFastBackend(): Promise<VerifyBackend> {
  return (shared ??= buildFastBackend())
}
