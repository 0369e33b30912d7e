import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../../core/decode/logs'
import { replay } from '../../core/replay'
import { toTransferStep, type TransferStep } from '../../worker/transfer'
import { activeTab, defaultTab, isTabId, tabsFor } from './step-tabs'

async function stepsOf(name: string): Promise<TransferStep[]> {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', name), 'utf8')
  const trace = await replay(readLogs(text)[0]!)
  return trace.steps.map(toTransferStep)
}

/** The step where the log stops (rejected or pending). */
async function stopOf(name: string): Promise<TransferStep> {
  const s = (await stepsOf(name)).find((x) => x.status === 'rejected' || x.status === 'pending')
  if (!s) throw new Error(`${name} does not stop`)
  return s
}

const ids = (step: TransferStep) => tabsFor(step.signatures).map((t) => t.id)

describe('tabsFor', () => {
  it('State, Diff, Signature text, Signatures, Raw; Chain only beside an erc_6492 signature', async () => {
    const [first] = await stepsOf('valid-full-life.json')
    expect(tabsFor(first!.signatures).map((t) => t.label)).toEqual([
      'State',
      'Diff',
      'Signature text',
      'Signatures',
      'Raw',
    ])
    expect(ids(await stopOf('IDENT-061-pending-no-verifier.json'))).toContain('chain')
  })
})

describe('defaultTab', () => {
  it('an applied step opens on its state', async () => {
    const steps = await stepsOf('valid-full-life.json')
    for (const s of steps) expect(defaultTab(s, tabsFor(s.signatures))).toBe('state')
  })
  it.each([
    ['IDENT-040-add-signer-mismatch.json', 'signatures'], // the signer recovered is not the one required
    ['IDENT-050-replay-after-revocation.json', 'signatures'], // a replay key already seen
    ['IDENT-001-empty-actions.json', 'raw'], // the bytes say there is nothing to apply
    ['IDENT-078-handle-uppercase.json', 'text'], // the handle as the action carries it
    ['IDENT-041-installation-adds-installation.json', 'state'], // the adder's place in the member set
    ['IDENT-061-pending-no-verifier.json', 'chain'], // the chain that could not be asked
  ] as const)('a step that stops the log, %s, opens where the failure is explained: %s', async (file, tab) => {
    const s = await stopOf(file)
    expect(defaultTab(s, tabsFor(s.signatures))).toBe(tab)
  })
})

describe('activeTab', () => {
  it('keeps the user’s choice from step to step, and falls back where the step lacks that tab', async () => {
    const [first] = await stepsOf('valid-full-life.json')
    const rejected = await stopOf('IDENT-040-add-signer-mismatch.json')
    expect(activeTab('raw', first!, tabsFor(first!.signatures))).toBe('raw')
    expect(activeTab('raw', rejected, tabsFor(rejected.signatures))).toBe('raw')
    expect(activeTab(null, rejected, tabsFor(rejected.signatures))).toBe('signatures')
    expect(activeTab('chain', first!, tabsFor(first!.signatures))).toBe('state')
  })
})

describe('isTabId', () => {
  it('accepts the tab names only', () => {
    expect(['state', 'diff', 'text', 'signatures', 'raw', 'chain'].every(isTabId)).toBe(true)
    expect(isTabId('State')).toBe(false)
    expect(isTabId(undefined)).toBe(false)
  })
})
