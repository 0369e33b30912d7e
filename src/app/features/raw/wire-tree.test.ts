import { describe, expect, it } from 'vitest'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { encodeUpdate } from '../../../core/encode/update'
import { flatten, wireTree } from './wire-tree'

const ADDR = `0x${'ab'.repeat(20)}`

function legacyUpdate(): Uint8Array {
  // IdentityUpdate { actions: [ { create_inbox: { initial_identifier, initial_identifier_signature: Signature { #4 } } } ], inbox_id, #9 }
  const sig = new BinaryWriter()
    .tag(4, WireType.LengthDelimited)
    .bytes(new Uint8Array([1, 2, 3]))
    .finish()
  const create = new BinaryWriter()
    .tag(1, WireType.LengthDelimited)
    .string(ADDR)
    .tag(3, WireType.LengthDelimited)
    .bytes(sig)
    .finish()
  const action = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(create).finish()
  return new BinaryWriter()
    .tag(1, WireType.LengthDelimited)
    .bytes(action)
    .tag(3, WireType.LengthDelimited)
    .string('inbox')
    .tag(9, WireType.Varint)
    .uint32(7)
    .finish()
}

describe('wireTree', () => {
  it('names every field of a canonical update with byte ranges that tile the message', () => {
    const bytes = encodeUpdate({
      inboxId: 'cd'.repeat(32),
      clientTimestampNs: 1_700_000_000_000_000_000n,
      actions: [
        {
          kind: 'claim_handle',
          handle: 'alice',
          signature: {
            kind: 'installation_key',
            bytes: new Uint8Array(64).fill(7),
            publicKey: new Uint8Array(32).fill(9),
          },
        },
      ],
    })
    const t = wireTree(bytes)
    expect(t.problem).toBeNull()
    expect(t.nodes.map((n) => n.name)).toEqual(['actions', 'client_timestamp_ns', 'inbox_id'])
    expect(t.nodes[0]!.offset).toBe(0)
    expect(t.nodes.at(-1)!.end).toBe(bytes.length)
    for (let i = 1; i < t.nodes.length; i++) expect(t.nodes[i]!.offset).toBe(t.nodes[i - 1]!.end)
    const all = [...flatten(t.nodes)].map((x) => x.node)
    const handle = all.find((n) => n.path === 'actions[0].claim_handle.handle')!
    expect(handle.value).toBe('"alice"')
    expect(bytes[handle.valueOffset]).toBe('a'.charCodeAt(0))
    expect(all.find((n) => n.path === 'client_timestamp_ns')!.value).toBe('1700000000000000000')
    const pub = all.find((n) => n.path === 'actions[0].claim_handle.signature.installation_key.public_key')!
    expect(pub.end - pub.valueOffset).toBe(32)
    expect(all.every((n) => n.flags.length === 0)).toBe(true)
  })

  it('flags the retired Signature field 4 (IDENT-001) and unknown fields', () => {
    const t = wireTree(legacyUpdate())
    expect(t.problem).toBeNull()
    const all = [...flatten(t.nodes)].map((x) => x.node)
    const retired = all.find((n) => n.path === 'actions[0].create_inbox.initial_identifier_signature.#4')!
    expect(retired.flags).toEqual(['retired'])
    expect(retired.note).toMatch(/legacy delegated signature/)
    const unknown = all.find((n) => n.path === '#9')!
    expect(unknown.flags).toEqual(['unknown'])
    expect(unknown.value).toBe('7')
  })

  it('reports a truncated message with the offset where reading stopped, and never throws', () => {
    const bytes = legacyUpdate()
    const t = wireTree(bytes.subarray(0, bytes.length - 8))
    expect(t.problem).not.toBeNull()
    expect(t.problem!.detail).toMatch(/truncated/)
    for (let n = 0; n < bytes.length; n++) expect(() => wireTree(bytes.subarray(0, n))).not.toThrow()
  })

  it('flags a known field with the wrong wire type', () => {
    const bytes = new BinaryWriter().tag(3, WireType.Varint).uint32(5).finish() // inbox_id as a varint
    const t = wireTree(bytes)
    expect(t.nodes[0]!.flags).toContain('wrong-wire-type')
    expect(t.nodes[0]!.note).toMatch(/expected wire type length-delimited/)
  })
})
