import { describe, expect, it } from 'vitest'
import type { AuditOutcome } from './job'
import type { AuditRow } from './row'
import { packOutcomes, unpackOutcomes } from './work'

const row = (inbox: string | null, message: string | null): AuditRow => ({
  source: 'a/b.pb',
  inbox_id: inbox,
  ok: message === null,
  updates: 3,
  head: inbox ? '7' : null,
  first_failure:
    message === null ? null : { sequence_id: '5', status: 'rejected', rule: 'IDENT-030', action_index: 1, message },
  members: 2,
  state_digest: 'aa',
  log_digest: 'bb',
  checked: 3,
})

describe('packOutcomes', () => {
  it('carries outcomes to the main thread as they are, rows with line breaks included', () => {
    const outcomes: AuditOutcome[] = [
      ['k1', row('k1', null), new Uint8Array([3, 1, 2])],
      ['#1', row(null, 'two\nlines \u2028 and "quotes"'), null],
      ['k\n3', row('k\n3', ''), new Uint8Array([3])],
    ].map(([key, r, state]) => ({
      source: 'a/b.pb',
      key: key as string,
      row: r as AuditRow,
      head: {
        lastSeq: (r as AuditRow).head,
        logDigest: 'bb',
        stateFormat: 3,
        state: state as Uint8Array | null,
        row: r as AuditRow,
      },
    }))
    const { outcomes: wire, transfer } = packOutcomes(outcomes)
    expect(transfer).toEqual([wire.states])
    const back = unpackOutcomes(structuredClone(wire))
    expect(back.map(({ json: _, ...o }) => o)).toEqual(outcomes)
    expect(back.map((o) => o.json)).toEqual(outcomes.map((o) => JSON.stringify(o.row)))
    expect(back[0]!.head.row).toBe(back[0]!.row)
    expect(unpackOutcomes(packOutcomes([]).outcomes)).toEqual([])
  })
})
