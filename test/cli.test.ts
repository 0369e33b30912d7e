/**
 * The command-line contract (../shared/contracts/cli.md): most cases in-process
 * through run(), and a few through the real entry point (package.json's `cli` script, run
 * without npm: test/support/cli.ts) for exit statuses and exact stdout bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../src/cli/main'
import { encodeBundleJson, encodeGetIdentityUpdatesResponse, toGatewayJson } from '../src/core/encode/update'
import { addMember, claimHandle, createInbox, ethKeySigner, installationKeySigner, signUpdate } from '../src/signing'
import { runCli } from './support/cli'

const csv = readFileSync(new URL('../../shared/vectors/xmtpd-inbox-log.csv', import.meta.url), 'utf8')
const rows = csv
  .replace(/^\uFEFF/, '')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','))
const rowHex = (n: number) => rows[n - 1]![3]!.slice(2)

let dir: string
const path = (name: string) => join(dir, name)

async function cli(...argv: string[]) {
  let out = ''
  let err = ''
  const bytes: Uint8Array[] = []
  const status = await run(argv, {
    out: (s) => (typeof s === 'string' ? (out += s) : bytes.push(s)),
    err: (s) => (err += s),
  })
  return {
    status,
    out,
    err,
    bytes,
    json: () =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  }
}

const w = ethKeySigner(new Uint8Array(32).fill(1))
const i1 = installationKeySigner(new Uint8Array(32).fill(2))

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cli-test-'))
  writeFileSync(
    path('real.json'),
    JSON.stringify({
      updates: [
        { sequence_id: '7', update_hex: rowHex(7) },
        { sequence_id: 6, update_base64: Buffer.from(rowHex(6), 'hex').toString('base64') },
      ],
    }),
  )
  writeFileSync(
    path('legacy.json'),
    JSON.stringify({
      updates: [
        { sequence_id: '8', update_hex: rowHex(8) },
        { sequence_id: '9', update_hex: 'zz' },
      ],
    }),
  )
  writeFileSync(
    path('dup.json'),
    JSON.stringify({
      updates: [
        { sequence_id: '1', update_hex: rowHex(1) },
        { sequence_id: '1', update_hex: rowHex(2) },
      ],
    }),
  )
  writeFileSync(path('garbage.bin'), Uint8Array.of(0xff, 0xff, 0xff, 0x01))
  const u1 = await signUpdate({ clientTimestampNs: 2n ** 64n - 1n, actions: [createInbox(w), addMember(w, i1)] })
  const u2 = await signUpdate({ inboxId: u1.update.inboxId, clientTimestampNs: 5n, actions: [claimHandle('nick', i1)] })
  const u3 = await signUpdate({
    inboxId: u1.update.inboxId,
    clientTimestampNs: 6n,
    actions: [claimHandle('nick#2341', w)],
  })
  const log = {
    inboxId: u1.update.inboxId,
    updates: [u1, u2, u3].map((u, i) => ({ sequenceId: BigInt(i + 1), bytes: u.bytes })),
  }
  writeFileSync(path('handles.json'), encodeBundleJson(log))
  const other = {
    inboxId: rows[5]![1]!.slice(2),
    updates: [
      { sequenceId: 6n, bytes: Buffer.from(rowHex(6), 'hex') },
      { sequenceId: 7n, bytes: Buffer.from(rowHex(7), 'hex') },
    ],
  }
  writeFileSync(path('two.pb'), encodeGetIdentityUpdatesResponse([log, other]))
  writeFileSync(path('two.gateway.json'), JSON.stringify(toGatewayJson([log, other])))
  writeFileSync(path('key.bin'), Buffer.from('4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318', 'hex'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('replay', () => {
  it('IDENT-004: prints one JSON line per log, updates in ascending sequence id, with the contract state', async () => {
    const r = await cli('replay', '--json', path('real.json'))
    expect(r.status).toBe(0)
    const [rep] = r.json() as [
      {
        file: string
        ok: boolean
        updates: { sequence_id: string; status: string }[]
        state: { members: unknown[]; seen_replay_keys: string[]; sequence_id: string }
      },
    ]
    expect(rep.file).toBe(path('real.json'))
    expect(rep.ok).toBe(true)
    expect(rep.updates.map((u) => u.sequence_id)).toEqual(['6', '7'])
    expect(rep.state.sequence_id).toBe('7')
    expect(rep.state.members).toHaveLength(3)
    expect([...rep.state.seen_replay_keys].sort()).toEqual(rep.state.seen_replay_keys)
  })

  it('IDENT-001: a legacy field-4 update and invalid hex are rejected rows with exit status 0', async () => {
    const r = await cli('replay', '--json', path('legacy.json'))
    expect(r.status).toBe(0)
    const [rep] = r.json() as [{ ok: boolean; state: null; updates: { status: string; rule: string | null }[] }]
    expect(rep.updates.map((u) => [u.status, u.rule])).toEqual([
      ['rejected', 'IDENT-001'],
      ['not_applied', null],
    ])
    expect(rep.state).toBeNull()
  })

  it('IDENT-001: an invalid hex entry at the head of a log is a rejected row', async () => {
    writeFileSync(path('badhex.json'), JSON.stringify({ updates: [{ sequence_id: '1', update_hex: 'xyz' }] }))
    const [rep] = (await cli('replay', '--json', path('badhex.json'))).json() as [
      { updates: { status: string; rule: string }[] },
    ]
    expect(rep.updates[0]).toMatchObject({ status: 'rejected', rule: 'IDENT-001' })
  })

  it('a file holding several inboxes gives a report per inbox, in file order, the same in binary and gateway JSON', async () => {
    const bin = (await cli('replay', '--json', path('two.pb'))).json()
    const gw = (await cli('replay', '--json', path('two.gateway.json'))).json()
    expect(bin).toHaveLength(2)
    const strip = (x: Record<string, unknown>[]) => x.map(({ file: _f, ...rest }) => rest)
    expect(strip(gw)).toEqual(strip(bin))
    expect(bin.map((b) => b.ok)).toEqual([true, true])
  })

  it('IDENT-070: --at gives the state at a sequence id, or null with an error when no update carries it', async () => {
    const [at1] = (await cli('replay', '--json', '--at', '1', path('handles.json'))).json() as [
      { state: { handles: string[]; sequence_id: string } },
    ]
    expect(at1.state).toMatchObject({ handles: [], sequence_id: '1' })
    const [none] = (await cli('replay', '--json', '--at', '9', path('handles.json'))).json() as [
      { state: null; error: string },
    ]
    expect(none.state).toBeNull()
    expect(none.error).toMatch(/sequence id 9/)
  })

  it('exit status 1 for an unreadable file or duplicate sequence ids, 2 for usage errors', async () => {
    expect((await cli('replay', '--json', path('missing.json'))).status).toBe(1)
    expect((await cli('replay', '--json', path('garbage.bin'))).status).toBe(1)
    const dup = await cli('replay', '--json', path('dup.json'))
    expect(dup.status).toBe(1)
    expect(dup.err).toMatch(/sequence id 1/)
    expect((await cli('replay', '--json')).status).toBe(2)
    expect((await cli('replay', '--json', '--at', 'x', path('real.json'))).status).toBe(2)
    expect((await cli('replay', '--json', '--chain', 'nope', path('real.json'))).status).toBe(2)
    expect((await cli('frobnicate')).status).toBe(2)
    expect((await cli('replay', '--json', '--bogus', path('real.json'))).status).toBe(2)
  })

  it('without --json prints a table a person can read, with the rule and the action of a rejection', async () => {
    const r = await cli('replay', path('legacy.json'))
    expect(r.status).toBe(0)
    expect(r.out).toMatch(/rejected\s+IDENT-001 action 0: /)
    expect(r.out).toMatch(/not_applied log cannot be read past sequence id 8/)
  })

  it('an unreadable file prints no report for the files before it', async () => {
    const r = await cli('replay', '--json', path('real.json'), path('missing.json'))
    expect(r.status).toBe(1)
    expect(r.out).toBe('')
    expect(r.err.trim().split('\n')).toHaveLength(1)
  })
})

describe('signature-text', () => {
  it('IDENT-020: prints each text byte-exact followed by a newline and ----, with <IDENT-001: reason> for undecodable updates', async () => {
    const r = await cli('signature-text', path('legacy.json'))
    expect(r.out).toMatch(/^<IDENT-001: .+>\n----\n<IDENT-001: .+>\n----\n$/)
    const h = await cli('signature-text', path('handles.json'))
    const parts = h.out.split('\n----\n')
    expect(parts).toHaveLength(4)
    expect(parts[0]).toContain('Current time: 1969-12-31T23:59:59Z')
    expect(parts[1]!.endsWith('For more info: https://xmtp.org/signatures')).toBe(true)
  })
})

describe('inbox-id', () => {
  it('IDENT-010: prints the derived inbox id; refuses a non-canonical address', async () => {
    const r = await cli('inbox-id', w.identifier.text, '0')
    expect(r.out).toMatch(/^[0-9a-f]{64}\n$/)
    const [rep] = (await cli('replay', '--json', path('handles.json'))).json() as [{ inbox_id: string }]
    expect(r.out.trim()).toBe(rep.inbox_id)
    expect((await cli('inbox-id', '--kind', 'passkey', '02ab', '1')).status).toBe(0)
    expect((await cli('inbox-id', w.identifier.text.toUpperCase(), '0')).status).toBe(2)
    expect((await cli('inbox-id', w.identifier.text, '-1')).status).toBe(2)
  })
})

describe('handles and check-handle', () => {
  it('IDENT-086: current is the display handle, others newest first', async () => {
    expect((await cli('handles', '--json', path('handles.json'))).json()[0]).toEqual({
      current: 'nick#2341',
      others: ['nick'],
    })
  })
  it('IDENT-085: a lookup answer is accepted only when the derived state holds the entry, ASCII-lowercased; --at uses that state', async () => {
    expect((await cli('check-handle', '--json', '--handle', 'NICK', path('handles.json'))).json()[0]).toMatchObject({
      accepted: true,
    })
    expect((await cli('check-handle', '--json', '--handle', 'nock', path('handles.json'))).json()[0]).toMatchObject({
      accepted: false,
    })
    expect(
      (await cli('check-handle', '--json', '--handle', 'nick', '--at', '1', path('handles.json'))).json()[0],
    ).toMatchObject({ accepted: false })
    expect(
      (await cli('check-handle', '--json', '--handle', 'nick', '--at', '2', path('handles.json'))).json()[0],
    ).toMatchObject({ accepted: true })
    expect((await cli('check-handle', '--json', path('handles.json'))).status).toBe(2)
  })
})

describe('key', () => {
  it('IDENT-089 / IDENT-088: import prints the identifier; export writes 0x + 64 lowercase hex or exactly 32 bytes', async () => {
    expect((await cli('key', 'import', '0x4C0883A69102937D6231471B5DBB6204FE5129617082792AE468D01A3F362318')).out).toBe(
      '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23\n',
    )
    expect((await cli('key', 'import', `@${path('key.bin')}`)).out).toBe('0x2c7536e3605d9c16a7a3d7b1898e529396a65c23\n')
    expect((await cli('key', 'export', '--format', 'hex', `@${path('key.bin')}`)).out).toBe(
      '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318\n',
    )
    const b = await cli(
      'key',
      'export',
      '--format',
      'bytes',
      '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
    )
    expect(Buffer.concat(b.bytes).equals(readFileSync(path('key.bin')))).toBe(true)
    expect((await cli('key', 'import', '0x1234')).status).toBe(1)
    expect((await cli('key', 'import', `@${path('real.json')}`)).status).toBe(1)
    expect((await cli('key', 'export', '--format', 'pem', '0x12')).status).toBe(2)
  })
})

describe('the cli entry point', () => {
  it('runs with exit statuses 0, 1 and 2 and one-line errors on stderr', async () => {
    const [ok, bad, usage, bytes] = await Promise.all([
      runCli(['replay', '--json', path('real.json')]),
      runCli(['replay', '--json', path('garbage.bin')]),
      runCli(['nope']),
      runCli(['key', 'export', '--format', 'bytes', `@${path('key.bin')}`]),
    ])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout.toString()).ok).toBe(true)
    expect(bad.code).toBe(1)
    expect(bad.stdout.length).toBe(0)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
    expect(usage.code).toBe(2)
    expect(usage.stderr.trim().split('\n')).toHaveLength(1)
    expect(bytes.stdout.equals(readFileSync(path('key.bin')))).toBe(true)
  })
})
