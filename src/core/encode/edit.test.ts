import { readFileSync } from 'node:fs'
import { fromBinary } from '@bufbuild/protobuf'
import { describe, expect, it } from 'vitest'
import { IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { bytesToHex, equalBytes } from '../../crypto/bytes'
import { readLogs } from '../decode/logs'
import { replay } from '../replay'
import type { InboxLog } from '../types'
import {
  applyEdits,
  EditError,
  type EditableEntry,
  editableEntries,
  PatchSyntaxError,
  parsePatch,
  parsePath,
} from './edit'

const FULL_LIFE = readFileSync(new URL('../../../test/fixtures/valid-full-life.json', import.meta.url))
const FIELD4 = readFileSync(
  new URL('../../../test/fixtures/IDENT-001-field-4-beside-erc191-ignored.json', import.meta.url),
)

function log(bytes: Uint8Array = FULL_LIFE): InboxLog {
  return readLogs(new Uint8Array(bytes), 'fixture.json')[0]!
}

function asLog(base: InboxLog, entries: readonly EditableEntry[]): InboxLog {
  // Re-read through the bundle path, as the CLI's output is read.
  const bundle = {
    inbox_id: base.inboxId,
    updates: entries.map((e) => ({ sequence_id: e.sequenceId.toString(), update_hex: bytesToHex(e.bytes!) })),
  }
  return readLogs(new TextEncoder().encode(JSON.stringify(bundle)), 'edited.json')[0]!
}

async function verdicts(l: InboxLog) {
  const t = await replay(l)
  return t.steps.map((s) => ({ seq: s.sequenceId.toString(), status: s.status, rule: s.rule ?? null }))
}

const edit = (ops: unknown, l = log()) => applyEdits(editableEntries(l), parsePatch(ops))

describe('the patch language', () => {
  it('parses every operation, sequence ids as decimal strings or safe integers', () => {
    const ops = parsePatch([
      { op: 'drop', seq: '3' },
      { op: 'move', seq: 3, to: '9' },
      { op: 'duplicate', seq: '2', to: 14 },
      { op: 'set', seq: '5', path: 'actions/0/claim_handle/handle', value: 'Nick' },
      { op: 'remove', seq: '5', path: '/actions/1' },
      { op: 'set-bytes', seq: '5', hex: '0x0A00' },
    ])
    expect(ops.map((o) => o.op)).toEqual(['drop', 'move', 'duplicate', 'set', 'remove', 'set-bytes'])
    expect(ops[1]).toEqual({ op: 'move', seq: 3n, to: 9n })
    expect(ops[3]).toMatchObject({ path: ['actions', 0, 'claim_handle', 'handle'], value: 'Nick' })
    expect(ops[4]).toMatchObject({ path: ['actions', 1] })
    expect(ops[5]).toMatchObject({ bytes: new Uint8Array([0x0a, 0x00]) })
  })

  it.each([
    [{ op: 'drop' }, /patch operation 0: "seq" expected a decimal string or a number/],
    [[{ op: 'sett', seq: '1' }], /"op" must be one of drop, move/],
    [[{ op: 'drop', seq: '1', to: '2' }], /drop takes op, seq; unknown key "to"/],
    [[{ op: 'move', seq: '1' }], /"to" expected a decimal string/],
    [[{ op: 'set', seq: '1', path: 'inbox_id' }], /set needs a "value"/],
    [[{ op: 'set', seq: '1', path: 7, value: 1 }], /"path" must be a string/],
    [[{ op: 'set', seq: '1', path: 'actions/x-y', value: 1 }], /path step "x-y" is neither/],
    [[{ op: 'set', seq: '1', path: '', value: 1 }], /the path is empty/],
    [[{ op: 'set-bytes', seq: '1', hex: 'abc' }], /"hex" is not hex/],
    [[{ op: 'drop', seq: '-1' }], /is not a decimal string of digits/],
    [[{ op: 'drop', seq: 2 ** 60 }], /above 2\^53 and may have been rounded/],
    ['drop', /a patch is a JSON array of operations/],
    [[7], /patch operation 0: an operation is a JSON object/],
  ])('refuses %j, naming the operation and what is wrong', (doc, why) => {
    const d = Array.isArray(doc) || typeof doc !== 'object' ? doc : [doc]
    expect(() => parsePatch(d)).toThrow(PatchSyntaxError)
    expect(() => parsePatch(d)).toThrow(why)
  })

  it('reads a path of names and indexes', () => {
    expect(parsePath('actions/0/add/new_member_identifier/passkey/key')).toEqual([
      'actions',
      0,
      'add',
      'new_member_identifier',
      'passkey',
      'key',
    ])
  })
})

describe('edit operations', () => {
  it('leaves every untouched update with its exact bytes', () => {
    const before = editableEntries(log())
    const after = edit([{ op: 'set', seq: '5', path: 'actions/0/claim_handle/handle', value: 'nick2' }])
    for (const [k, e] of after.entries()) {
      if (e.sequenceId === 5n) {
        expect(e.edited).toBe(true)
        expect(equalBytes(e.bytes!, before[k]!.bytes!)).toBe(false)
      } else {
        expect(e.edited).toBe(false)
        expect(equalBytes(e.bytes!, before[k]!.bytes!)).toBe(true)
      }
    }
  })

  it('claims a handle with a capital letter: IDENT-078 rejects it', async () => {
    const l = log()
    const v = await verdicts(
      asLog(l, edit([{ op: 'set', seq: '5', path: 'actions/0/claim_handle/handle', value: 'Nick' }], l)),
    )
    expect(v.find((s) => s.seq === '5')).toEqual({ seq: '5', status: 'rejected', rule: 'IDENT-078' })
    expect(v.filter((s) => s.status === 'applied').map((s) => s.seq)).toEqual(['1', '2', '3', '4'])
  })

  it('an unlisted initial identifier kind: IDENT-077 rejects the CreateInbox', async () => {
    const l = log()
    const ops = [{ op: 'set', seq: '1', path: 'actions/0/create_inbox/initial_identifier_kind', value: 7 }]
    const v = await verdicts(asLog(l, edit(ops, l)))
    expect(v[0]).toEqual({ seq: '1', status: 'rejected', rule: 'IDENT-077' })
  })

  it('enums by full name, short name or number give the same bytes', () => {
    const set = (value: unknown) =>
      edit([{ op: 'set', seq: '1', path: 'actions/0/create_inbox/initial_identifier_kind', value }])[0]!.bytes!
    expect(bytesToHex(set('IDENTIFIER_KIND_PASSKEY'))).toBe(bytesToHex(set('PASSKEY')))
    expect(bytesToHex(set('PASSKEY'))).toBe(bytesToHex(set(2)))
  })

  it("move-action reorders an update's actions: an add before the creation breaks IDENT-011", async () => {
    const l = log()
    const after = edit([{ op: 'move-action', seq: '1', from: 1, to: 0 }], l)
    const kinds = (e: EditableEntry) => fromBinary(IdentityUpdateSchema, e.bytes!).actions.map((a) => a.kind.case)
    expect(kinds(editableEntries(l)[0]!)).toEqual(['createInbox', 'add'])
    expect(kinds(after[0]!)).toEqual(['add', 'createInbox'])
    expect(after.slice(1).every((e) => !e.edited)).toBe(true)
    expect((await verdicts(asLog(l, after)))[0]).toEqual({ seq: '1', status: 'rejected', rule: 'IDENT-011' })
    // Moved back, the update is the original again, byte for byte.
    const back = edit(
      [
        { op: 'move-action', seq: '1', from: 1, to: 0 },
        { op: 'move-action', seq: '1', from: 0, to: 1 },
      ],
      l,
    )
    expect(equalBytes(back[0]!.bytes!, editableEntries(l)[0]!.bytes!)).toBe(true)
  })

  it('copy-action inserts a copy: a second claim beside a claim breaks IDENT-079', async () => {
    const l = log()
    const after = edit([{ op: 'copy-action', seq: '5', from: 0, to: 1 }], l)
    const actions = fromBinary(IdentityUpdateSchema, after.find((e) => e.sequenceId === 5n)!.bytes!).actions
    expect(actions.map((a) => a.kind.case)).toEqual(['claimHandle', 'claimHandle'])
    const v = await verdicts(asLog(l, after))
    expect(v.find((s) => s.seq === '5')).toEqual({ seq: '5', status: 'rejected', rule: 'IDENT-079' })
  })

  it('move-action and copy-action name a missing action or position, and a bad index in the patch', () => {
    expect(() => edit([{ op: 'move-action', seq: '5', from: 1, to: 0 }])).toThrow(
      'move-action action 1 at sequence id 5: the update has 1 action, so there is no action 1',
    )
    expect(() => edit([{ op: 'move-action', seq: '1', from: 0, to: 2 }])).toThrow(
      '"to" is at most 1 here (2 actions), not 2',
    )
    expect(() => edit([{ op: 'copy-action', seq: '1', from: 0, to: 3 }])).toThrow(
      '"to" is at most 2 here (2 actions), not 3',
    )
    expect(() => parsePatch([{ op: 'copy-action', seq: '1', from: -1, to: 0 }])).toThrow(
      '"from" is an action index, a whole number from 0, not',
    )
    expect(() => parsePatch([{ op: 'move-action', seq: '1', from: 0, to: '1' }])).toThrow(PatchSyntaxError)
    expect(() => parsePatch([{ op: 'move-action', seq: '1', from: 0, to: 1, path: 'x' }])).toThrow('unknown key "path"')
  })

  it('drops an update, and the log cannot be read past the gap it leaves in the members', async () => {
    const l = log()
    const after = edit([{ op: 'drop', seq: '1' }], l)
    expect(after.map((e) => e.sequenceId)).not.toContain(1n)
    const v = await verdicts(asLog(l, after))
    expect(v[0]).toMatchObject({ seq: '2', status: 'rejected', rule: 'IDENT-011' })
  })

  it('moves an update to a new sequence id: replay order follows the id (IDENT-004)', async () => {
    const l = log()
    const after = edit([{ op: 'move', seq: '1', to: '100' }], l)
    expect(after[0]!.sequenceId).toBe(100n)
    const v = await verdicts(asLog(l, after))
    expect(v.map((s) => s.seq).at(-1)).toBe('100')
    expect(v[0]).toMatchObject({ seq: '2', status: 'rejected' })
  })

  it('duplicates an update: the replayed add is refused by its seen replay key (IDENT-050)', async () => {
    const l = log()
    const after = edit([{ op: 'duplicate', seq: '8', to: '100' }], l)
    expect(after.length).toBe(l.entries.length + 1)
    expect(after[8]).toMatchObject({ sequenceId: 100n, edited: true })
    const v = await verdicts(asLog(l, after))
    expect(v.at(-1)).toEqual({ seq: '100', status: 'rejected', rule: 'IDENT-050' })
  })

  it('removes an action, appends one, and replaces a whole list', () => {
    const removed = edit([{ op: 'remove', seq: '1', path: 'actions/1' }])[0]!
    expect(fromBinary(IdentityUpdateSchema, removed.bytes!).actions).toHaveLength(1)
    const appended = edit([
      { op: 'set', seq: '5', path: 'actions/1', value: { claim_handle: { handle: 'second' } } },
    ]).find((e) => e.sequenceId === 5n)!
    const msg = fromBinary(IdentityUpdateSchema, appended.bytes!)
    expect(msg.actions.map((a) => a.kind.case)).toEqual(['claimHandle', 'claimHandle'])
    const emptied = edit([{ op: 'set', seq: '5', path: 'actions', value: [] }]).find((e) => e.sequenceId === 5n)!
    expect(fromBinary(IdentityUpdateSchema, emptied.bytes!).actions).toHaveLength(0)
  })

  it('sets a signature’s bytes as hex, creating the absent messages on the way', () => {
    const after = edit([
      { op: 'set', seq: '5', path: 'actions/0/claim_handle/signature/erc191/bytes', value: `0x${'ab'.repeat(65)}` },
    ]).find((e) => e.sequenceId === 5n)!
    const a = fromBinary(IdentityUpdateSchema, after.bytes!).actions[0]!
    expect(a.kind.case).toBe('claimHandle')
    const sig = a.kind.case === 'claimHandle' ? a.kind.value.signature?.signature : undefined
    expect(sig?.case).toBe('erc191')
    expect(sig?.case === 'erc191' && bytesToHex(sig.value.bytes)).toBe('ab'.repeat(65))
  })

  it('keeps fields the schema does not know (the retired Signature field 4) when another field is edited', () => {
    const l = log(FIELD4)
    const before = editableEntries(l)
    const k = before.findIndex(
      (e) => fromBinary(IdentityUpdateSchema, e.bytes!).actions.length > 0 && e.sequenceId > 1n,
    )
    const seq = before[k]!.sequenceId
    const hadField4 = (b: Uint8Array) =>
      JSON.stringify(fromBinary(IdentityUpdateSchema, b), (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes(
        '"no":4',
      )
    const after = edit(
      [{ op: 'set', seq: seq.toString(), path: 'client_timestamp_ns', value: '1712750400000000001' }],
      l,
    )
    expect(hadField4(before[k]!.bytes!)).toBe(true)
    expect(hadField4(after[k]!.bytes!)).toBe(true)
    expect(fromBinary(IdentityUpdateSchema, after[k]!.bytes!).clientTimestampNs).toBe(1712750400000000001n)
  })

  it('set-bytes writes any bytes, even ones that are no update: IDENT-001 rejects them', async () => {
    const l = log()
    const v = await verdicts(asLog(l, edit([{ op: 'set-bytes', seq: '2', hex: '0a' }], l)))
    expect(v[1]).toMatchObject({ seq: '2', status: 'rejected', rule: 'IDENT-001' })
  })

  it.each([
    [[{ op: 'drop', seq: '99' }], /patch operation 0: no update has sequence id 99 \(the log has 1, 2, 3/],
    [[{ op: 'move', seq: '1', to: '2' }], /sequence id 2 is already taken/],
    [[{ op: 'duplicate', seq: '1', to: '13' }], /sequence id 13 is already taken/],
    [
      [{ op: 'set', seq: '2', path: 'actions/0/bogus', value: 1 }],
      /IdentityAction has no field "bogus" \(its fields: create_inbox, add/,
    ],
    [
      [{ op: 'set', seq: '2', path: 'actions/9/add', value: {} }],
      /actions has \d+ element\(s\); index 9 is past its end/,
    ],
    [[{ op: 'set', seq: '2', path: 'inbox_id/x', value: 1 }], /inbox_id is a string, with no fields/],
    [[{ op: 'set', seq: '2', path: 'client_timestamp_ns', value: 'soon' }], /client_timestamp_ns is a uint64/],
    [[{ op: 'set', seq: '2', path: 'inbox_id', value: 7 }], /inbox_id is a string, not number 7/],
    [
      [{ op: 'set', seq: '2', path: 'actions/0', value: { nope: 1 } }],
      /actions element takes a IdentityAction in proto3 JSON/,
    ],
    [
      [{ op: 'set', seq: '1', path: 'actions/0/create_inbox/initial_identifier_kind', value: 'EMAIL' }],
      /one of IDENTIFIER_KIND_UNSPECIFIED/,
    ],
    [
      [
        { op: 'drop', seq: '1' },
        { op: 'drop', seq: '1' },
      ],
      /patch operation 1: no update has sequence id 1/,
    ],
  ])('refuses %j with the operation and the reason', (ops, why) => {
    expect(() => edit(ops)).toThrow(EditError)
    expect(() => edit(ops)).toThrow(why)
  })

  it('refuses to edit the fields of bytes that do not decode, but may drop or replace them', () => {
    const broken = edit([{ op: 'set-bytes', seq: '2', hex: 'ff' }])
    expect(() => applyEdits(broken, parsePatch([{ op: 'set', seq: '2', path: 'inbox_id', value: 'x' }]))).toThrow(
      /does not decode as an IdentityUpdate .*only drop, move, duplicate and set-bytes apply/,
    )
    expect(applyEdits(broken, parsePatch([{ op: 'drop', seq: '2' }]))).toHaveLength(broken.length - 1)
  })
})
