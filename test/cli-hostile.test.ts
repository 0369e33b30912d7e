/**
 * Issue #14 on the command line: input bounds (finding 4), nothing raw from the input on a
 * terminal (finding 5), closed or full output (finding 6). Output bytes and exit statuses
 * are checked; nothing is timed. The real entry point runs where the process matters.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../src/cli/main'
import { cliCommand } from './support/cli'
import { encodeBundleJson, encodeUpdate } from '../src/core/encode/update'

const dir = mkdtempSync(join(tmpdir(), 'cli-hostile-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const ROOT = join(import.meta.dirname, '..')

async function cli(argv: string[], tty = false) {
  let out = ''
  let err = ''
  const status = await run(argv, {
    out: (s) => (out += typeof s === 'string' ? s : Buffer.from(s).toString('latin1')),
    err: (s) => (err += s),
    tty,
  })
  return { status, out, err }
}

/** The command line as shipped (package.json's `cli` script: the bundle), as its own process. */
function real(args: string[], opts: { stdout?: 'pipe' | number } = {}) {
  const { file, args: lead } = cliCommand()
  return spawnSync(file, [...lead, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', opts.stdout ?? 'pipe', 'pipe'],
    timeout: 60_000,
  })
}

function file(name: string, content: string | Uint8Array): string {
  const p = join(dir, name)
  writeFileSync(p, content)
  return p
}

/** A bundle of `n` updates whose hex is invalid: row 1 rejected (IDENT-001), the rest not applied. */
function junkBundle(n: number, inboxId = 'inbox'): string {
  return JSON.stringify({
    inbox_id: inboxId,
    updates: Array.from({ length: n }, (_, i) => ({ sequence_id: String(i + 1), update_hex: 'zz' })),
  })
}

