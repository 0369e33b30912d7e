/**
 * Property tests: whatever bytes or text arrive, decoding fails only with the two
 * errors the rest of the app knows how to show: RuleViolation('IDENT-001') for an update,
 * LogInputError for a file. Inputs are random bytes and random mutations (bit flips,
 * byte overwrites, truncations, insertions, deletions) of the real xmtpd vectors.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToBase64, bytesToHex } from '../../crypto/bytes'
import { LogInputError, RuleViolation } from '../errors'
import { encodeBundleJson, encodeGetIdentityUpdatesResponse } from '../encode/update'
import { readLogs } from './logs'
import { decodeUpdate } from './update'
import { byteMutation, mutate } from '../byte-mutation.testkit'
import { XMTPD_CSV, XMTPD_ROWS } from '../../../test/support/xmtpd-vectors'

const ROWS = XMTPD_ROWS
const RESPONSE = encodeGetIdentityUpdatesResponse([
  {
    inboxId: ROWS[5]!.inbox,
    updates: [5, 6].map((i) => ({ sequenceId: ROWS[i]!.seq, serverTimestampNs: ROWS[i]!.ts, bytes: ROWS[i]!.bytes })),
  },
  { inboxId: ROWS[7]!.inbox, updates: [{ sequenceId: ROWS[7]!.seq, bytes: ROWS[7]!.bytes }] },
])

const mutation = byteMutation({ inserted: fc.uint8Array({ minLength: 1, maxLength: 8 }), overwrite: true })

const mutated = (bases: Uint8Array[]) =>
  fc
    .tuple(fc.constantFrom(...bases), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([b, ms]) => mutate(b, ms))

/** Runs f; passes when it returns or throws an allowed error, rethrows anything else. */
function onlyThrows(f: () => unknown, allowed: (e: unknown) => boolean): void {
  try {
    f()
  } catch (e) {
    if (!allowed(e)) throw e
  }
}
const isIdent001 = (e: unknown) => e instanceof RuleViolation && e.rule === 'IDENT-001'
const isInputError = (e: unknown) => e instanceof LogInputError

describe('decodeUpdate (property)', () => {
  it('IDENT-001: random bytes either decode (keeping them) or throw RuleViolation IDENT-001, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        onlyThrows(() => expect(decodeUpdate(b).bytes).toBe(b), isIdent001)
      }),
      { numRuns: 2000 },
    )
  })

  it('IDENT-001: mutations of the real updates either decode or throw RuleViolation IDENT-001', () => {
    fc.assert(
      fc.property(mutated(ROWS.map((r) => r.bytes)), (b) => {
        onlyThrows(() => {
          const u = decodeUpdate(b)
          expect(u.bytes).toBe(b)
          expect(u.actions.length).toBeGreaterThan(0)
        }, isIdent001)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('readLogs (property)', () => {
  it('random bytes give logs or a LogInputError, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        onlyThrows(() => readLogs(b), isInputError)
      }),
      { numRuns: 2000 },
    )
  })

  it('IDENT-001: mutations of real updates and responses give logs (undecodable updates as IDENT-001 entries) or a LogInputError', () => {
    fc.assert(
      fc.property(mutated([...ROWS.map((r) => r.bytes), RESPONSE]), (b) => {
        onlyThrows(() => {
          for (const log of readLogs(b)) {
            for (const e of log.entries) {
              if ('error' in e.update) expect(e.update.error).toMatch(/^IDENT-001: /)
            }
          }
        }, isInputError)
      }),
      { numRuns: 2000 },
    )
  })

  it('mutations of text forms (bundle JSON, hex, base64) give logs or a LogInputError', () => {
    const enc = new TextEncoder()
    const texts = [
      enc.encode(encodeBundleJson({ updates: [{ sequenceId: 1n, bytes: ROWS[0]!.bytes }] })),
      enc.encode(encodeBundleJson({ inboxId: 'x', updates: [{ sequenceId: 9n, bytes: ROWS[8]!.bytes }] }, 'base64')),
      enc.encode(bytesToHex(ROWS[6]!.bytes)),
      enc.encode(bytesToBase64(RESPONSE)),
      enc.encode(XMTPD_CSV.split('\n').slice(0, 3).join('\n')),
    ]
    fc.assert(
      fc.property(mutated(texts), (b) => {
        onlyThrows(() => readLogs(b), isInputError)
      }),
      { numRuns: 2000 },
    )
  })

  it('random strings and random JSON give logs or a LogInputError', () => {
    const jsonish = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc
        .record({
          inbox_id: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
          updates: fc.array(
            fc.dictionary(
              fc.constantFrom('sequence_id', 'update_hex', 'update_base64', 'x'),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            { maxLength: 3 },
          ),
        })
        .map((v) => JSON.stringify(v)),
      fc
        .record({
          responses: fc.array(
            fc.record({ inboxId: fc.jsonValue({ maxDepth: 1 }), updates: fc.jsonValue({ maxDepth: 2 }) }),
            { maxLength: 2 },
          ),
        })
        .map((v) => JSON.stringify(v)),
    )
    fc.assert(
      fc.property(jsonish, (s) => {
        onlyThrows(() => readLogs(s), isInputError)
      }),
      { numRuns: 2000 },
    )
  })
})
