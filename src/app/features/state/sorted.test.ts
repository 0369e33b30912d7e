import { describe, expect, it, vi } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { syntheticBundle } from '../../../../e2e/synthetic-log'
import { toTransferStep } from '../../../worker/transfer'
import { allRows, TraceModel } from '../../trace/trace-model'
import { diffStates } from '../../model/state-diff'
import { sortedMembers } from './sorted'

describe('sortedMembers', () => {
  it('stepping forward and back row by row, the incremental order equals a fresh sort of every state', async () => {
    const trace = await replay(readLogs(await syntheticBundle(80))[0]!)
    const model = new TraceModel(trace.steps.map(toTransferStep))
    for (const r of allRows(model.steps)) {
      const v = model.actionView(r.k, r.i)
      if (!v.after) continue
      if (v.before) sortedMembers(v.before.members)
      const got = sortedMembers(v.after.members, v.before?.members, diffStates(v.before, v.after, v.touched))
      const kind = { ethereum: 0, passkey: 1, installation: 2 } as const
      const want = [...v.after.members.values()].sort(
        (a, b) =>
          kind[a.id.kind] - kind[b.id.kind] || Number(a.addedAt - b.addedAt) || (a.id.text < b.id.text ? -1 : 1),
      )
      expect(got.map((m) => m.id.text)).toEqual(want.map((m) => m.id.text))
    }
    // Stepping back from the end row by row, each earlier state's order comes from the later one's.
    const back = new TraceModel(trace.steps.map(toTransferStep))
    const kind = { ethereum: 0, passkey: 1, installation: 2 } as const
    const fresh = (ms: NonNullable<typeof trace.head>['members']) =>
      [...ms.values()]
        .sort(
          (a, b) =>
            kind[a.id.kind] - kind[b.id.kind] || Number(a.addedAt - b.addedAt) || (a.id.text < b.id.text ? -1 : 1),
        )
        .map((m) => m.id.text)
    let derived = 0
    for (const r of allRows(back.steps).reverse()) {
      const v = back.actionView(r.k, r.i)
      if (!v.after || !v.before) continue
      const diff = diffStates(v.before, v.after, v.touched)
      sortedMembers(v.after.members, v.before.members, diff)
      // The state before was given its order from this one's: asking for it sorts nothing.
      const sort = vi.spyOn(Array.prototype, 'sort')
      const before = sortedMembers(v.before.members)
      expect(sort).not.toHaveBeenCalled()
      sort.mockRestore()
      expect(before.map((m) => m.id.text)).toEqual(fresh(v.before.members))
      derived++
    }
    expect(derived).toBeGreaterThan(50)
    const head = sortedMembers(trace.head!.members)
    expect(head.map((m) => m.id.kind).indexOf('installation')).toBeGreaterThan(0) // wallets and passkeys first
    const inst = head.filter((m) => m.id.kind === 'installation').map((m) => m.addedAt)
    expect(inst).toEqual([...inst].sort((a, b) => (a < b ? -1 : 1))) // then installations in the order added
  })
})
