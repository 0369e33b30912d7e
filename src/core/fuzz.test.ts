/**
 * The fuzz target of issue #14 (`npm run fuzz`): property-based, over the decoders and
 * replay, bounded by time. Inputs are the real xmtpd vectors and a signed log, mutated
 * (bit flips, overwrites, truncations, insertions, deletions, hostile splices: runs of
 * unknown fields, huge strings, control characters), in every input form.
 *
 * Properties, for every input:
 * - readLogs returns logs or throws LogInputError, nothing else;
 * - replay of every log it returns resolves (never throws), and every step that is not
 *   applied says why: a rejected step has a rule and a message, a not_applied one a message;
 * - every message (error, attempt, step) is at most MESSAGE_MAX characters (finding 7);
 * - verification that stops once a failed check decides the verdict (finding 1,
 *   ./judge-order.ts) gives every update the verdict full verification gives.
 *
 * Time: FUZZ_SECONDS per property (default 3: the short pass inside `npm test`);
 * `npm run fuzz` runs each for 120 s (FUZZ_SECONDS overrides it). FUZZ_SEED replays a failure fast-check reported.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToBase64, bytesToHex } from '../crypto/bytes'
import { byteMutation, mutate } from './byte-mutation.testkit'
import { readLogs } from './decode/logs'
import { encodeBundleJson, encodeGetIdentityUpdatesResponse, toGatewayJson } from './encode/update'
import { LogInputError } from './errors'
import { applyUpdate, PendingUpdate, RejectedUpdate } from './apply/update'
import { verifyUntilDecided } from './judge-order'
import { replay } from './replay'
import type { AssociationState } from './types'
import { verifyUpdate, type VerifiedUpdate } from './verify/update'
import { XMTPD_CSV, XMTPD_ROWS } from '../../test/support/xmtpd-vectors'

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 3)
const SEED = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) }
/** The longest message any input may produce (an error, an attempt's detail, a step's message). */
const MESSAGE_MAX = 2000

const ROWS = XMTPD_ROWS
const LOG = [
  {
    inboxId: ROWS[0]!.inbox,
    updates: ROWS.slice(0, 6).map((r) => ({ sequenceId: r.seq, serverTimestampNs: r.ts, bytes: r.bytes })),
  },
]
const enc = new TextEncoder()
const RESPONSE = encodeGetIdentityUpdatesResponse(LOG)
const BASES: Uint8Array[] = [
  RESPONSE,
  ...ROWS.slice(0, 8).map((r) => r.bytes),
  enc.encode(encodeBundleJson({ inboxId: LOG[0]!.inboxId, updates: LOG[0]!.updates })),
  enc.encode(JSON.stringify(toGatewayJson(LOG))),
  enc.encode(bytesToHex(RESPONSE)),
  enc.encode(bytesToBase64(ROWS[2]!.bytes)),
  enc.encode(XMTPD_CSV.split('\n').slice(0, 4).join('\n')),
]

/** Hostile splices: what the fault campaign found expensive or misleading. */
const splice = fc.oneof(
  fc.integer({ min: 1, max: 4000 }).map((n) => new Uint8Array(2 * n).map((_, i) => (i % 2 ? 0x61 : 0x30))), // unknown fields
  fc.integer({ min: 1, max: 3000 }).map((n) => enc.encode('0a'.repeat(n))),
  fc.integer({ min: 100, max: 30_000 }).map((n) => enc.encode('x'.repeat(n))),
  fc.constantFrom(enc.encode('\n----\n'), enc.encode('\u001b[2J'), enc.encode('"\\u0000"'), enc.encode('\u202e')),
  fc.uint8Array({ minLength: 1, maxLength: 16 }),
)

const mutation = byteMutation({ inserted: splice, overwrite: false })

const inputs = fc
  .tuple(fc.constantFrom(...BASES), fc.array(mutation, { minLength: 1, maxLength: 4 }))
  .map(([b, ms]) => mutate(b, ms))

const run = (p: fc.IAsyncProperty<[Uint8Array]> | fc.IProperty<[Uint8Array]>) =>
  fc.assert(p, { interruptAfterTimeLimit: SECONDS * 1000, numRuns: Number.MAX_SAFE_INTEGER, ...SEED })

function readOrNull(b: Uint8Array) {
  try {
    return readLogs(b, 'fuzz')
  } catch (e) {
    if (!(e instanceof LogInputError)) throw e
    expect(e.message.length).toBeLessThanOrEqual(MESSAGE_MAX)
    for (const a of e.attempts) expect(a.detail.length + a.where.length).toBeLessThanOrEqual(MESSAGE_MAX)
    return null
  }
}

describe(`fuzz (${SECONDS} s per property)`, () => {
  it(
    'readLogs: logs or a LogInputError with bounded messages, for any mutated input',
    () => {
      run(fc.property(inputs, (b) => void readOrNull(b)))
    },
    (SECONDS + 60) * 1000,
  )

  it(
    'replay: never throws, every step that does not apply says why, messages bounded',
    async () => {
      await run(
        fc.asyncProperty(inputs, async (b) => {
          for (const log of readOrNull(b) ?? []) {
            const trace = await replay(log)
            for (const s of trace.steps) {
              expect(s.message.length).toBeLessThanOrEqual(MESSAGE_MAX)
              if (s.status === 'rejected') expect(s.rule !== null && s.message !== '').toBe(true)
              if (s.status === 'not_applied') expect(s.message).not.toBe('')
            }
          }
        }),
      )
    },
    (SECONDS + 120) * 1000,
  )

  it(
    'guard for finding 1: verification stopped at the deciding failed check gives the verdict full verification gives',
    async () => {
      const verdict = (state: AssociationState | null, v: VerifiedUpdate, seq: bigint) => {
        try {
          return { applied: applyUpdate(state, v, seq).state }
        } catch (e) {
          if (e instanceof RejectedUpdate) return { rejected: e.violation, actions: e.actions.length }
          if (e instanceof PendingUpdate) return { pending: e.message }
          throw e
        }
      }
      await run(
        fc.asyncProperty(inputs, async (b) => {
          for (const log of readOrNull(b) ?? []) {
            let state: AssociationState | null = null
            for (const e of [...log.entries].sort((x, y) => (x.sequenceId < y.sequenceId ? -1 : 1))) {
              if ('error' in e.update) break
              const full = verdict(state, await verifyUpdate(e.update), e.sequenceId)
              const early = verdict(state, await verifyUntilDecided(state, e.update, e.sequenceId, {}, 1), e.sequenceId)
              expect(early).toEqual(full)
              if (!('applied' in full)) break
              state = full.applied ?? null
            }
          }
        }),
      )
    },
    (SECONDS + 120) * 1000,
  )
})