describe('issue #14: command-line input and output', () => {
  it('finding 4: a device is refused with one line, not read until memory runs out', () => {
    const r = real(['replay', '--json', '/dev/zero'])
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      'error: /dev/zero: cannot read: a character device, not a file (give a regular file or a pipe)\n',
    )
  })

  it('finding 4: a FIFO with no writer reads as empty instead of blocking', () => {
    const fifo = join(dir, 'fifo')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const r = real(['replay', '--json', fifo])
    expect(r.status).toBe(1)
    expect(r.stderr).toBe(`error: ${fifo}: not a log: auto: empty input\n`)
  })

  it('finding 4: a file over the input limit is refused with one line, and --max-input raises the limit', async () => {
    const p = file('big.json', junkBundle(50))
    const refused = await cli(['replay', '--json', '--max-input', '1K', p])
    expect(refused.status).toBe(1)
    expect(refused.err).toMatch(
      /^error: .*big\.json: is \d+ bytes, over the input limit of 1024 bytes \(raise it with --max-input <size>, e\.g\. --max-input 1G\)\n$/,
    )
    const raised = await cli(['replay', '--json', '--max-input', '1M', p])
    expect(raised.status).toBe(0)
    expect(await cli(['replay', '--json', '--max-input', 'lots', p])).toMatchObject({ status: 2 })
  })

  it('finding 5: an IDENT-001 reason holding a line break cannot forge a ---- separator in signature-text', async () => {
    // A proto3 JSON update whose unknown key holds a line break and a forged separator.
    const p = file('forged.json', JSON.stringify({ actions: [{ 'x\n----\nforged': 1 }] }))
    const r = await cli(['signature-text', p])
    expect(r.status).toBe(0)
    expect(r.out.split('\n').filter((l) => l === '----')).toHaveLength(1)
    expect(r.out).toMatch(/^<IDENT-001: [^\n]*>\n----\n$/)
    expect(r.out).toContain('\\n----\\nforged')
  })

  it('finding 5: replay without --json escapes an ANSI sequence in the inbox id; --json keeps it exact', async () => {
    const evil = '\u001b[2J\u001b[Hok: every update applied\nfake'
    const p = file('ansi.json', junkBundle(2, evil))
    const human = await cli(['replay', p])
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the terminal
    expect(human.out).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/)
    expect(human.out).toContain('\\u001b[2J')
    expect(human.out.split('\n')[0]).toContain('\\nfake')
    const json = await cli(['replay', '--json', p])
    expect(JSON.parse(json.out).inbox_id).toBe(evil)
  })

  it('finding 5: a file name with a line break gives an error of one line', async () => {
    const r = await cli(['replay', '--json', join(dir, 'no\nsuch\u001b[31m')])
    expect(r.status).toBe(1)
    expect(r.err.split('\n')).toHaveLength(2)
    expect(r.err).toContain('no\\nsuch\\u001b[31m: cannot read: no such file')
  })

  it('finding 5: on a terminal, a signature text prints its controls escaped (its own line breaks kept)', async () => {
    const bytes = encodeUpdate({
      inboxId: 'inbox\u001b[2J',
      clientTimestampNs: 1n,
      actions: [{ kind: 'claim_handle', handle: 'nick', signature: { kind: 'erc_191', bytes: new Uint8Array(65) } }],
    })
    const p = file('ctl.json', encodeBundleJson({ updates: [{ sequenceId: 1n, bytes }] }))
    const onTerminal = await cli(['signature-text', p], true)
    expect(onTerminal.out).toContain('Inbox ID: inbox\\u001b[2J\n')
    expect(onTerminal.out).not.toContain('\u001b')
    // Piped, the text stays byte-exact (../shared/contracts/cli.md, signature-text).
    const piped = await cli(['signature-text', p])
    expect(piped.out).toContain('Inbox ID: inbox\u001b[2J\n')
  })

  it('finding 5: the shipped command escapes a signature text on a real terminal (a pty from script(1))', () => {
    const bytes = encodeUpdate({
      inboxId: 'inbox\u001b[2J',
      clientTimestampNs: 1n,
      actions: [{ kind: 'claim_handle', handle: 'nick', signature: { kind: 'erc_191', bytes: new Uint8Array(65) } }],
    })
    const p = file('ctl-tty.json', encodeBundleJson({ updates: [{ sequenceId: 1n, bytes }] }))
    const { file: exe, args: lead } = cliCommand()
    const command = [exe, ...lead, 'signature-text', p].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
    // util-linux script(1) (Debian's bsdutils, always installed) runs the command on a pty.
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('Inbox ID: inbox\\u001b[2J')
    expect(r.stdout).not.toContain('\u001b[2J')
  })

  it('finding 6: a reader that closes the pipe ends the command quietly with status 0', async () => {
    const p = file('long.json', junkBundle(20_000))
    // The shipped command (the bundle's entry point, not src/cli/main.ts under tsx).
    const { file: exe, args: lead } = cliCommand()
    const child = spawn(exe, [...lead, 'replay', p], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    // Like `| head -c 1`: read the first bytes, then close the pipe.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    child.stdout.destroy()
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    expect(err).toBe('')
    expect(status).toBe(0)
  })

  it('finding 8: a large report to a pipe is written as it is made, never queued whole in memory', () => {
    // 30,000 rows (about 3.6 MB of JSON) written in pieces in one synchronous loop: on a
    // non-blocking pipe Node queued every piece until the loop ended (a million updates
    // queued 130 MB). A preload reports the most the stream ever held unwritten: bytes, not time.
    const p = file('rows.json', junkBundle(30_000))
    const probe = file(
      'probe.mjs',
      `let max = 0
const w = process.stdout.write.bind(process.stdout)
process.stdout.write = (...a) => { const r = w(...a); max = Math.max(max, process.stdout.writableLength); return r }
process.on('exit', () => process.stderr.write('queued ' + max + '\\n'))
`,
    )
    const { file: exe, args: lead } = cliCommand()
    // A shell pipeline, so standard output is a pipe (a child's 'pipe' stdio is a socket pair).
    const r = spawnSync('sh', ['-c', '"$@" | wc -c', 'sh', exe, '--import', probe, ...lead, 'replay', '--json', p], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    })
    expect(r.status).toBe(0)
    expect(Number(r.stdout.trim())).toBeGreaterThan(3_000_000)
    const queued = Number(/queued (\d+)/.exec(r.stderr)?.[1])
    expect(queued).toBeLessThan(1 << 20)
  })

  it('finding 6: a full disk is one line on stderr and status 1', () => {
    const p = file('some.json', junkBundle(3))
    const r = real(['replay', p], { stdout: openSync('/dev/full', 'w') })
    expect(r.status).toBe(1)
    expect(r.stderr).toBe('error: cannot write the output: no space left on the device\n')
  })
})
