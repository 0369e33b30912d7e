/**
 * The compiled WebAssembly modules of the fast backend (./wasm: built from C sources by
 * ./wasm/build.mjs, committed), compiled once per realm from their raw bytes:
 *
 * - in a browser (and a Vite-built worker), `new URL(..., import.meta.url)` is a Vite asset
 *   URL and the module is compiled while it downloads (`WebAssembly.compileStreaming`; the
 *   bytes are never base64 or gzip inside JavaScript). A response without the
 *   application/wasm type falls back to compiling its bytes.
 * - in Node (the command line, its worker threads, tsx, vitest) the URL is a file: URL
 *   next to the module or the bundle (scripts/build-cli.mjs copies ./wasm/*.wasm beside the
 *   bundle) and the bytes are read from disk.
 * - a module compiled elsewhere and posted here (`provideWasmModule`): the browser's replay
 *   worker compiles each module once and posts the compiled WebAssembly.Module to its
 *   verification workers (src/worker/pool.ts), which neither fetch nor compile it.
 */
import { nodeBuiltin } from './node-builtin'

export type WasmName = 'secp256k1' | 'ed25519' | 'hashes'

/** A compiled module (WebAssembly.Module), opaque here. */
export type WasmModule = object

/** An instance's exports, as a primitive module declares them. */
export interface WasmInstance {
  readonly exports: unknown
}

/**
 * The WebAssembly API, typed here as far as it is used: the core's tsconfig has neither the
 * DOM nor the Node library, and Node's types do not declare it.
 */
interface WasmApi {
  compile(bytes: Uint8Array | ArrayBuffer): Promise<WasmModule>
  compileStreaming?(source: Promise<Response>): Promise<WasmModule>
  instantiate(module: WasmModule, imports: Record<string, unknown>): Promise<WasmInstance>
}

function wasmApi(): WasmApi {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
  if (!api) throw new Error('this runtime has no WebAssembly')
  return api
}

/**
 * The current bytes of an instance's memory: one view, made again only after the memory
 * grew (growing detaches the buffer, and a view of a detached buffer has no bytes). A view
 * per call was a large part of the wrappers' cost on the replay's few thousand calls.
 */
export function memoryView(memory: { readonly buffer: ArrayBuffer }): () => Uint8Array {
  let view = new Uint8Array(memory.buffer)
  return () => {
    if (view.byteLength === 0) view = new Uint8Array(memory.buffer)
    return view
  }
}

/** Instantiates `module` with no imports (the primitives are freestanding). */
export async function instantiateWasm(module: WasmModule): Promise<WasmInstance> {
  return wasmApi().instantiate(module, {})
}

const URLS: Record<WasmName, () => URL> = {
  secp256k1: () => new URL('./wasm/secp256k1.wasm', import.meta.url),
  ed25519: () => new URL('./wasm/ed25519.wasm', import.meta.url),
  hashes: () => new URL('./wasm/hashes.wasm', import.meta.url),
}

const compiled = new Map<WasmName, Promise<WasmModule>>()

async function compileFrom(url: URL): Promise<WasmModule> {
  if (url.protocol === 'file:') {
    // Node only (./node-builtin: no static import for browser bundlers or the core's types).
    // Synchronous: tens of kilobytes from the page cache.
    const fs = await nodeBuiltin<{ readFileSync(u: URL): Uint8Array }>('node:fs')
    return wasmApi().compile(fs.readFileSync(url))
  }
  const api = wasmApi()
  if (typeof api.compileStreaming === 'function') {
    try {
      return await api.compileStreaming(fetch(url))
    } catch (e) {
      // A server that does not send application/wasm: compile the bytes instead.
      if (!(e instanceof TypeError)) throw e
    }
  }
  const res = await fetch(url)
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`)
  return api.compile(await res.arrayBuffer())
}

/**
 * Uses `module` (a WebAssembly.Module compiled in another realm and posted here) as this
 * realm's module `name`, unless one is compiled or compiling already.
 */
export function provideWasmModule(name: WasmName, module: WasmModule): void {
  if (!compiled.has(name)) compiled.set(name, Promise.resolve(module))
}

/** The compiled module `name`, compiled once per realm (or as provided). */
export function wasmModule(name: WasmName): Promise<WasmModule> {
  let m = compiled.get(name)
  if (!m) {
    m = compileFrom(URLS[name]())
    compiled.set(name, m)
    // A failed compile is not cached: the next load tries again.
    m.catch(() => compiled.delete(name))
  }
  return m
}
