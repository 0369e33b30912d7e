/**
 * The fast backend's native addon in Node (./native: built by ./native/build.mjs at `npm ci`,
 * not committed): libsecp256k1's recovery with the 5x52 field on 128-bit products, and
 * Ed25519ph's [S]B - [k]A on libsodium's 51-bit-limb field. Both are the steps the WebAssembly
 * modules do (./secp256k1-wasm, ./ed25519ph-wasm), from the same or equivalent sources, at
 * about twice their speed; every check around them stays in ./eip191 and ./ed25519ph.
 *
 * Loaded by path beside this module (src/crypto/native/ under tsx and vitest; dist-cli/native/
 * in the command line's bundle, which scripts/build-cli.mjs copies it to), through Node's
 * require. A missing or unloadable addon rejects with the reason, and ./backend uses the
 * WebAssembly modules instead.
 */
import { checkCombineInputs, type Ed25519phCombine } from './ed25519ph-checks'
import { checkRecoverInputs, type Secp256k1Recover } from './eip191-checks'
import { errorMessage } from './errors'
import { nodeBuiltin } from './node-builtin'
import { openSslP256Verifier } from './p256-node'
import type { P256Verify } from './p256-webcrypto'

/** The addon's exports (./native/inbox-crypto.c). */
interface InboxCryptoAddon {
  recover(rs: Uint8Array, digest: Uint8Array, recid: number): Uint8Array | null
  combine(S: Uint8Array, k: Uint8Array, key: Uint8Array): Uint8Array | null
  /** Present when the build found Node's OpenSSL headers (./native/p256-native.c). */
  p256Key?(uncompressed: Uint8Array): unknown
  p256Verify?(key: unknown, message: Uint8Array, rs: Uint8Array): boolean
}

/** Where the addon is, relative to this module (a variable: browser bundlers must not treat it as an asset). */
const ADDON = './native/inbox-crypto.node'

export const NATIVE_SECP256K1 = 'libsecp256k1 (native addon, built from secp256k1@5.0.2: src/crypto/native)'
export const NATIVE_ED25519 = 'libsodium 1.0.16 double-scalar multiplication (native addon: src/crypto/native)'
export const NATIVE_P256 = "OpenSSL (Node's, through the native addon: src/crypto/native)"

let addon: Promise<InboxCryptoAddon> | undefined

/** The addon, loaded once per thread; rejects (and is tried again next time) when it cannot load. */
function loadAddon(): Promise<InboxCryptoAddon> {
  addon ??= (async () => {
    const [{ createRequire }, { fileURLToPath }] = await Promise.all([
      nodeBuiltin<{ createRequire(from: string): (id: string) => unknown }>('node:module'),
      nodeBuiltin<{ fileURLToPath(url: URL): string }>('node:url'),
    ])
    const url = new URL(ADDON, import.meta.url)
    if (url.protocol !== 'file:') throw new Error(`the native addon loads only from a file, not ${url.protocol}`)
    const path = fileURLToPath(url)
    try {
      return createRequire(path)(path) as InboxCryptoAddon
    } catch (e) {
      const why = (e as { code?: string }).code === 'MODULE_NOT_FOUND' ? 'it is not built' : errorMessage(e)
      throw new Error(`native addon ${path}: ${why} (node src/crypto/native/build.mjs builds it)`)
    }
  })()
  addon.catch(() => {
    addon = undefined
  })
  return addon
}

/** libsecp256k1's recovery step (the contract of ./secp256k1-wasm's: throws when no key recovers). */
export async function loadNativeSecp256k1Recover(): Promise<Secp256k1Recover> {
  const { recover } = await loadAddon()
  return (rs, rec, digest) => {
    checkRecoverInputs(rs, digest)
    const key = recover(rs, digest, rec)
    if (key === null) throw new Error('libsecp256k1 recovery: no public key recovers from this signature')
    return key
  }
}

/** Ed25519ph's point step (the contract of ./ed25519ph-wasm's: null when the key decodes to no point). */
export async function loadNativeEd25519Combine(): Promise<Ed25519phCombine> {
  const { combine } = await loadAddon()
  return (sBytes, kBytes, publicKey) => {
    checkCombineInputs('native', sBytes, kBytes, publicKey)
    return combine(sBytes, kBytes, publicKey)
  }
}

/**
 * P-256 verification through the addon's OpenSSL calls, with ./p256-node's checks and key
 * cache (`openSslP256Verifier`); rejects when the addon was built without OpenSSL.
 */
export async function loadNativeP256Verify(): Promise<P256Verify> {
  const { p256Key, p256Verify } = await loadAddon()
  if (!p256Key || !p256Verify) throw new Error("the native addon was built without OpenSSL (Node's headers had none)")
  return openSslP256Verifier({ importKey: p256Key, verify: p256Verify })
}
