/**
 * SHA-256 and SHA-512 as the core calls them in the browser's workers, where the core's
 * `crypto/hash` import resolves to this module (vite.config.ts `installedHashes`): they call
 * the worker's verification backend's hashes (its WebAssembly SHA-2, or noble's when the fast
 * backend did not load or failed its known-answer round), installed by src/worker/ once the
 * backend is built. So @noble/hashes' SHA-2 loads in a worker only when that backend is
 * noble's (8 KB off the first screen). Everywhere else (Node, the page) the core imports
 * ./hash, noble's, directly.
 */
type Hash = (b: Uint8Array) => Uint8Array

let installed: { readonly sha256: Hash; readonly sha512: Hash } | null = null

/** Makes `sha256` and `sha512` below call `hashes` (the backend this worker verifies with). */
export function installHashes(hashes: { readonly sha256: Hash; readonly sha512: Hash }): void {
  installed = { sha256: hashes.sha256, sha512: hashes.sha512 }
}

function notLoaded(name: string): never {
  throw new Error(
    `${name} was called before this worker loaded its verification backend (src/crypto/hash-installed.ts)`,
  )
}

/** SHA-256 (32 bytes). */
export function sha256(b: Uint8Array): Uint8Array {
  return installed ? installed.sha256(b) : notLoaded('SHA-256')
}

/** SHA-512 (64 bytes). */
export function sha512(b: Uint8Array): Uint8Array {
  return installed ? installed.sha512(b) : notLoaded('SHA-512')
}
