import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareSources, type LogSource } from './compare'

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', 'valid-full-life.json'), 'utf8'),
) as { inbox_id: string; updates: { sequence_id: string; update_hex: string }[] }
const full: LogSource = {
  label: 'A',
  inboxId: fixture.inbox_id,
  updates: fixture.updates.map((u) => ({
    sequenceId: BigInt(u.sequence_id),
    bytes: new Uint8Array(Buffer.from(u.update_hex, 'hex')),
  })),
}

describe('comparing two sources of one inbox', () => {
  it('the same log twice: identical', async () => {
    const c = await compareSources(full, { ...full, label: 'B' })
    expect(c.identical).toBe(true)
    expect(c.same).toBe(full.updates.length)
  })

  it('a source that withholds the last update: only A has it, and the head states differ', async () => {
    const withheld: LogSource = { ...full, label: 'B', updates: full.updates.slice(0, -1) }
    const c = await compareSources(full, withheld)
    expect(c.identical).toBe(false)
    expect(c.onlyA).toEqual([full.updates.at(-1)!.sequenceId])
    expect(c.onlyB).toEqual([])
    expect(c.state.headSequenceIds.a).not.toBe(c.state.headSequenceIds.b)
  })

  it('the same sequence id with other bytes is listed with both sides', async () => {
    const swapped: LogSource = {
      ...full,
      label: 'B',
      updates: full.updates.map((u, i) => (i === 1 ? { ...u, bytes: full.updates[2]!.bytes } : u)),
    }
    const c = await compareSources(full, swapped)
    expect(c.differing.map((d) => d.sequenceId)).toEqual([full.updates[1]!.sequenceId])
    expect(c.identical).toBe(false)
  })
})
