/**
 * `edit` on the command line (issue #16): a JSON patch over a log, written as a bundle
 * that `replay` reads like any log. In-process through run(), as test/cli.test.ts does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../src/cli/main'

const FIXTURE = 'test/fixtures/valid-full-life.json'
let dir: string
const path = (name: string) => join(dir, name)

async function cli(...argv: string[]) {
  let out = ''
  let err = ''
  const status = await run(argv, { out: (s) => (out += String(s)), err: (s) => (err += s) })
  return { status, out, err }
}

async function replayJson(file: string) {
  const r = await cli('replay', '--json', file)
  expect(r.status).toBe(0)
  return JSON.parse(r.out) as { ok: boolean; updates: { sequence_id: string; status: string; rule: string | null }[] }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-edit-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('edit', () => {
  it('writes an edited bundle that replay judges: a capital letter in a handle is IDENT-078', async () => {
    writeFileSync(
      path('p.json'),
      JSON.stringify([{ op: 'set', seq: '5', path: 'actions/0/claim_handle/handle', value: 'Nick' }]),
    )
    const r = await cli('edit', '--patch', path('p.json'), '--out', path('edited.json'), FIXTURE)
    expect(r).toMatchObject({ status: 0, out: '', err: '' })
    const report = await replayJson(path('edited.json'))
    expect(report.ok).toBe(false)
    expect(report.updates.find((u) => u.sequence_id === '5')).toMatchObject({ status: 'rejected', rule: 'IDENT-078' })
  })

  it('keeps every other update byte for byte, and the original replays as before', async () => {
    const r = await cli('edit', '--ops', '[{"op":"drop","seq":"13"}]', FIXTURE)
    expect(r.status).toBe(0)
    const edited = JSON.parse(r.out) as { inbox_id: string; updates: { sequence_id: string; update_hex: string }[] }
    const original = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof edited
    expect(edited.inbox_id).toBe(original.inbox_id)
    expect(edited.updates).toEqual(
      original.updates
        .filter((u) => u.sequence_id !== '13')
        .map((u) => ({ ...u, update_hex: u.update_hex.toLowerCase() })),
    )
    expect((await replayJson(FIXTURE)).ok).toBe(true)
  })

  it('writes base64 on request', async () => {
    const r = await cli('edit', '--ops', '[]', '--encoding', 'base64', FIXTURE)
    expect(r.status).toBe(0)
    const doc = JSON.parse(r.out) as { updates: Record<string, string>[] }
    expect(Object.keys(doc.updates[0]!)).toEqual(['sequence_id', 'update_base64'])
  })

  it.each([
    [['--ops', 'not json', FIXTURE], /the patch is not JSON/],
    [['--ops', '[{"op":"frob","seq":"1"}]', FIXTURE], /patch operation 0: "op" must be one of/],
    [[FIXTURE], /exactly one of --patch <file> and --ops <json>/],
    [['--ops', '[]', '--patch', 'p.json', FIXTURE], /exactly one of --patch/],
    [['--ops', '[]'], /edit takes exactly one log file/],
    [['--ops', '[]', '--encoding', 'utf8', FIXTURE], /--encoding "utf8": expected hex or base64/],
    [['--ops', '[]', '--frob', FIXTURE], /Unknown option '--frob'/],
  ])('a malformed command or patch %j is a usage error (exit 2)', async (argv, why) => {
    const r = await cli('edit', ...argv)
    expect(r.status).toBe(2)
    expect(r.out).toBe('')
    expect(r.err).toMatch(why)
    expect(r.err.trim().split('\n')).toHaveLength(1)
  })

  it.each([
    [
      ['--ops', '[{"op":"drop","seq":"99"}]', FIXTURE],
      /valid-full-life.json: patch operation 0: no update has sequence id 99/,
    ],
    [
      [
        '--ops',
        '[{"op":"set","seq":"2","path":"actions/0/add/new_member_signature/erc191/bytes","value":"zz"}]',
        FIXTURE,
      ],
      /bytes is bytes, written as hex, not the string "zz"/,
    ],
    [['--ops', '[]', 'no-such-file.json'], /no-such-file.json: cannot read: no such file/],
    [['--patch', 'no-such-patch.json', FIXTURE], /no-such-patch.json: cannot read: no such file/],
  ])('a patch that does not apply, or an unreadable file %j, exits 1 naming why', async (argv, why) => {
    const r = await cli('edit', ...argv)
    expect(r.status).toBe(1)
    expect(r.out).toBe('')
    expect(r.err).toMatch(why)
  })
})
