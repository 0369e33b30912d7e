import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadWasmEd25519Combine } from './ed25519ph-wasm'
import { memoryView, provideWasmModule, wasmModule } from './wasm-module'

/** The WebAssembly API as far as used here (the core's tsconfig, which checks this file, has no DOM library). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<object> } }).WebAssembly

describe('provideWasmModule (a module compiled in another realm: src/worker/pool.ts)', () => {
  it('is the module this realm uses, instead of compiling its own, and a later one does not replace it', async () => {
    const bytes = readFileSync(new URL('./wasm/ed25519.wasm', import.meta.url))
    const posted = await wasm.compile(bytes)
    provideWasmModule('ed25519', posted)
    expect(await wasmModule('ed25519')).toBe(posted)
    provideWasmModule('ed25519', await wasm.compile(bytes))
    expect(await wasmModule('ed25519')).toBe(posted)
    // The provided module instantiates and computes: the combine of S = 0, k = 0 is the identity (0x01, 0…).
    const { combine } = await loadWasmEd25519Combine()
    const identity = new Uint8Array(32)
    identity[0] = 1
    const basePoint = new Uint8Array(32).fill(0x66)
    basePoint[0] = 0x58
    expect(Array.from(combine(new Uint8Array(32), new Uint8Array(32), basePoint)!)).toEqual(Array.from(identity))
  })
})

describe("memoryView (the wrappers' view of an instance's memory)", () => {
  const Memory = (
    globalThis as unknown as {
      WebAssembly: { Memory: new (d: { initial: number }) => { buffer: ArrayBuffer; grow(n: number): number } }
    }
  ).WebAssembly.Memory

  it('gives the same view until the memory grows, then a view of the grown memory', () => {
    const memory = new Memory({ initial: 1 })
    const view = memoryView(memory)
    const first = view()
    first[10] = 7
    expect(view()).toBe(first)
    memory.grow(1) // detaches the old buffer
    expect(first.byteLength).toBe(0)
    const grown = view()
    expect(grown.byteLength).toBe(2 * 65536)
    expect(grown[10]).toBe(7)
    expect(view()).toBe(grown)
  })
})
