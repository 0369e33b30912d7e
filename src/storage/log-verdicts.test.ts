import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { syntheticBundle } from '../../e2e/synthetic-log'
import { readLogs } from '../core/decode/logs'
import { replay } from '../core/replay'
import { toReport } from '../core/report'
import type { SignatureCheck, Trace } from '../core/trace'
import type { InboxLog } from '../core/types'
import { verifyUpdate } from '../core/verify/update'
import { decodeLogVerdicts, encodeLogVerdicts, fitsUpdate, LogVerdictsEncoder, storedStage } from './log-verdicts'

const N = 24
let log: InboxLog
let trace: Trace
const checksOf = (t: Trace) => t.steps.map((s) => (s.update ? s.signatures : null))

beforeAll(async () => {
  log = readLogs(await syntheticBundle(N), 'synthetic.json')[0]!
  trace = await replay(log, { verifyAfterStop: true })
}, 60_000)

describe('a log verdicts blob', () => {
  it('gives back every check of every update, field for field', () => {
    const stored = decodeLogVerdicts(encodeLogVerdicts(checksOf(trace)), log.entries.length)
    expect(stored).not.toBeNull()
    expect(stored).toEqual(checksOf(trace))
  })

  it('is the same text when encoded in slices of any size (the worker writes it a slice at a time)', () => {
    const whole = encodeLogVerdicts(checksOf(trace))
    // The text is JSON.stringify's own (the same keys in the same order).
    expect(JSON.stringify(JSON.parse(whole))).toBe(whole)
    for (const size of [1, 3, 7, N - 1, N + 5]) {
      const encoder = new LogVerdictsEncoder()
      const all = checksOf(trace)
      for (let i = 0; i < all.length; i += size) encoder.add(all.slice(i, i + size))
      expect(encoder.finish(), `slices of ${size}`).toBe(whole)
    }
    expect(encodeLogVerdicts([])).toBe(JSON.stringify({ v: 1, n: 0, s: [], u: [] }))
  })

  it('replays a log from its record to the same trace and report, verifying nothing', async () => {
    const stored = decodeLogVerdicts(encodeLogVerdicts(checksOf(trace)), log.entries.length)!
    const used = { count: 0 }
    let verified = 0
    const again = await replay(log, {
      verifyAfterStop: true,
      verify: storedStage(
        stored,
        (u) => {
          verified++
          return verifyUpdate(u, {})
        },
        used,
      ),
    })
    expect(toReport(again, 'x')).toEqual(toReport(trace, 'x'))
    expect(again.steps.map((s) => s.signatures)).toEqual(trace.steps.map((s) => s.signatures))
    expect(verified).toBe(0)
    expect(used.count).toBe(N)
  })

  it('counts the updates answered from the record, and verifies those it does not hold', async () => {
    const checks = checksOf(trace)
    // updates 3 and 7 not kept (as an erc_6492 or unreachable check would leave them)
    const partial = checks.map((c, n) => (n === 3 || n === 7 ? null : c))
    const stored = decodeLogVerdicts(encodeLogVerdicts(partial), log.entries.length)!
    expect(stored[3]).toBeNull()
    const used = { count: 0 }
    const asked: number[] = []
    const again = await replay(log, {
      verifyAfterStop: true,
      verify: storedStage(
        stored,
        (u, n) => {
          asked.push(n)
          return verifyUpdate(u, {})
        },
        used,
      ),
    })
    expect(asked).toEqual([3, 7])
    expect(used.count).toBe(N - 2)
    expect(toReport(again, 'x')).toEqual(toReport(trace, 'x'))
  })

  it('keeps no update with a check that is not a verdict to keep (unreachable, unchecked, erc_6492)', () => {
    const c = trace.steps[1]!.signatures
    const unreachable: SignatureCheck[] = [{ ...c[0]!, verdict: 'unreachable' }, ...c.slice(1)]
    const smart: SignatureCheck[] = [{ ...c[0]!, kind: 'erc_6492' }, ...c.slice(1)]
    const unchecked: SignatureCheck[] = c.map((x) => ({ ...x, verdict: 'unchecked' }))
    const stored = decodeLogVerdicts(encodeLogVerdicts([c, unreachable, smart, unchecked, []]), 5)!
    expect(stored[0]).toEqual(c)
    expect(stored.slice(1)).toEqual([null, null, null, null])
  })

  it('is not used for a log of another length, another version, or what is not a blob', () => {
    const blob = encodeLogVerdicts(checksOf(trace))
    expect(decodeLogVerdicts(blob, log.entries.length + 1)).toBeNull()
    expect(decodeLogVerdicts(blob.replace('"v":1', '"v":2'), log.entries.length)).toBeNull()
    expect(decodeLogVerdicts('{not json', log.entries.length)).toBeNull()
    expect(decodeLogVerdicts(42, log.entries.length)).toBeNull()
    expect(decodeLogVerdicts(null, log.entries.length)).toBeNull()
  })

  it("does not fit one update's checks on another update", () => {
    const u = (k: number) => log.entries[k]!.update as Parameters<typeof fitsUpdate>[1]
    expect(fitsUpdate(trace.steps[2]!.signatures, u(2))).toBe(true)
    // the create_inbox's one check on an add (two signatures)
    expect(fitsUpdate(trace.steps[0]!.signatures, u(1))).toBe(false)
    expect(fitsUpdate([...trace.steps[1]!.signatures].reverse(), u(1))).toBe(false)
    expect(fitsUpdate(trace.steps[1]!.signatures.slice(0, 1), u(1))).toBe(false)
  })

  it('never throws on a damaged blob: any damaged check makes its update none, and none is a wrong shape', () => {
    const blob = JSON.parse(encodeLogVerdicts(checksOf(trace))) as { u: unknown[][]; s: unknown[] }
    fc.assert(
      fc.property(
        fc.nat({ max: N - 1 }),
        fc.nat({ max: 10 }),
        fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(-1), fc.constant(1e9), fc.array(fc.nat())),
        (n, field, value) => {
          const damaged = structuredClone(blob)
          const check = damaged.u[n]?.[0] as unknown[] | undefined
          if (!check) return
          check[field] = value
          const stored = decodeLogVerdicts(JSON.stringify(damaged), log.entries.length)
          expect(stored).not.toBeNull()
          const got = stored![n]
          // Either the change was harmless (a value of the same meaning) or the update is dropped.
          if (got) for (const c of got) expect(['valid', 'invalid']).toContain(c.verdict)
          // The other updates are untouched.
          for (let k = 0; k < N; k++) if (k !== n) expect(stored![k]).toEqual(checksOf(trace)[k])
        },
      ),
      { numRuns: 200 },
    )
  })
})
