import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { toTransferStep } from '../../../worker/transfer'
import { diffStates } from '../../model/state-diff'
import { TraceModel } from '../../trace/trace-model'
import { compareSteps, rowLabel, stateAtRow } from './diff'

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', name), 'utf8')

async function modelOf(name: string): Promise<TraceModel> {
  const trace = await replay(readLogs(fixture(name))[0]!)
  return new TraceModel(trace.steps.map(toTransferStep))
}

const W1 = '0x507c8c4bcfd632a6b5bfa5620e0252ad4f95d488'
const texts = (d: ReturnType<typeof compareSteps>, mark: string) =>
  d.diff.members
    .filter((c) => c.mark === mark)
    .map((c) => (c.after ?? c.before)!.id.text)
    .sort()

describe('compareSteps', () => {
  it('with no base, is the step’s own change (the state before it → after it), as the timeline steps', async () => {
    const model = await modelOf('valid-full-life.json')
    const d = compareSteps(model, { k: 1, i: 0 }, null)
    expect(d.direction).toBe('previous')
    expect(d.base).toBeNull()
    const v = model.actionView(1, 0)
    expect(d.diff).toEqual(diffStates(v.before, v.after, v.touched))
    expect(d.diff.members.map((c) => c.mark)).toEqual(['added'])
    expect(d.caption).toBe('From the state before sequence id 2.')
  })

  it('step 1 → the head: every member added and removed since, the recovery, handles and replay keys', async () => {
    const model = await modelOf('valid-full-life.json')
    const head = model.steps.length - 1
    const d = compareSteps(model, { k: head, i: 0 }, { k: 0, i: 1 })
    expect(d.direction).toBe('earlier')
    expect(d.caption).toBe('From the state after action 1 of sequence id 1 to the state after sequence id 13.')
    const start = model.stateAfter(0)!
    const end = model.stateAfter(head)!
    // Exactly the members only one side has: nothing more, nothing less.
    const onlyEnd = [...end.members.values()].filter((m) => !start.members.has(`${m.id.kind}:${m.id.text}`))
    const onlyStart = [...start.members.values()].filter((m) => !end.members.has(`${m.id.kind}:${m.id.text}`))
    expect(texts(d, 'added')).toEqual(onlyEnd.map((m) => m.id.text).sort())
    expect(texts(d, 'removed')).toEqual(onlyStart.map((m) => m.id.text).sort())
    expect(texts(d, 'added')).toHaveLength(4)
    expect(texts(d, 'removed')).toContain(W1) // the creator, revoked at sequence id 10
    expect(d.diff.recovery?.before?.id.text).toBe(W1)
    expect(d.diff.recovery?.after?.id.text).toBe('0xfe28ef281d27096905fc45901f4b26b59ae97a0c')
    expect([...d.diff.handlesAdded].sort()).toEqual(['nick', 'nick#2341'])
    expect(d.diff.displayHandle).toEqual({ before: null, after: 'nick' })
    expect(d.diff.claimCount).toEqual({ before: 0, after: 3 })
    expect(d.diff.replayKeysAdded).toBe(end.seen.size - start.seen.size)
    expect(d.diff.created).toBe(false)
    expect(d.diff.empty).toBe(false)
  })

  it('a later base gives the change going back: the same rows with added and removed swapped', async () => {
    const model = await modelOf('valid-full-life.json')
    const head = model.steps.length - 1
    const fwd = compareSteps(model, { k: head, i: 0 }, { k: 0, i: 1 })
    const back = compareSteps(model, { k: 0, i: 1 }, { k: head, i: 0 })
    expect(back.direction).toBe('later')
    expect(back.caption).toMatch(/^Back from the later state after sequence id 13 to the state after action 1/)
    expect(texts(back, 'added')).toEqual(texts(fwd, 'removed'))
    expect(texts(back, 'removed')).toEqual(texts(fwd, 'added'))
    expect(back.diff.replayKeysAdded).toBe(-fwd.diff.replayKeysAdded)
    expect(back.diff.displayHandle).toEqual({ before: 'nick', after: null })
  })

  it('the step itself as base is an empty diff; the step before as base equals the default', async () => {
    const model = await modelOf('valid-full-life.json')
    const same = compareSteps(model, { k: 4, i: 0 }, { k: 4, i: 0 })
    expect(same.direction).toBe('same')
    expect(same.diff.empty).toBe(true)
    const prev = compareSteps(model, { k: 4, i: 0 }, { k: 3, i: 0 })
    const dflt = compareSteps(model, { k: 4, i: 0 }, null)
    expect(prev.diff.members).toEqual(dflt.diff.members)
    expect(prev.diff.handlesAdded).toEqual(dflt.diff.handlesAdded)
    expect(prev.diff.handlesAdded).toEqual(['nick'])
  })

  it('a base inside an applied update is the state after that action: the first action of update 1', async () => {
    const model = await modelOf('valid-full-life.json')
    const d = compareSteps(model, { k: 0, i: 1 }, { k: 0, i: 0 })
    expect(d.direction).toBe('earlier')
    expect(d.diff.members.map((c) => c.mark)).toEqual(['added'])
    expect(d.diff.members[0]!.after!.id.kind).toBe('installation')
  })
})

describe('stateAtRow', () => {
  it('a rejected update keeps the state before it, not its tentative one (IDENT-002)', async () => {
    const model = await modelOf('IDENT-002-whole-update-or-nothing.json')
    const k = model.stopIndex()
    expect(k).toBeGreaterThan(0)
    const row = { k, i: 0 }
    const v = model.actionView(k, 0)
    expect(v.tentative).toBe(true)
    expect(v.after!.members.size).toBe(v.before!.members.size + 1) // action 0 would have added a member
    expect(stateAtRow(model, row)).toStrictEqual(model.stateAfter(k - 1))
    expect(stateAtRow(model, { k: -1, i: -1 })).toBeNull()
  })
})

describe('rowLabel', () => {
  it('names the action only in an update of several', async () => {
    const model = await modelOf('valid-full-life.json')
    expect(rowLabel(model, { k: 0, i: 1 })).toBe('action 1 of sequence id 1')
    expect(rowLabel(model, { k: 2, i: 0 })).toBe('sequence id 3')
    expect(rowLabel(model, { k: 99, i: 0 })).toBe('the start of the log')
  })
})
