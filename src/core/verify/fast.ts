/**
 * The verification context of the fast path: the crypto backend a verification worker
 * (or the local node, or the command line's own thread) loads once: src/crypto's fast
 * backend (`loadFastBackend`), whose primitives fall back to noble one by one.
 */
import { loadFastBackend } from '../../crypto/backend'
import type { UpdateVerifyOptions } from './update'

export interface LoadedContext {
  readonly ctx: UpdateVerifyOptions
  /** The backend's name, for the benchmark and the pool's stats. */
  readonly backend: string
}

/** Loads the fast backend once per thread; never throws (a backend that cannot load falls back to noble). */
export function fastContext(): Promise<LoadedContext> {
  // src/crypto/backend.ts: WebCrypto P-256, WASM secp256k1 / Ed25519 point arithmetic / hashes,
  // each falling back to noble on its own (see `crypto.primitives` for what loaded and why not).
  return (loaded ??= loadFastBackend().then((crypto) => ({ ctx: { crypto }, backend: crypto.name })))
}

let loaded: Promise<LoadedContext> | undefined
