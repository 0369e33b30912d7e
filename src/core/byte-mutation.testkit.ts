/**
 * Random byte mutations of a valid input, for the property tests that feed the decoders
 * hostile bytes: bit flips, byte overwrites, truncations, insertions, deletions.
 */
import fc from 'fast-check'

export type ByteMutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; n: number }

/** One mutation; `inserted` draws what an insertion splices in; `overwrite` adds byte overwrites. */
export function byteMutation(options: {
  inserted: fc.Arbitrary<Uint8Array>
  overwrite: boolean
}): fc.Arbitrary<ByteMutation> {
  const arms: fc.Arbitrary<ByteMutation>[] = [
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    ...(options.overwrite
      ? [fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) })]
      : []),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: options.inserted }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 8 }) }),
  ]
  return fc.oneof(...arms)
}

/** `input` with the mutations applied in order (positions wrap around the current length); `input` is not changed. */
export function mutate(input: Uint8Array, ms: readonly ByteMutation[]): Uint8Array {
  let b = input
  for (const m of ms) {
    const at = b.length === 0 ? 0 : m.at % (b.length + 1)
    switch (m.kind) {
      case 'flip':
        b = b.slice()
        if (at < b.length) b[at]! ^= 1 << m.bit
        break
      case 'set':
        b = b.slice()
        if (at < b.length) b[at] = m.value
        break
      case 'truncate':
        b = b.slice(0, at)
        break
      case 'insert': {
        const out = new Uint8Array(b.length + m.bytes.length)
        out.set(b.subarray(0, at))
        out.set(m.bytes, at)
        out.set(b.subarray(at), at + m.bytes.length)
        b = out
        break
      }
      case 'delete':
        b = new Uint8Array([...b.subarray(0, at), ...b.subarray(at + m.n)])
        break
    }
  }
  return b
}
