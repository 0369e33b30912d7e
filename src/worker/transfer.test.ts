import { describe, expect, it } from 'vitest'
import { PMap, PSet } from '../core/persistent'
import { readLogs } from '../core/decode/logs'
import { replay } from '../core/replay'
import { stateReport } from '../core/report'
import type { Trace } from '../core/trace'
import type { AssociationState, InboxId, Member } from '../core/types'
import { syntheticBundle } from '../../e2e/synthetic-log'
import { TraceModel } from '../app/trace/trace-model'
import { diffStates } from '../app/model/state-diff'
import { applyDelta, ownBytes, stateDelta, toTransferStep } from './transfer'

const rep = (s: AssociationState | null) => (s ? stateReport(s) : null)

async function traceOf(bundle: string): Promise<Trace> {
  return replay(readLogs(bundle)[0]!, { verifyAfterStop: true })
}

function member(text: string, adder: string | null = null): Member {
  return {
    id: { kind: 'installation', text },
    adder: adder ? { kind: 'ethereum', text: adder } : null,
    clientTimestampNs: 5n,
    chainId: null,
    addedAt: 2n,
  }
}

const base: AssociationState = {
  inboxId: 'ab'.repeat(32) as InboxId,
  members: PMap.of([['installation:aa', member('aa')]]),
  recovery: { id: { kind: 'ethereum', text: `0x${'1'.repeat(40)}` }, chainId: null },
  handles: ['x'],
  claimCount: 1,
  installationsByAdder: PMap.empty(),
  seen: PSet.of(['k1']),
  sequenceId: 3n,
}

describe('stateDelta / applyDelta', () => {
  it('a delta from no state rebuilds the whole state', () => {
    const d = stateDelta(null, base)
    expect(rep(applyDelta(null, d))).toEqual(rep(base))
  })
  it('an add hint gives a one-member delta; a wrong hint still gives an exact one', () => {
    const after = { ...base, members: base.members.set('installation:bb', member('bb')) }
    const d = stateDelta(base, after, { addedKey: 'installation:bb' })
    expect(d.put?.map((m) => m.id.text)).toEqual(['bb'])
    expect(d.del).toBeUndefined()
    const wrong = stateDelta(base, after, { addedKey: 'installation:zz' })
    expect(rep(applyDelta(base, wrong))).toEqual(rep(after))
  })
  it('removals, recovery, handles, claim count, seen keys and sequence id travel', () => {
    const after: AssociationState = {
      ...base,
      members: base.members.delete('installation:aa').set('installation:cc', member('cc')),
      recovery: { id: { kind: 'ethereum', text: `0x${'2'.repeat(40)}` }, chainId: 1n },
      handles: ['y', 'x'],
      claimCount: 2,
      seen: base.seen.union(['k2', 'k3']),
      sequenceId: 4n,
    }
    const d = stateDelta(base, after, { replayKeys: ['k2', null] }) // incomplete hint: falls back
    expect(d.del).toEqual(['installation:aa'])
    expect([...(d.seen ?? [])].sort()).toEqual(['k2', 'k3'])
    expect(rep(applyDelta(base, d))).toEqual(rep(after))
    expect(rep(base)!.members).toHaveLength(1) // never mutated
  })
  it('a revoke hint gives the cascade (IDENT-044) as its delta, without walking the members', () => {
    const wallet: Member = { ...member('w'), id: { kind: 'ethereum', text: `0x${'3'.repeat(40)}` } }
    const wk = `ethereum:${wallet.id.text}`
    const before: AssociationState = {
      ...base,
      members: base.members
        .set(wk, wallet)
        .set('installation:i1', member('i1', wallet.id.text))
        .set('installation:i2', member('i2', wallet.id.text)),
      installationsByAdder: PMap.of([[wk, PSet.of(['installation:i1', 'installation:i2'])]]),
    }
    const after: AssociationState = {
      ...before,
      members: before.members.deleteAll([wk, 'installation:i1', 'installation:i2']),
      installationsByAdder: before.installationsByAdder.delete(wk),
    }
    const walked = () => {
      throw new Error('the members were walked')
    }
    for (const m of [before.members, after.members] as unknown as Record<PropertyKey, unknown>[]) {
      m[Symbol.iterator] = walked
      m.keys = walked
    }
    const d = stateDelta(before, after, { removedKeys: [wk, 'installation:i1', 'installation:i2', 'installation:zz'] })
    expect(d.del).toEqual([wk, 'installation:i1', 'installation:i2'])
    expect(d.put).toBeUndefined()
    for (const m of [before.members, after.members] as unknown as Record<PropertyKey, unknown>[]) {
      delete m[Symbol.iterator]
      delete m.keys
    }
    expect(rep(applyDelta(before, d))).toEqual(rep(after))
    // A hint short of the change (the cascade left out) falls back to comparing every member.
    const short = stateDelta(before, after, { removedKeys: [wk] })
    expect([...(short.del ?? [])].sort()).toEqual([wk, 'installation:i1', 'installation:i2'].sort())
    expect(rep(applyDelta(before, short))).toEqual(rep(after))
  })
  it('an unchanged state gives an empty delta', () => {
    expect(stateDelta(base, { ...base })).toEqual({})
  })
})

