import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { applyEdits, editableEntries, type EditOp } from '../../../core/encode/edit'
import { encodeBundleJson } from '../../../core/encode/update'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import type { InboxLog } from '../../../core/types'
import { charDiff, whatChanged } from './what-changed'

const FULL_LIFE = readLogs(
  new Uint8Array(readFileSync(new URL('../../../../test/fixtures/valid-full-life.json', import.meta.url))),
  'valid-full-life.json',
)[0]!

function edit(log: InboxLog, ops: EditOp[]): InboxLog {
  const entries = applyEdits(editableEntries(log), ops)
  const bundle = encodeBundleJson({
    inboxId: log.inboxId!,
    updates: entries.map((e) => ({ sequenceId: e.sequenceId, bytes: e.bytes! })),
  })
  return readLogs(bundle, 'edited.json')[0]!
}

/** The text a diff spells without its insertions (the text before) or its deletions (the text after). */
const textWithout = (d: ReturnType<typeof charDiff>, op: 'ins' | 'del') =>
  d
    .filter((s) => s.op !== op)
    .map((s) => s.text)
    .join('')

const members = (s: { members: { size: number } } | null) => s?.members.size ?? 0

async function compare(ops: EditOp[]) {
  const original = await replay(FULL_LIFE)
  const edited = await replay(edit(FULL_LIFE, ops))
  return whatChanged(original, edited, (b, a) => ({ before: members(b), after: members(a) }))
}

describe('charDiff', () => {
  it.each([
    {
      what: 'marks exactly the changed characters',
      before: 'Handle: nick',
      after: 'Handle: Nick',
      diff: [
        { op: 'same', text: 'Handle: ' },
        { op: 'del', text: 'n' },
        { op: 'ins', text: 'N' },
        { op: 'same', text: 'ick' },
      ],
    },
    {
      what: 'keeps the common middle of an edit',
      before: 'abXcdYef',
      after: 'abcdef',
      diff: [
        { op: 'same', text: 'ab' },
        { op: 'del', text: 'X' },
        { op: 'same', text: 'cd' },
        { op: 'del', text: 'Y' },
        { op: 'same', text: 'ef' },
      ],
    },
    { what: 'inserts at the ends', before: '', after: 'new', diff: [{ op: 'ins', text: 'new' }] },
    { what: 'leaves an unchanged text whole', before: 'same', after: 'same', diff: [{ op: 'same', text: 'same' }] },
  ])('$what', ({ before, after, diff }) => {
    expect(charDiff(before, after)).toEqual(diff)
  })

  it('rejoins into both texts, over the cell budget too', () => {
    const a = 'the quick brown fox'
    const b = 'the quack brawn fix'
    for (const max of [4_000_000, 1]) {
      const d = charDiff(a, b, max)
      expect(textWithout(d, 'ins')).toBe(a)
      expect(textWithout(d, 'del')).toBe(b)
    }
  })
})

describe('whatChanged', () => {
  it('an unedited log changes nothing', async () => {
    const w = await compare([])
    expect(w.verdicts).toEqual([])
    expect(w.texts).toEqual([])
    expect(w.signatures).toEqual([])
    expect(w.head).toEqual({ before: 4, after: 4 })
  })

  it('a capital handle: applied → rejected under IDENT-078, the later updates not applied, the text diff is one character', async () => {
    const w = await compare([{ op: 'set', seq: 7n, path: ['actions', 0, 'claim_handle', 'handle'], value: 'Nick' }])
    expect(w.verdicts[0]).toMatchObject({
      sequenceId: 7n,
      before: { status: 'applied', rule: null },
      after: { status: 'rejected', rule: 'IDENT-078' },
    })
    expect(w.verdicts.slice(1).map((v) => [v.sequenceId, v.after?.status])).toEqual(
      [8n, 9n, 10n, 11n, 12n, 13n].map((s) => [s, 'not_applied']),
    )
    expect(w.texts).toHaveLength(1)
    expect(w.texts[0]).toMatchObject({ sequenceId: 7n, removed: 1, inserted: 1 })
    expect(w.texts[0]!.segments.filter((s) => s.op !== 'same')).toEqual([
      { op: 'del', text: 'n' },
      { op: 'ins', text: 'N' },
    ])
    // The head is the state after sequence id 6: the members before the revocations.
    expect(w.head.after).not.toBe(w.head.before)
  })

  it('a changed inbox id: the passkey and installation signatures no longer verify, with the reason', async () => {
    const original = await replay(FULL_LIFE)
    const id = original.steps[11]!.update!.inboxId
    const value = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`
    const w = await compare([{ op: 'set', seq: 12n, path: ['inbox_id'], value }])
    expect(w.verdicts[0]).toMatchObject({ sequenceId: 12n, after: { rule: 'IDENT-030' } })
    const broken = w.signatures.filter((s) => s.sequenceId === 12n && s.change === 'broken')
    expect(broken.map((s) => s.role)).toContain('existing_member_signature')
    expect(broken.every((s) => s.why.length > 0)).toBe(true)
  })

  it('an ECDSA signature over a changed text names another signer', async () => {
    const w = await compare([{ op: 'set', seq: 5n, path: ['actions', 0, 'claim_handle', 'handle'], value: 'nico' }])
    const s = w.signatures.find((x) => x.sequenceId === 5n)!
    expect(s.change).toBe('signer')
    expect(w.verdicts[0]).toMatchObject({ sequenceId: 5n, after: { status: 'rejected', rule: 'IDENT-081' } })
  })

  it('a dropped update and a duplicated one are listed as absent on one side', async () => {
    const w = await compare([
      { op: 'duplicate', seq: 8n, to: 14n },
      { op: 'drop', seq: 13n },
    ])
    expect(w.verdicts.find((v) => v.sequenceId === 13n)).toMatchObject({ after: null })
    expect(w.verdicts.find((v) => v.sequenceId === 14n)).toMatchObject({
      before: null,
      after: { status: 'rejected', rule: 'IDENT-050' },
    })
  })
})
