import { toJson } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { describe, expect, it } from 'vitest'
import { IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { fromBinary } from '@bufbuild/protobuf'
import { bytesToBase64, bytesToBase64url, bytesToHex, concatBytes, utf8 } from '../../crypto/bytes'
import { LogInputError } from '../errors'
import type { InboxLog, UnverifiedUpdate } from '../types'
import {
  encodeBundleJson,
  encodeGetIdentityUpdatesResponse,
  encodeUpdate,
  toGatewayJson,
  type ResponseLog,
} from '../encode/update'
import { decodeOrError, entry, isDecoded } from './entry'
import {
  readBundleJson,
  readGatewayJson,
  readGetIdentityUpdatesResponse,
  readLogs,
  readResponseFrames,
  readSingleUpdate,
} from './logs'
import { readPostgresCsvLog } from './pg-csv'
import { thrown, XMTPD_CSV } from '../../../test/support/xmtpd-vectors'

const CSV = XMTPD_CSV
const CSV_LOGS = readPostgresCsvLog(CSV)
const bytesOf = (u: InboxLog['entries'][number]['update']): Uint8Array => u.bytes!
/** Every row's exact bytes, in sequence id order. */
const ROWS = CSV_LOGS.flatMap((l) => l.entries).map((e) => ({ seq: e.sequenceId, bytes: bytesOf(e.update) }))
const RESPONSE_LOGS: ResponseLog[] = CSV_LOGS.map((l) => ({
  inboxId: l.inboxId!,
  updates: l.entries.map((e) => ({
    sequenceId: e.sequenceId,
    serverTimestampNs: e.serverTimestampNs!,
    bytes: bytesOf(e.update),
  })),
}))

const ld = (no: number, body: Uint8Array) => new BinaryWriter().tag(no, WireType.LengthDelimited).bytes(body).finish()
const vi = (no: number, v: bigint | number) => new BinaryWriter().tag(no, WireType.Varint).uint64(v).finish()
const raw = (...b: number[]) => new Uint8Array(b)

const inputError = (f: () => unknown): LogInputError => thrown(f, LogInputError)

function domain(u: UnverifiedUpdate) {
  return { inboxId: u.inboxId, clientTimestampNs: u.clientTimestampNs, actions: u.actions }
}

/** A comparable view of logs: ids, sequence ids, decoded values or error + action index, optionally bytes. */
function view(logs: InboxLog[], withBytes: boolean) {
  return logs.map((l) => ({
    inboxId: l.inboxId,
    entries: l.entries.map((e) => {
      const u = e.update
      if (isDecoded(u)) return { seq: e.sequenceId, update: domain(u), ...(withBytes ? { bytes: u.bytes } : {}) }
      return {
        seq: e.sequenceId,
        rejected: u.error.startsWith('IDENT-001: '),
        actionIndex: u.actionIndex,
        ...(withBytes ? { bytes: u.bytes } : {}),
      }
    }),
  }))
}

describe('readLogs', () => {
  describe('every format gives the same entries for the same log', () => {
    const expected = view(CSV_LOGS, true)

    it('bundle JSON, hex and base64', () => {
      for (const enc of ['hex', 'base64'] as const) {
        const got = CSV_LOGS.flatMap((l) =>
          readLogs(
            encodeBundleJson(
              {
                inboxId: l.inboxId!,
                updates: l.entries.map((e) => ({ sequenceId: e.sequenceId, bytes: bytesOf(e.update) })),
              },
              enc,
            ),
          ),
        )
        expect(got.every((l) => l.format === 'bundle-json')).toBe(true)
        expect(view(got, true)).toEqual(expected)
      }
    })

    it('binary GetIdentityUpdatesResponse, raw and as hex or base64 text', () => {
      const bin = encodeGetIdentityUpdatesResponse(RESPONSE_LOGS)
      for (const input of [bin, bytesToHex(bin), bytesToBase64(bin), utf8(bytesToHex(bin).toUpperCase())]) {
        const got = readLogs(input)
        expect(got.every((l) => l.format === 'get-identity-updates-binary')).toBe(true)
        expect(view(got, true)).toEqual(expected)
        expect(got.flatMap((l) => l.entries.map((e) => e.serverTimestampNs))).toEqual(
          CSV_LOGS.flatMap((l) => l.entries.map((e) => e.serverTimestampNs)),
        )
      }
    })

    it('gateway proto3 JSON, camelCase and snake_case (rows 8-19 stay IDENT-001 at action 0)', () => {
      for (const useProtoFieldName of [false, true]) {
        const got = readLogs(JSON.stringify(toGatewayJson(RESPONSE_LOGS, { useProtoFieldName })))
        expect(got.every((l) => l.format === 'get-identity-updates-json')).toBe(true)
        expect(view(got, false)).toEqual(view(CSV_LOGS, false))
        // Rows 1-7 are canonical, so their canonical encoding is their bytes.
        for (const e of got.flatMap((l) => l.entries)) {
          if (isDecoded(e.update)) {
            expect(e.update.bytesSource).toBe('canonical-encoding')
            expect(e.update.bytes).toEqual(ROWS.find((r) => r.seq === e.sequenceId)!.bytes)
          }
        }
      }
    })

    it('PostgreSQL CSV, as text and as bytes', () => {
      expect(view(readLogs(CSV), true)).toEqual(expected)
      expect(view(readLogs(utf8(CSV)), true)).toEqual(expected)
      expect(readLogs(CSV)[0]!.format).toBe('postgres-csv')
    })
  })

  describe('binary GetIdentityUpdatesResponse', () => {
    it('keeps each update as the exact slice of the input, never re-encoded', () => {
      const bin = encodeGetIdentityUpdatesResponse(RESPONSE_LOGS)
      for (const e of readLogs(bin).flatMap((l) => l.entries)) {
        const b = bytesOf(e.update)
        expect(b.buffer).toBe(bin.buffer)
        expect(b).toEqual(ROWS.find((r) => r.seq === e.sequenceId)!.bytes)
        if (isDecoded(e.update)) expect(e.update.bytesSource).toBe('input')
      }
    })

    it('reads a response whose updates all fail IDENT-001 (rows 8-19) as a response, with error entries', () => {
      const failing = RESPONSE_LOGS.slice(6)
      const got = readLogs(encodeGetIdentityUpdatesResponse(failing))
      expect(got).toHaveLength(12)
      expect(got.every((l) => l.format === 'get-identity-updates-binary')).toBe(true)
      expect(got.every((l) => l.entries.every((e) => !isDecoded(e.update) && e.update.actionIndex === 0))).toBe(true)
    })

    it('reads a response for named inboxes with no updates', () => {
      const got = readLogs(encodeGetIdentityUpdatesResponse([{ inboxId: 'ab'.repeat(32), updates: [] }]))
      expect(got).toEqual([{ inboxId: 'ab'.repeat(32), entries: [], format: 'get-identity-updates-binary' }])
    })

    it('frames it (readResponseFrames) so that decoding each update gives readLogs exactly', () => {
      const bin = encodeGetIdentityUpdatesResponse(RESPONSE_LOGS)
      const frames = readResponseFrames(bin)
      expect(frames).not.toBeNull()
      const decoded = frames!.map((l) => ({
        inboxId: l.inboxId,
        entries: l.entries.map((e) =>
          entry(e.sequenceId, e.update instanceof Uint8Array ? decodeOrError(e.update) : e.update, e.serverTimestampNs),
        ),
        format: 'get-identity-updates-binary',
      }))
      expect(decoded).toEqual(readLogs(bin))
    })

    it('frames nothing that readLogs reads another way or refuses', () => {
      const u = RESPONSE_LOGS[0]!.updates[0]!
      expect(readResponseFrames(encodeGetIdentityUpdatesResponse([{ inboxId: 'x', updates: [u, u] }]))).toBeNull()
      expect(readResponseFrames(encodeGetIdentityUpdatesResponse(RESPONSE_LOGS.slice(6)))).toBeNull()
      expect(readResponseFrames(utf8('{"updates": []}'))).toBeNull()
      expect(readResponseFrames(new Uint8Array(0))).toBeNull()
    })

    it('refuses two updates with one sequence id in one inbox', () => {
      const u = RESPONSE_LOGS[0]!.updates[0]!
      const e = inputError(() => readLogs(encodeGetIdentityUpdatesResponse([{ inboxId: 'x', updates: [u, u] }])))
      expect(e.detail).toMatch(/sequence id 1 appears twice/)
    })
  })

  describe('single IdentityUpdate', () => {
    it('reads each real vector as a single update both ways: raw bytes and hex or base64 text', () => {
      for (const row of ROWS) {
        const wrapped76 = bytesToBase64(row.bytes).replace(/(.{76})/g, '$1\n')
        const hexLines = bytesToHex(row.bytes).replace(/(.{60})/g, '$1\n')
        for (const input of [
          row.bytes,
          bytesToHex(row.bytes),
          `0x${bytesToHex(row.bytes).toUpperCase()}`,
          wrapped76,
          hexLines,
          bytesToBase64url(row.bytes).replace(/=+$/, ''),
        ]) {
          const [log, ...rest] = readLogs(input)
          expect(rest).toEqual([])
          expect(log!.format).toBe('single-update')
          expect(log!.entries).toHaveLength(1)
          expect(log!.entries[0]!.sequenceId).toBe(1n)
          const u = log!.entries[0]!.update
          expect(isDecoded(u)).toBe(row.seq <= 7n)
          expect(bytesOf(u)).toEqual(row.bytes)
        }
      }
    })

    it('reads each real vector wrapped alone in a response as that response, raw and as hex', () => {
      for (const l of RESPONSE_LOGS) {
        const bin = encodeGetIdentityUpdatesResponse([l])
        for (const input of [bin, bytesToHex(bin)]) {
          const got = readLogs(input)
          expect(got).toHaveLength(1)
          expect(got[0]!.format).toBe('get-identity-updates-binary')
          expect(got[0]!.inboxId).toBe(l.inboxId)
          expect(got[0]!.entries.map((e) => e.sequenceId)).toEqual(l.updates.map((u) => u.sequenceId))
        }
      }
    })

    it('prefers the single-update reading of an IdentityUpdate that also parses as a response', () => {
      // A CreateInbox-only update whose bytes are all ASCII: as a GetIdentityUpdatesResponse
      // it is one Response whose inbox_id is the CreateInbox bytes.
      const update = encodeUpdate({
        inboxId: 'ab'.repeat(32),
        clientTimestampNs: 0n,
        actions: [
          {
            kind: 'create_inbox',
            initialIdentifier: `0x${'11'.repeat(20)}`,
            nonce: 0n,
            initialIdentifierKind: 0,
            initialIdentifierSignature: { kind: 'erc_191', bytes: utf8('a'.repeat(65)) },
          },
        ],
      })
      const onlyActions = ld(
        1,
        ld(1, concatBytes(ld(1, utf8(`0x${'11'.repeat(20)}`)), ld(3, ld(1, ld(1, utf8('a'.repeat(65))))))),
      )
      for (const b of [update, onlyActions]) {
        expect(readGetIdentityUpdatesResponse(b)).toHaveLength(1) // structurally a response
        const [log] = readLogs(b)
        expect(log!.format).toBe('single-update')
        expect(isDecoded(log!.entries[0]!.update)).toBe(true)
      }
    })

    it('IDENT-001: a failing update with printable CreateInbox bytes is still a single update (unknown top-level fields outrank)', () => {
      // CreateInbox { relying_party: 40 printable bytes } and no signature: as a response it
      // is one Response with a printable inbox_id, but client_timestamp_ns and inbox_id are
      // unknown top-level fields there, so the single-update reading (tier 3) wins (tier 4).
      const bytes = concatBytes(ld(1, ld(1, ld(5, utf8('r'.repeat(40))))), vi(2, 5), ld(3, utf8('ab'.repeat(32))))
      expect(readGetIdentityUpdatesResponse(bytes)[0]!.inboxId).toBe(`*(${'r'.repeat(40)}`)
      const [log] = readLogs(bytes)
      expect(log!.format).toBe('single-update')
      const u = log!.entries[0]!.update
      expect(!isDecoded(u) && [u.actionIndex, u.error]).toEqual([
        0,
        expect.stringMatching(/initial_identifier_signature is missing/),
      ])
    })

    it('IDENT-001: a well-formed update that fails IDENT-001 is a single-update error entry', () => {
      const [log] = readLogs(raw(0x0a, 0x00))
      expect(log!.format).toBe('single-update')
      const u = log!.entries[0]!.update
      expect(!isDecoded(u) && [u.error.slice(0, 10), u.actionIndex]).toEqual(['IDENT-001:', 0])
    })

    it('reads a proto3 JSON IdentityUpdate', () => {
      const j = JSON.stringify(toJson(IdentityUpdateSchema, fromBinary(IdentityUpdateSchema, ROWS[0]!.bytes)))
      const [log] = readLogs(j)
      expect(log!.format).toBe('single-update')
      expect(isDecoded(log!.entries[0]!.update) && log!.entries[0]!.update.bytesSource).toBe('canonical-encoding')
    })
  })

  describe('text handling', () => {
    it('strips a UTF-8 BOM and surrounding whitespace from text, given as a string or as bytes', () => {
      const bundle = encodeBundleJson({ updates: [{ sequenceId: 1n, bytes: ROWS[0]!.bytes }] })
      const padded = `\uFEFF \r\n\t${bundle}\n\n `
      expect(view(readLogs(padded), true)).toEqual(view(readLogs(bundle), true))
      expect(view(readLogs(utf8(padded)), true)).toEqual(view(readLogs(bundle), true))
      const hex = `\uFEFF\n${bytesToHex(ROWS[0]!.bytes)}\n`
      expect(readLogs(utf8(hex))[0]!.format).toBe('single-update')
    })

    it('refuses empty input', () => {
      for (const input of ['', '  \n\t', '\uFEFF', new Uint8Array(0), utf8('\uFEFF \n'), raw(0x20, 0x20)]) {
        const e = inputError(() => readLogs(input))
        expect(e.detail).toBe('empty input')
      }
    })
  })

  describe('garbage', () => {
    it('lists every format tried and why it failed', () => {
      const e = inputError(() => readLogs(raw(0xff, 0x01, 0x02), 'garbage.bin'))
      expect(e.format).toBe('auto')
      expect(e.message).toMatch(/garbage\.bin is not a log in any supported format/)
      expect(e.attempts.map((a) => a.format)).toEqual(['text', 'get-identity-updates-binary', 'single-update'])
      expect(e.attempts[1]!.where).toMatch(/^byte \d+$/)

      const t = inputError(() => readLogs('hello, world!'))
      expect(t.attempts.map((a) => a.format)).toEqual(['json', 'postgres-csv', 'hex', 'base64'])

      const h = inputError(() => readLogs('0a0b0c0d'))
      expect(h.attempts.map((a) => a.format)).toEqual([
        'json',
        'postgres-csv',
        'hex → get-identity-updates-binary',
        'hex → single-update',
        'base64 → get-identity-updates-binary',
        'base64 → single-update',
      ])
      expect(h.attempts[3]!.detail).toMatch(/truncated/)
    })

    it('names a truncated response by byte offset', () => {
      const bin = encodeGetIdentityUpdatesResponse(RESPONSE_LOGS.slice(0, 2))
      const e = inputError(() => readLogs(bin.subarray(0, bin.length - 5)))
      const a = e.attempts.find((x) => x.format === 'get-identity-updates-binary')!
      expect(a.where).toMatch(/^byte \d+$/)
      expect(a.detail).toMatch(/truncated/)
    })

    it('lists a JSON syntax error (duplicate key) first', () => {
      const e = inputError(() => readLogs('{"updates": [], "updates": []}'))
      expect(e.attempts[0]).toEqual({
        format: 'json',
        where: 'line 1 column 17',
        detail: 'duplicate key "updates" in the object at $',
      })
    })

    it('lists a JSON object that is not a log', () => {
      const e = inputError(() => readLogs('{"hello": 1}'))
      expect(e.attempts[0]!.detail).toMatch(/neither "updates"/)
      const s = inputError(() => readLogs('"0a00"'))
      expect(s.attempts[0]!.detail).toMatch(/not an object/)
    })
  })
})

describe('readBundleJson', () => {
  const hex = bytesToHex(ROWS[0]!.bytes)

  it('accepts sequence ids as decimal strings, numbers and exact big integers; hex either case with 0x; base64 std or url, padded or not', () => {
    const text = `{"inbox_id": "x", "updates": [
      {"sequence_id": "1", "update_hex": "${hex}"},
      {"sequence_id": 2, "update_hex": "0X${hex.toUpperCase()}"},
      {"sequence_id": 18446744073709551615, "update_base64": "${bytesToBase64(ROWS[0]!.bytes)}"},
      {"sequence_id": "4", "update_base64": "${bytesToBase64url(ROWS[0]!.bytes).replace(/=+$/, '')}"}]}`
    const [log] = readLogs(text)
    expect(log!.inboxId).toBe('x')
    expect(log!.entries.map((e) => e.sequenceId)).toEqual([1n, 2n, 18446744073709551615n, 4n])
    expect(log!.entries.every((e) => isDecoded(e.update))).toBe(true)
  })

  it('IDENT-001: invalid hex or base64 is an error entry without bytes; failing bytes an error entry with them', () => {
    const log = readBundleJson({
      updates: [
        { sequence_id: '1', update_hex: '0a0' },
        { sequence_id: '2', update_base64: 'Cg=A' },
        { sequence_id: '3', update_hex: '' },
        { sequence_id: '4', update_hex: '0a00' },
      ],
    })
    const us = log.entries.map((e) => e.update)
    const [a, b, c, d] = [us[0]!, us[1]!, us[2]!, us[3]!]
    expect(!isDecoded(a) && [a.error, a.bytes]).toEqual([
      'IDENT-001: $.updates[0].update_hex is not valid hex: hex: odd number of hex digits (3)',
      undefined,
    ])
    expect(!isDecoded(b) && b.error).toMatch(/^IDENT-001: \$\.updates\[1\]\.update_base64 is not valid base64/)
    expect(!isDecoded(c) && [c.error, c.actionIndex, c.bytes]).toEqual([
      'IDENT-001: update has no actions: expected at least one IdentityAction',
      null,
      new Uint8Array(0),
    ])
    expect(!isDecoded(d) && [d.actionIndex, d.bytes]).toEqual([0, raw(0x0a, 0x00)])
  })

  it('refuses a malformed bundle with the JSON path', () => {
    const cases: [unknown, string, RegExp][] = [
      [[], '$', /expected a JSON object/],
      [{ inbox_id: 5, updates: [] }, '$.inbox_id', /expected a string/],
      [{}, '$.updates', /missing/],
      [{ updates: {} }, '$.updates', /expected an array/],
      [{ updates: [5] }, '$.updates[0]', /expected an object/],
      [{ updates: [{ update_hex: hex }] }, '$.updates[0].sequence_id', /missing/],
      [{ updates: [{ sequence_id: 'one', update_hex: hex }] }, '$.updates[0].sequence_id', /not a decimal string/],
      [{ updates: [{ sequence_id: -1, update_hex: hex }] }, '$.updates[0].sequence_id', /negative/],
      // biome-ignore lint/correctness/noPrecisionLoss: a JSON number above 2^53, rounded on purpose
      [{ updates: [{ sequence_id: 9007199254740993, update_hex: hex }] }, '$.updates[0].sequence_id', /above 2\^53/],
      [
        { updates: [{ sequence_id: '18446744073709551616', update_hex: hex }] },
        '$.updates[0].sequence_id',
        /above 2\^64/,
      ],
      [{ updates: [{ sequence_id: '1' }] }, '$.updates[0]', /neither update_hex nor update_base64/],
      [{ updates: [{ sequence_id: '1', update_hex: hex, update_base64: 'Cg==' }] }, '$.updates[0]', /both/],
      [{ updates: [{ sequence_id: '1', update_hex: 10 }] }, '$.updates[0].update_hex', /expected a string/],
      [
        {
          updates: [
            { sequence_id: '1', update_hex: hex },
            { sequence_id: 1, update_hex: hex },
          ],
        },
        '$.updates[1]',
        /appears twice/,
      ],
    ]
    for (const [json, where, detail] of cases) {
      const e = inputError(() => readBundleJson(json))
      expect([e.format, e.where], JSON.stringify(json)).toEqual(['bundle-json', where])
      expect(e.detail).toMatch(detail)
    }
  })

  it('is what readLogs uses for JSON with "updates", file errors included', () => {
    const e = inputError(() => readLogs('{"updates": [{"sequence_id": 1.5, "update_hex": ""}]}'))
    expect([e.format, e.where]).toEqual(['bundle-json', '$.updates[0].sequence_id'])
    expect(inputError(() => readLogs('{"updates": [], "responses": []}')).detail).toMatch(/both/)
  })
})

describe('readGatewayJson', () => {
  const json = toGatewayJson(RESPONSE_LOGS.slice(5, 7)) as { responses: { updates: Record<string, unknown>[] }[] }

  it('accepts uint64 as numbers, null as defaults, and a missing sequence id as 0', () => {
    const j = structuredClone(json)
    j.responses[0]!.updates[0]!.sequenceId = 6
    j.responses[0]!.updates[1]!.serverTimestampNs = null
    delete j.responses[1]!.updates[0]!.sequenceId
    const logs = readGatewayJson(j)
    expect(logs.map((l) => l.entries.map((e) => e.sequenceId))).toEqual([[6n, 7n], [0n]])
    expect(logs[0]!.entries[1]!.serverTimestampNs).toBeUndefined()
    expect(readGatewayJson({ responses: null })).toEqual([])
  })

  it('IDENT-001: an update that fails is an error entry with its action index; a missing update too', () => {
    const j = structuredClone(json)
    const upd = j.responses[0]!.updates[1]!.update as { actions: unknown[] }
    upd.actions[0] = {}
    delete j.responses[1]!.updates[0]!.update
    const logs = readGatewayJson(j)
    const a = logs[0]!.entries[1]!.update
    expect(!isDecoded(a) && [a.error.slice(0, 10), a.actionIndex]).toEqual(['IDENT-001:', 0])
    const b = logs[1]!.entries[0]!.update
    expect(!isDecoded(b) && b.error).toMatch(/has no update/)
  })

  it('refuses a malformed container with the JSON path', () => {
    expect(inputError(() => readGatewayJson({ responses: 1 })).where).toBe('$.responses')
    expect(inputError(() => readGatewayJson({ responses: [1] })).where).toBe('$.responses[0]')
    expect(inputError(() => readGatewayJson({ responses: [{ inboxId: 'a', inbox_id: 'a' }] })).detail).toMatch(
      /both "inboxId" and "inbox_id"/,
    )
    expect(inputError(() => readGatewayJson({ responses: [{ updates: [{ sequenceId: 'x' }] }] })).where).toBe(
      '$.responses[0].updates[0].sequenceId',
    )
    expect(
      inputError(() => readGatewayJson({ responses: [{ updates: [{ sequenceId: '1' }, { sequence_id: 1 }] }] })).detail,
    ).toMatch(/appears twice/)
  })
})

describe('readGetIdentityUpdatesResponse', () => {
  it('names the byte offset of a malformed container', () => {
    const e = inputError(() => readGetIdentityUpdatesResponse(ld(1, ld(2, ld(1, raw(1))))))
    expect([e.format, e.where]).toEqual(['get-identity-updates-binary', 'byte 4'])
    expect(e.detail).toBe(
      'responses[0].updates[0]: field 1 (sequence_id) has wire type length-delimited, expected varint',
    )
    expect(inputError(() => readGetIdentityUpdatesResponse(raw(0x0a, 0x05, 0x0a))).detail).toMatch(
      /declares 5 bytes, 1 remain/,
    )
    expect(inputError(() => readGetIdentityUpdatesResponse(ld(1, ld(1, raw(0xc3, 0x28))))).detail).toMatch(
      /inbox_id\) is not valid UTF-8/,
    )
    expect(inputError(() => readGetIdentityUpdatesResponse(raw(0x0b, 0x0c))).detail).toMatch(/group wire type/)
  })

  it('IDENT-001: a log without an update, or with field 3 twice, is an error entry', () => {
    const u = ROWS[0]!.bytes
    const twice = ld(1, ld(2, concatBytes(vi(1, 1), ld(3, u), ld(3, u))))
    const [log] = readGetIdentityUpdatesResponse(twice)
    const e = log!.entries[0]!.update
    expect(!isDecoded(e) && e.error).toMatch(/carries field 3 \(update\) 2 times/)
    expect(e.bytes).toEqual(concatBytes(u, u))
    const [none] = readGetIdentityUpdatesResponse(ld(1, concatBytes(ld(1, utf8('x')), ld(2, vi(1, 1)))))
    expect(!isDecoded(none!.entries[0]!.update) && none!.entries[0]!.update.error).toMatch(/has no update \(field 3\)/)
  })

  it('keeps unnamed responses and unknown container fields when the format is known', () => {
    const logs = readGetIdentityUpdatesResponse(concatBytes(ld(1, vi(9, 1)), vi(7, 1)))
    expect(logs).toEqual([{ entries: [], format: 'get-identity-updates-binary' }])
  })
})

describe('readSingleUpdate', () => {
  it('is one entry at sequence id 1', () => {
    const log = readSingleUpdate(ROWS[0]!.bytes)
    expect(log.format).toBe('single-update')
    expect(log.inboxId).toBeUndefined()
    expect(log.entries.map((e) => e.sequenceId)).toEqual([1n])
    expect(bytesOf(log.entries[0]!.update)).toBe(ROWS[0]!.bytes)
  })
})
