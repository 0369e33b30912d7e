// The only host globals the pure core uses: UTF-8 codecs, present in every
// JavaScript runtime the project targets (browsers, workers, Node 20). Declared
// here so the core's tsconfig can leave out both the DOM and Node type libraries.
interface TextDecoderOptions {
  fatal?: boolean
  ignoreBOM?: boolean
}
declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions)
  decode(input?: Uint8Array): string
}
/** Cancellation of a replay between updates. */
interface AbortSignal {
  readonly aborted: boolean
  readonly reason: unknown
  throwIfAborted(): void
}
/**
 * WebCrypto, only as far as src/crypto/p256-webcrypto.ts uses it: ECDSA P-256 'raw' key
 * import and verify. Present in browsers, workers and Node 20, but the code feature-detects
 * `globalThis.crypto?.subtle` and falls back to noble without it.
 */
interface CryptoKey {
  readonly type: string
}
interface SubtleCrypto {
  importKey(
    format: 'raw',
    keyData: Uint8Array<ArrayBuffer>,
    algorithm: { readonly name: 'ECDSA'; readonly namedCurve: 'P-256' },
    extractable: boolean,
    keyUsages: 'verify'[],
  ): Promise<CryptoKey>
  verify(
    algorithm: { readonly name: 'ECDSA'; readonly hash: 'SHA-256' },
    key: CryptoKey,
    signature: Uint8Array<ArrayBuffer>,
    data: Uint8Array<ArrayBuffer>,
  ): Promise<boolean>
}
interface Crypto {
  readonly subtle: SubtleCrypto
}
declare var crypto: Crypto | undefined
/**
 * URL, fetch and import.meta.url, only as far as src/crypto/wasm-module.ts and
 * the WASM primitives beside it use them: present in browsers, workers and Node 20; the
 * fast backend falls back to noble when one is missing or refused.
 */
declare class URL {
  constructor(url: string, base?: string | URL)
  readonly href: string
  readonly protocol: string
  readonly pathname: string
}
interface Response {
  readonly ok: boolean
  readonly status: number
  arrayBuffer(): Promise<ArrayBuffer>
}
declare function fetch(url: URL | string): Promise<Response>
// WebAssembly is reached through globalThis with the types of src/crypto/wasm-module.ts.
interface ImportMeta {
  readonly url: string
}
