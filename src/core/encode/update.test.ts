import { create, fromBinary, fromJson, toBinary } from '@bufbuild/protobuf'
import { describe, expect, it } from 'vitest'
import { GetIdentityUpdatesResponseSchema } from '../../gen/identity/api/v1/identity_pb'
import { IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { base64ToBytes, bytesToHex, concatBytes, equalBytes } from '../../crypto/bytes'
import { decodeUpdate } from '../decode/update'
import { readLogs } from '../decode/logs'
import type { WireAction } from '../types'
import { encodeBundleJson, encodeGetIdentityUpdatesResponse, encodeUpdate, toGatewayJson } from './update'
import { XMTPD_ROWS } from '../../../test/support/xmtpd-vectors'

const ROW_BYTES = XMTPD_ROWS.map((r) => r.bytes)

const ADDR = `0x${'11'.repeat(20)}`
const create1: WireAction = {
  kind: 'create_inbox',
  initialIdentifier: ADDR,
  nonce: 0n,
  initialIdentifierKind: 0,
  initialIdentifierSignature: { kind: 'erc_191', bytes: new Uint8Array(65).fill(1) },
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

describe('encodeUpdate', () => {
  it('produces the canonical encoding that decodes to the same value', () => {
    const u = { inboxId: 'ab'.repeat(32), clientTimestampNs: 1712750400000000000n, actions: [create1] }
    const b = encodeUpdate(u)
    expect(toBinary(IdentityUpdateSchema, fromBinary(IdentityUpdateSchema, b))).toEqual(b)
    const d = decodeUpdate(b)
    expect({ inboxId: d.inboxId, clientTimestampNs: d.clientTimestampNs, actions: d.actions }).toEqual(u)
  })

  it('re-encodes the real rows 1-7 byte for byte from their decoded values', () => {
    for (const bytes of ROW_BYTES.slice(0, 7)) {
      const d = decodeUpdate(bytes)
      expect(bytesToHex(encodeUpdate(d))).toBe(bytesToHex(bytes))
    }
  })

  it('keeps open enum values and optional fields as given', () => {
    const u = {
      inboxId: '',
      clientTimestampNs: 0n,
      actions: [{ ...create1, initialIdentifierKind: 7, relyingParty: '' } as WireAction],
    }
    const a = decodeUpdate(encodeUpdate(u)).actions[0]!
    expect(a.kind === 'create_inbox' && [a.initialIdentifierKind, a.relyingParty]).toEqual([7, ''])
  })
})

describe('encodeGetIdentityUpdatesResponse', () => {
  it('equals toBinary of the same response for canonical update bytes', () => {
    const logs = [
      { inboxId: 'a', updates: [{ sequenceId: 1n, serverTimestampNs: 5n, bytes: ROW_BYTES[0]! }] },
      {
        inboxId: 'b',
        updates: [
          { sequenceId: 2n, bytes: ROW_BYTES[1]! },
          { sequenceId: 3n, serverTimestampNs: 0n, bytes: ROW_BYTES[2]! },
        ],
      },
    ]
    const msg = create(GetIdentityUpdatesResponseSchema, {
      responses: logs.map((l) => ({
        inboxId: l.inboxId,
        updates: l.updates.map((u) => ({
          sequenceId: u.sequenceId,
          serverTimestampNs: 'serverTimestampNs' in u ? u.serverTimestampNs : 0n,
          update: fromBinary(IdentityUpdateSchema, u.bytes),
        })),
      })),
    })
    expect(encodeGetIdentityUpdatesResponse(logs)).toEqual(toBinary(GetIdentityUpdatesResponseSchema, msg))
  })

  it('splices non-canonical and malformed update bytes in unchanged', () => {
    const weird = concatBytes(new Uint8Array([0x1a, 0x01, 0x41]), ROW_BYTES[0]!) // inbox_id first, then the rest
    const broken = new Uint8Array([0x0a, 0x00, 0xff])
    const bin = encodeGetIdentityUpdatesResponse([
      {
        inboxId: 'x',
        updates: [
          { sequenceId: 1n, bytes: weird },
          { sequenceId: 2n, bytes: broken },
        ],
      },
    ])
    expect(indexOf(bin, weird)).toBeGreaterThan(0)
    const [log] = readLogs(bin)
    expect(equalBytes(log!.entries[0]!.update.bytes!, weird)).toBe(true)
    expect(equalBytes(log!.entries[1]!.update.bytes!, broken)).toBe(true)
  })

  it('writes an empty inbox id and zero values canonically (omitted), and nothing for no logs', () => {
    expect(encodeGetIdentityUpdatesResponse([])).toEqual(new Uint8Array(0))
    expect(
      encodeGetIdentityUpdatesResponse([{ inboxId: '', updates: [{ sequenceId: 0n, bytes: new Uint8Array(0) }] }]),
    ).toEqual(new Uint8Array([0x0a, 0x04, 0x12, 0x02, 0x1a, 0x00]))
  })
})

describe('toGatewayJson', () => {
  const logs = [
    { inboxId: 'a', updates: [{ sequenceId: 18446744073709551615n, serverTimestampNs: 5n, bytes: ROW_BYTES[0]! }] },
  ]

  it('is the proto3 JSON form: camelCase, uint64 as decimal strings, parseable by fromJson', () => {
    const j = toGatewayJson(logs) as { responses: { inboxId: string; updates: { sequenceId: string }[] }[] }
    expect(j.responses[0]!.inboxId).toBe('a')
    expect(j.responses[0]!.updates[0]!.sequenceId).toBe('18446744073709551615')
    const back = fromJson(GetIdentityUpdatesResponseSchema, j)
    expect(toBinary(IdentityUpdateSchema, back.responses[0]!.updates[0]!.update!)).toEqual(ROW_BYTES[0])
  })

  it('uses snake_case with useProtoFieldName', () => {
    const j = toGatewayJson(logs, { useProtoFieldName: true }) as { responses: Record<string, unknown>[] }
    expect(Object.keys(j.responses[0]!)).toEqual(['inbox_id', 'updates'])
  })

  it('drops what JSON cannot carry: the retired Signature field 4', () => {
    const text = JSON.stringify(toGatewayJson([{ inboxId: 'a', updates: [{ sequenceId: 8n, bytes: ROW_BYTES[7]! }] }]))
    expect(text).not.toMatch(/delegated/i)
    expect(text).toMatch(/"initialIdentifierSignature":\{\}/)
  })
})

describe('encodeBundleJson', () => {
  const updates = [
    { sequenceId: 1n, bytes: ROW_BYTES[0]! },
    { sequenceId: 2n, bytes: new Uint8Array([0xfb, 0xff]) },
  ]

  it('writes hex by default, with decimal string sequence ids', () => {
    const doc = JSON.parse(encodeBundleJson({ inboxId: 'x', updates })) as {
      inbox_id: string
      updates: Record<string, string>[]
    }
    expect(doc.inbox_id).toBe('x')
    expect(doc.updates[0]).toEqual({ sequence_id: '1', update_hex: bytesToHex(ROW_BYTES[0]!) })
    expect(doc.updates[1]).toEqual({ sequence_id: '2', update_hex: 'fbff' })
  })

  it('writes standard padded base64 on request, and omits an absent inbox id', () => {
    const text = encodeBundleJson({ updates }, 'base64')
    const doc = JSON.parse(text) as { updates: Record<string, string>[] }
    expect('inbox_id' in doc).toBe(false)
    expect(doc.updates[1]).toEqual({ sequence_id: '2', update_base64: '+/8=' })
    expect(base64ToBytes(doc.updates[0]!.update_base64!)).toEqual(ROW_BYTES[0])
    expect(text.endsWith('}\n')).toBe(true)
  })
})
