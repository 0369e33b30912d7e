/**
 * IncrementalReplay against replay: every fixture of the corpus (test/fixtures/index.json),
 * fed one update at a time in sequence id order, gives replay's rows (status, rule, action
 * index, message) and head state, so `watch` judges a log as `replay` does.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../core/decode/logs'
import { replay, sortedEntries } from '../core/replay'
import { toReport } from '../core/report'
import { FakeSmartWalletVerifier } from '../../test/fixtures/fake-smart-wallet'
import { IncrementalReplay } from './judge'

const DIR = join(import.meta.dirname, '..', '..', 'test', 'fixtures')
const index = JSON.parse(readFileSync(join(DIR, 'index.json'), 'utf8')) as {
  fixtures: { name: string; verifier: 'none' | 'fake'; files: { bundle: string } }[]
}

describe('IncrementalReplay', () => {
  it.each(index.fixtures.map((f) => [f.name, f] as const))('%s: the rows and head of replay', async (_name, f) => {
    const [log] = readLogs(new Uint8Array(readFileSync(join(DIR, f.files.bundle))), f.files.bundle)
    const opts = f.verifier === 'fake' ? { smartWallets: new FakeSmartWalletVerifier() } : {}
    const expected = toReport(await replay(log!, opts), f.files.bundle)
    const judge = new IncrementalReplay(opts)
    const rows = []
    for (const entry of sortedEntries(log!)) {
      const v = await judge.push(entry)
      rows.push({
        sequence_id: v.sequenceId.toString(),
        status: v.status,
        rule: v.rule,
        action_index: v.actionIndex,
        message: v.message,
      })
    }
    expect(rows).toEqual(expected.updates)
    expect(
      judge.head === null ? null : toReport({ inboxId: null, steps: [], head: judge.head, ok: true }, '').state,
    ).toEqual(expected.state)
  })

  it('refuses an update whose sequence id is not above the last (IDENT-004)', async () => {
    const [log] = readLogs(new Uint8Array(readFileSync(join(DIR, 'valid-full-life.json'))), 'valid-full-life.json')
    const [a, b] = sortedEntries(log!)
    const judge = new IncrementalReplay()
    await judge.push(b!)
    await expect(judge.push(a!)).rejects.toThrow(/not above the last judged/)
  })
})