describe('ownBytes', () => {
  it('copies subarrays to their own buffer and keeps whole arrays', () => {
    const big = new Uint8Array(1000)
    const v = ownBytes({ a: [big.subarray(10, 20)], b: big })
    expect(v.a[0]!.buffer.byteLength).toBe(10)
    expect(v.b).toBe(big)
  })
})

describe('toTransferStep + TraceModel rebuild the Trace exactly', () => {
  it('every state before and after every update and action, across checkpoints and a structuredClone', async () => {
    const trace = await traceOf(await syntheticBundle(150))
    expect(trace.ok).toBe(true)
    const steps = structuredClone(trace.steps.map(toTransferStep))
    const model = new TraceModel(steps)
    // random access first (checkpoints), then in order
    for (const k of [149, 3, 130, 64, 63, 0]) expect(rep(model.stateAfter(k))).toEqual(rep(trace.steps[k]!.stateAfter))
    trace.steps.forEach((s, k) => {
      expect(rep(model.stateBefore(k))).toEqual(rep(s.stateBefore))
      expect(rep(model.stateAfter(k))).toEqual(rep(s.stateAfter))
      s.actions.forEach((a, i) => {
        const v = model.actionView(k, i)
        expect(rep(v.before)).toEqual(rep(a.before))
        // the last action of an applied update shows the final state (replay keys recorded)
        expect(rep(v.after)).toEqual(rep(i === s.actions.length - 1 ? s.stateAfter : a.after))
      })
    })
  })
  it('the keys an action view says it touched give the same diff as comparing every member', async () => {
    const trace = await traceOf(await syntheticBundle(90, { rejectAt: 70 }))
    const model = new TraceModel(trace.steps.map(toTransferStep))
    const norm = (d: ReturnType<typeof diffStates>) => ({
      ...d,
      members: [...d.members].sort((a, b) => (a.key < b.key ? -1 : 1)),
    })
    trace.steps.forEach((s, k) => {
      for (let i = -1; i < (s.update?.actions.length ?? 0); i++) {
        const v = model.actionView(k, i)
        expect(norm(diffStates(v.before, v.after, v.touched)), `update ${k} action ${i}`).toEqual(
          norm(diffStates(v.before, v.after)),
        )
      }
    })
  })

  it('a rejected update (IDENT-040) keeps the state before it, and the log stops there', async () => {
    const trace = await traceOf(await syntheticBundle(12, { rejectAt: 8 }))
    const model = new TraceModel(trace.steps.map(toTransferStep))
    const k = model.stopIndex()
    expect(trace.steps[k]!.rule).toBe('IDENT-040')
    expect(model.actionStatus(k, 0)).toBe('rejected')
    expect(model.actionStatus(k + 1, 0)).toBe('not_applied')
    expect(rep(model.stateAfter(k))).toEqual(rep(model.stateAfter(k - 1)))
    expect(rep(model.stateAfter(11))).toEqual(rep(trace.head))
    expect(model.appliedThrough(11)).toBe(k)
  })
  it('every fixture log travels and rebuilds, state by state and action by action', async () => {
    const { readdirSync, readFileSync } = await import('node:fs')
    const dir = new URL('../../test/fixtures/', import.meta.url)
    let traces = 0
    let revokes = 0
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))) {
      if (name === 'index.json') continue
      let logs
      try {
        logs = readLogs(readFileSync(new URL(name, dir), 'utf8'), name)
      } catch {
        continue // a fixture of unreadable input (IDENT-001 and the like)
      }
      for (const log of logs) {
        const trace = await replay(log, { verifyAfterStop: true })
        const model = new TraceModel(structuredClone(trace.steps.map(toTransferStep)))
        traces++
        trace.steps.forEach((s, k) => {
          expect(rep(model.stateAfter(k)), `${name} update ${k}`).toEqual(rep(s.stateAfter))
          s.actions.forEach((a, i) => {
            if (a.kind === 'revoke' && a.after) revokes++
            const v = model.actionView(k, i)
            expect(rep(v.before), `${name} update ${k} action ${i}`).toEqual(rep(a.before))
            // An applied update's last action shows its final state; an action that did
            // not apply (a rejected or pending update) shows the state it would have made, or none.
            const last = i === (s.update?.actions.length ?? 0) - 1
            expect(rep(v.after), `${name} update ${k} action ${i}`).toEqual(
              rep(s.status === 'applied' && last ? s.stateAfter : (a.after ?? a.before)),
            )
          })
        })
      }
    }
    expect(traces).toBeGreaterThan(20)
    expect(revokes).toBeGreaterThan(3)
  })
  it('the real-world rows 6 and 7 of the xmtpd vectors travel and rebuild', async () => {
    const { readFileSync } = await import('node:fs')
    const csv = readFileSync(new URL('../app/demo/xmtpd-inbox-rows-6-7.csv', import.meta.url), 'utf8')
    const trace = await replay(readLogs(csv)[0]!)
    const model = new TraceModel(structuredClone(trace.steps.map(toTransferStep)))
    expect(rep(model.stateAfter(1))).toEqual(rep(trace.head))
    expect(model.stateAfter(1)!.members.size).toBe(3)
  })
})
