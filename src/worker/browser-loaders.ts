/**
 * The fast backend's loaders in the browser's workers (./replay.worker.ts,
 * ./verify.worker.ts), imported statically: src/crypto/backend.ts `defaultFastLoaders`
 * imports each fast path dynamically, and in a worker each dynamic import is a request to
 * the server, made one after another, before the backend is ready. The hashes are a WASM
 * module too (src/crypto/wasm-hashes.ts, 43 KB, posted by the host like the curves).
 */
import { buildFastBackend, type FastLoaders, type VerifyBackend } from '../crypto/backend'
import { loadWasmEd25519Combine } from '../crypto/ed25519ph-wasm'
import { hostSubtle, webCryptoP256Verifier } from '../crypto/p256-webcrypto'
import { loadWasmSecp256k1Recover } from '../crypto/secp256k1-wasm'
import { installHashes } from '../crypto/hash-installed'
import { loadNobleBackend } from '../crypto/load-noble'
import { loadWasmHashes } from '../crypto/wasm-hashes'

/**
 * Builds the fast backend; the WASM paths wait for `modules` (a worker waits for the
 * modules its host posts: src/crypto/wasm-module.ts `provideWasmModule`).
 */
export function loadBrowserBackend(modules: Promise<void> = Promise.resolve()): Promise<VerifyBackend> {
  const loaders: FastLoaders = {
    async p256() {
      const subtle = hostSubtle()
      if (!subtle) throw new Error('this runtime has no globalThis.crypto.subtle')
      return webCryptoP256Verifier(subtle)
    },
    secp256k1: () => modules.then(() => loadWasmSecp256k1Recover()),
    ed25519: () => modules.then(async () => (await loadWasmEd25519Combine()).combine),
    hashes: () => modules.then(() => loadWasmHashes()),
  }
  return buildFastBackend(loaders).then(withHashesInstalled)
}

/** noble's backend (for a fast backend that failed its known-answer round), its hashes the core's. */
export async function loadNobleBackendInstalled(): Promise<VerifyBackend> {
  return withHashesInstalled(await loadNobleBackend())
}

/**
 * The core's SHA-256 and SHA-512 in this worker are the backend's (src/crypto/hash-installed.ts;
 * vite.config.ts builds the workers that way): installed before anything verifies or replays.
 */
function withHashesInstalled(backend: VerifyBackend): VerifyBackend {
  installHashes(backend)
  return backend
}
