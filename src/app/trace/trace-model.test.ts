import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { syntheticBundle } from '../../../e2e/synthetic-log'
import { readLogs } from '../../core/decode/logs'
import { replay } from '../../core/replay'
import { stateReport } from '../../core/report'
import type { Trace } from '../../core/trace'
import type { AssociationState } from '../../core/types'
import { toTransferStep } from '../../worker/transfer'
import { diffStates } from '../model/state-diff'
import { TraceModel } from './trace-model'

const rep = (s: AssociationState | null) => (s ? stateReport(s) : null)
let trace: Trace

beforeAll(async () => {
  // 200 updates: three checkpoint spans, and a rejected update past the last checkpoint.
  trace = await replay(readLogs(await syntheticBundle(200, { rejectAt: 190 }))[0]!, { verifyAfterStop: true })
}, 120_000)

describe('TraceModel: states in any order of access', () => {
  it('stepping in any order (jumps, steps back, steps forward) gives the trace’s states and diffs', () => {
    const n = trace.steps.length
    const move = fc.oneof(
      fc.integer({ min: 0, max: n - 1 }).map((k) => ({ jump: k })),
      fc.integer({ min: -3, max: 3 }).map((d) => ({ by: d })),
    )
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 40 }), (moves) => {
        const model = new TraceModel(trace.steps.map(toTransferStep))
        let k = 0
        for (const m of moves) {
          k = 'jump' in m ? m.jump : Math.min(n - 1, Math.max(0, k + m.by))
          const s = trace.steps[k]!
          const whole = model.actionView(k, -1)
          expect(rep(whole.before)).toEqual(rep(s.stateBefore))
          if (s.status === 'applied') expect(rep(whole.after)).toEqual(rep(s.stateAfter))
          // the diff from the keys the step touched equals the diff of every member
          expect(diffStates(whole.before, whole.after, whole.touched).members.length).toBe(
            diffStates(whole.before, whole.after).members.length,
          )
          s.actions.forEach((a, i) => {
            const v = model.actionView(k, i)
            expect(rep(v.before)).toEqual(rep(a.before))
          })
        }
      }),
      { numRuns: 40 },
    )
  })
})

describe('TraceModel: recent views', () => {
  it('a step back or forward gets the view it showed (the same object), an old one is rebuilt equal', () => {
    const model = new TraceModel(trace.steps.map(toTransferStep))
    const k = 150
    const first = model.actionView(k, 0)
    const sigs = model.signaturesOf(k, 0)
    expect(sigs.length).toBeGreaterThan(0)
    model.actionView(k - 1, 0)
    model.actionView(k + 1, 0)
    expect(model.actionView(k, 0)).toBe(first)
    expect(model.signaturesOf(k, 0)).toBe(sigs)
    // Many other views later, the first is gone from the recent ones and built again.
    for (let j = 0; j < 100; j++) model.actionView(j, -1)
    const again = model.actionView(k, 0)
    expect(again).not.toBe(first)
    expect(rep(again.before)).toEqual(rep(first.before))
    expect(rep(again.after)).toEqual(rep(first.after))
    expect(again.touched).toEqual(first.touched)
    expect(model.signaturesOf(k, 0)).toEqual(sigs)
  })
})

describe('TraceModel: counts kept from the first ask', () => {
  it('appliedThrough counts the applied updates up to each one, and stopIndex finds where the log stops, asked in any order', () => {
    const all = new TraceModel(trace.steps.map(toTransferStep))
    expect(all.stopIndex()).toBe(-1)
    // The same log stopped at update 150: rejected there, the later ones not applied.
    const steps = trace.steps
      .map(toTransferStep)
      .map((s, k) => (k < 150 ? s : { ...s, status: k === 150 ? ('rejected' as const) : ('not_applied' as const) }))
    const model = new TraceModel(steps)
    const n = steps.length
    for (const k of [n - 1, 0, 149, 150, 151, 57, n + 5, -1]) {
      const naive = steps.slice(0, Math.max(0, k + 1)).filter((s) => s.status === 'applied').length
      expect(model.appliedThrough(k), `update ${k}`).toBe(naive)
    }
    expect(model.appliedThrough(n - 1)).toBe(150)
    expect(model.stopIndex()).toBe(150)
    expect(model.stopIndex()).toBe(150)
  })
})
