import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { syntheticBundle } from '../../../../e2e/synthetic-log'
import { toTransferStep } from '../../../worker/transfer'
import { allRows, TraceModel } from '../../trace/trace-model'
import { diffStates } from '../../model/state-diff'
import { sortedMembers } from './sorted'

describe('sortedMembers', () => {
  it('stepping forward row by row, the incremental order equals a fresh sort of every state', async () => {
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
    const head = sortedMembers(trace.head!.members)
    expect(head.map((m) => m.id.kind).indexOf('installation')).toBeGreaterThan(0) // wallets and passkeys first
    const inst = head.filter((m) => m.id.kind === 'installation').map((m) => m.addedAt)
    expect(inst).toEqual([...inst].sort((a, b) => (a < b ? -1 : 1))) // then installations in the order added
  })
})
