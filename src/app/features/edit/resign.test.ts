import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { utf8 } from '../../../crypto/bytes'
import { sha256 } from '../../../crypto/hash'
import { applyEdits, editableEntries, type EditOp } from '../../../core/encode/edit'
import { encodeBundleJson } from '../../../core/encode/update'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import type { InboxLog } from '../../../core/types'
import { ethKeySigner } from '../../../signing/signers'
import { resign } from './resign'

const FULL_LIFE = readLogs(
  new Uint8Array(readFileSync(new URL('../../../../test/fixtures/valid-full-life.json', import.meta.url))),
  'valid-full-life.json',
)[0]!
const fixtureKey = (label: string): Uint8Array => sha256(utf8(`fixture-key-${label}`))

function edit(log: InboxLog, ops: readonly EditOp[]): InboxLog {
  const entries = applyEdits(editableEntries(log), ops)
  const bundle = encodeBundleJson({
    inboxId: log.inboxId!,
    updates: entries.map((e) => ({ sequenceId: e.sequenceId, bytes: e.bytes! })),
  })
  return readLogs(bundle, 'edited.json')[0]!
}

describe('resign', () => {
  const rename: EditOp = { op: 'set', seq: 5n, path: ['actions', 0, 'claim_handle', 'handle'], value: 'nico' }

  it('an edited claim signed again by the held key of its signer applies again', async () => {
    const original = await replay(FULL_LIFE)
    const edited = edit(FULL_LIFE, [rename])
    const broken = await replay(edited)
    expect(broken.steps[4]!.rule).toBe('IDENT-081') // the old signature recovers to another address
    const r = await resign(5n, broken.steps[4]!.update!, original.steps[4]!.signatures, [
      ethKeySigner(fixtureKey('wallet-1')),
    ])
    if (!r.ok) throw new Error(r.reason)
    expect(r.signed).toEqual(['action 0 signature by ethereum 0x507c8c4bcfd632a6b5bfa5620e0252ad4f95d488'])
    const fixed = await replay(edit(FULL_LIFE, [rename, ...r.ops]))
    expect(fixed.ok).toBe(true)
    expect(fixed.head!.handles).toContain('nico')
  })

  it('names each signature it cannot sign, and fails without any held key', async () => {
    const original = await replay(FULL_LIFE)
    const broken = await replay(edit(FULL_LIFE, [rename]))
    const r = await resign(5n, broken.steps[4]!.update!, original.steps[4]!.signatures, [
      ethKeySigner(fixtureKey('wallet-2')),
    ])
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.reason).toMatch(/no key of ethereum 0x507c8c4bcfd632a6b5bfa5620e0252ad4f95d488.*import one in Signers/)
  })

  it('signs the parties it holds and lists the rest (an add: the new member is named by the update)', async () => {
    const original = await replay(FULL_LIFE)
    const ts: EditOp = { op: 'set', seq: 3n, path: ['client_timestamp_ns'], value: '1712750580000000001' }
    const broken = await replay(edit(FULL_LIFE, [ts]))
    const r = await resign(3n, broken.steps[2]!.update!, original.steps[2]!.signatures, [
      ethKeySigner(fixtureKey('wallet-1')),
      ethKeySigner(fixtureKey('wallet-2')),
    ])
    if (!r.ok) throw new Error(r.reason)
    expect(r.signed).toHaveLength(2)
    expect(r.skipped).toEqual([])
    expect((await replay(edit(FULL_LIFE, [ts, ...r.ops]))).ok).toBe(true)
  })
})
