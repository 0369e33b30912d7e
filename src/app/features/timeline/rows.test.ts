import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { syntheticBundle } from '../../../../e2e/synthetic-log'
import { toTransferStep } from '../../../worker/transfer'
import { allRows, TraceModel } from '../../trace/trace-model'
import { describeRow, filterRows, NO_FILTER } from './rows'

async function model(n: number, rejectAt?: number) {
  const trace = await replay(readLogs(await syntheticBundle(n, rejectAt ? { rejectAt } : {}))[0]!, {
    verifyAfterStop: true,
  })
  const m = new TraceModel(trace.steps.map(toTransferStep))
  return { m, rows: allRows(m.steps) }
}

describe('describeRow', () => {
  it('names the action kind, its subject, its signers, the client time and the status', async () => {
    const { m, rows } = await model(3)
    const v = describeRow(m, rows[2]!) // seq 3: the wallet adds a passkey
    expect(v.sequenceId).toBe(3n)
    expect(v.kindLabel).toBe('AddAssociation')
    expect(v.subject?.kind).toBe('passkey')
    expect(v.signers).toHaveLength(2)
    expect(v.signers.every((s) => s.verdict === 'valid')).toBe(true)
    expect(v.status).toBe('applied')
    expect(v.clientTimestampNs).toBe(1_717_000_003_000_000_000n)
  })
})

describe('filterRows', () => {
  it('filters by kind, by status and by member text (full or short form)', async () => {
    const { m, rows } = await model(12, 9)
    expect(filterRows(m, rows, NO_FILTER)).toBe(rows)
    expect(filterRows(m, rows, { ...NO_FILTER, kind: 'create_inbox' }).map((r) => r.k)).toEqual([0])
    expect(filterRows(m, rows, { ...NO_FILTER, status: 'rejected' }).map((r) => m.steps[r.k]!.sequenceId)).toEqual([9n])
    expect(filterRows(m, rows, { ...NO_FILTER, status: 'not_applied' })).toHaveLength(3)
    const wallet = describeRow(m, rows[0]!).subject!.text
    const short = `${wallet.slice(0, 6)}…${wallet.slice(-4)}`
    const byFull = filterRows(m, rows, { ...NO_FILTER, text: wallet.toUpperCase() })
    expect(byFull.length).toBeGreaterThan(3) // it created the inbox and signs adds and revocations
    expect(filterRows(m, rows, { ...NO_FILTER, text: short })).toEqual(byFull)
    expect(filterRows(m, rows, { ...NO_FILTER, text: 'no-such-member' })).toEqual([])
  })
})
