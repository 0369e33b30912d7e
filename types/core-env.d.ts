// The only host globals the pure core uses: UTF-8 codecs, present in every
// JavaScript runtime the project targets (browsers, workers, Node 20). Declared
// here so the core's tsconfig can leave out both the DOM and Node type libraries.
interface TextDecoderOptions { fatal?: boolean; ignoreBOM?: boolean }
declare class TextEncoder { encode(input?: string): Uint8Array<ArrayBuffer> }
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
