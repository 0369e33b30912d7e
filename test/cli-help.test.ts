/**
 * Help: every subcommand answers `--help`, `-h` and `help <subcommand>` with its own usage
 * (exit status 0, on standard output), and the usage names every flag its parser accepts:
 * the parser reads the same table (src/cli/commands.ts), which is checked here flag by
 * flag, and `edit`'s usage names every operation the patch parser knows (read from the
 * parser's own error message, not from a list kept here).
 */
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../src/cli/commands'
import { run } from '../src/cli/main'
import { parseCommand } from '../src/cli/usage'
import { runCli } from './support/cli'

async function cli(...argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const status = await run(argv, {
    out: (s) => (stdout += typeof s === 'string' ? s : Buffer.from(s).toString()),
    err: (s) => (stderr += s),
  })
  return { status, stdout, stderr }
}

describe('help', () => {
  it.each(COMMANDS.map((c) => ({ name: c.name, c })))(
    '$name --help, -h and help $name print its usage with every flag its parser accepts',
    async ({ name, c }) => {
      const [long, short, viaHelp] = await Promise.all([cli(name, '--help'), cli(name, '-h'), cli('help', name)])
      for (const r of [long, short, viaHelp]) {
        expect(r.status).toBe(0)
        expect(r.stderr).toBe('')
      }
      expect(short.stdout).toBe(long.stdout)
      expect(viaHelp.stdout).toBe(long.stdout)
      const text = long.stdout
      expect(text).toMatch(new RegExp(`^usage: inbox-inspector ${name}\\b`))
      for (const f of c.flags) {
        expect(text).toContain(`--${f.name}`)
        // The parser accepts exactly the flags of the table.
        expect(() => parseCommand(c, f.type === 'boolean' ? [`--${f.name}`] : [`--${f.name}`, 'x'])).not.toThrow()
      }
      expect(text).toContain('--max-input')
      expect(() => parseCommand(c, ['--not-a-flag-of-any-command'])).toThrow(/Unknown option/)
    },
  )

  it('help after other arguments wins: a command line with --help runs nothing', async () => {
    const r = await cli('replay', '--json', '/no/such/file', '--help')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: inbox-inspector replay/)
  })

  it("edit's usage names every operation of the patch parser", async () => {
    const bad = await cli('edit', '--ops', '[{"op":"frob","seq":"1"}]', 'test/fixtures/valid-full-life.json')
    expect(bad.status).toBe(2)
    const ops = /must be one of ([a-z, -]+?), not/.exec(bad.stderr)?.[1]?.split(', ')
    expect(ops?.length).toBeGreaterThanOrEqual(8)
    const help = (await cli('edit', '--help')).stdout
    for (const op of ops!) expect(help).toContain(`"op":"${op}"`)
  })

  it('key --help names both operations', async () => {
    const help = (await cli('key', '--help')).stdout
    expect(help).toMatch(/key import /)
    expect(help).toMatch(/key export --format hex\|bytes/)
  })

  it('the overview lists every subcommand; help with no subcommand exits 0, no arguments at all exit 2', async () => {
    const [help, dashes, none] = await Promise.all([cli('help'), cli('--help'), cli()])
    expect(help.status).toBe(0)
    expect(dashes.stdout).toBe(help.stdout)
    for (const c of COMMANDS) expect(help.stdout).toContain(`\n  ${c.synopsis[0]}`)
    expect(none.status).toBe(2)
    expect(none.stderr).toBe(help.stdout)
  })

  it('help of an unknown subcommand is a usage error (exit 2, one line)', async () => {
    const r = await cli('help', 'frobnicate')
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^error: help: unknown subcommand "frobnicate"/)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('a usage error points at the subcommand’s own help', async () => {
    const r = await cli('watch', '--frob')
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/Unknown option '--frob'.*watch --help/)
  })

  it('the process: edit --help exits 0 (it once failed with "Unknown option")', async () => {
    const r = await runCli(['edit', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout.toString()).toMatch(/^usage: inbox-inspector edit/)
    expect(r.stderr).toBe('')
  })
})
