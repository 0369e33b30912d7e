import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { toTransferStep } from '../../../worker/transfer'
import { TraceModel } from '../../trace/trace-model'
import { diffStates } from '../../model/state-diff'
import { changeLines } from './changes'

async function modelOf(name: string): Promise<TraceModel> {
  const file = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures', `${name}.json`)
  const trace = await replay(readLogs(readFileSync(file, 'utf8'))[0]!, { verifyAfterStop: true })
  return new TraceModel(trace.steps.map(toTransferStep))
}

/** The lines of step (k, i), from the same diff the Diff tab shows. */
function linesAt(m: TraceModel, k: number, i: number): string[] {
  const v = m.actionView(k, i)
  return changeLines(diffStates(v.before, v.after, v.touched)).map((l) => `${l.mark} ${l.text}`)
}

describe('changeLines', () => {
  it('tells a creation, members added and removed, recovery and handles, from valid-full-life', async () => {
    const m = await modelOf('valid-full-life')
    expect(linesAt(m, 0, 0)).toEqual([
      'added the inbox is created',
      'added member wallet 0x507c8c…d488',
      'changed recovery identifier: none → wallet 0x507c8c…d488',
    ])
    expect(linesAt(m, 0, 1)).toEqual([
      'added member installation 838d8f…7b51',
      'added 2 replay keys marked used (IDENT-050)',
    ])
    expect(linesAt(m, 5, 0)).toEqual([
      'added handle "nick#2341"',
      'changed display handle: "nick" → "nick#2341"',
      'changed claims made: 1 → 2 of 64',
      'added 1 replay key marked used (IDENT-050)',
    ])
    expect(linesAt(m, 8, 0)).toEqual([
      'changed recovery identifier: wallet 0x507c8c…d488 → wallet 0xfe28ef…7a0c',
      'added 1 replay key marked used (IDENT-050)',
    ])
    // IDENT-044: the revocation removes the wallet and the installation it added.
    expect(linesAt(m, 9, 0).sort()).toEqual(
      [
        'removed member wallet 0x507c8c…d488',
        'removed member installation 838d8f…7b51',
        'added 1 replay key marked used (IDENT-050)',
      ].sort(),
    )
  })
  it('is empty for a rejected update, which changes nothing', async () => {
    const m = await modelOf('IDENT-040-add-signer-mismatch')
    expect(linesAt(m, 1, 0)).toEqual([])
  })
  it('lists at most six members, then how many more', () => {
    const id = (n: number) => ({ id: { kind: 'installation' as const, text: `${n}`.padStart(64, 'a') } })
    const lines = changeLines({
      created: false,
      members: Array.from({ length: 9 }, (_, n) => ({
        mark: 'removed' as const,
        before: id(n),
        after: null,
        fields: [],
      })),
      recovery: null,
      handlesAdded: [],
      displayHandle: null,
      claimCount: null,
      replayKeysAdded: 0,
    })
    expect(lines).toHaveLength(7)
    expect(lines[6]).toEqual({ mark: 'changed', text: '… and 3 more members' })
  })
})
