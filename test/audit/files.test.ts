/**
 * `audit` over files and directories (../shared/contracts/cli.md `audit`): the fixture
 * corpus as one directory gives, per inbox, the verdict `replay` gives (ok, the first row
 * that is not `applied`, the head state's digest); an unreadable file is one `unreadable`
 * row and does not stop the audit; a directory is read recursively; usage errors exit 2.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { tempDir } from '../devnode/harness'
import { auditRun, fixtureDir, killAll, parseReport } from './support'

const tmp = tempDir('audit-files-')
afterAll(() => {
  killAll()
  tmp.remove()
})

interface ReplayRow {
  sequence_id: string
  status: string
  rule: string | null
  action_index: number | null
  message: string
}

describe('audit over the fixture corpus', () => {
  it('gives each inbox the verdict and head state replay gives, and one unreadable row per unreadable file', async () => {
    const dir = tmp.path('fixtures')
    const files = fixtureDir(dir)
    const audit = await auditRun(['audit', '--json', '--jobs', '2', dir])
    expect(audit.code, audit.stderr).toBe(0)
    const { rows, summary } = audit.report!
    expect(audit.stdout.trim().split('\n').at(-1)).toMatch(/^\{"summary":/)
    const unreadable = rows.filter((r) => (r.first_failure as { status: string } | null)?.status === 'unreadable')
    const readable = files.filter((f) => !unreadable.some((u) => u.source === f))
    const replay = await runCli(['replay', '--json', ...readable], { timeoutMs: 120_000 })
    expect(replay.code, replay.stderr).toBe(0)
    const reports = replay.stdout
      .toString('utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { file: string; inbox_id: string | null; ok: boolean; updates: ReplayRow[]; state: unknown },
      )
    expect(rows.length).toBe(reports.length + unreadable.length)
    for (const rep of reports) {
      const row = rows.find((r) => r.source === rep.file && r.inbox_id === rep.inbox_id)
      expect(row, `${rep.file} ${rep.inbox_id}`).toBeDefined()
      const first = rep.updates.find((u) => u.status !== 'applied') ?? null
      expect(row).toMatchObject({
        ok: rep.ok,
        updates: rep.updates.length,
        head: rep.updates.at(-1)?.sequence_id ?? null,
        members: (rep.state as { members: unknown[] } | null)?.members.length ?? 0,
        state_digest: createHash('sha256').update(JSON.stringify(rep.state)).digest('hex'),
        first_failure: first && {
          sequence_id: first.sequence_id,
          status: first.status,
          rule: first.rule,
          action_index: first.action_index,
          message: first.message,
        },
      })
    }
    for (const u of unreadable) {
      const alone = await runCli(['replay', '--json', u.source as string])
      expect(alone.code).toBe(1)
    }
    expect(summary).toMatchObject({
      inboxes: rows.length,
      ok: rows.filter((r) => r.ok).length,
      unreadable: unreadable.length,
      updates: rows.reduce((n, r) => n + (r.updates as number), 0),
    })
    expect((summary!.rejected as number) + (summary!.pending as number)).toBe(
      rows.filter((r) => !r.ok).length - unreadable.length,
    )
  })

  it('reads a directory recursively, keeps going past an unreadable file, and exits 1 when nothing is readable', async () => {
    const dir = tmp.path('nested')
    fixtureDir(join(dir, 'a', 'b'))
    mkdirSync(join(dir, 'c'), { recursive: true })
    writeFileSync(join(dir, 'c', 'broken.json'), '{"updates": [')
    const r = await auditRun(['audit', '--json', '--jobs', '1', dir])
    expect(r.code).toBe(0)
    const broken = r.report!.rows.find((x) => x.source === join(dir, 'c', 'broken.json'))
    expect(broken).toMatchObject({ ok: false, inbox_id: null, first_failure: { status: 'unreadable' } })
    expect(r.report!.rows.filter((x) => String(x.source).startsWith(join(dir, 'a', 'b'))).length).toBeGreaterThan(60)
    const none = await auditRun(['audit', '--json', join(dir, 'c'), tmp.path('missing.json')])
    expect(none.code).toBe(1)
    expect(parseReport(none.stdout).summary).toMatchObject({ inboxes: 2, unreadable: 2 })
    expect(none.stderr).toMatch(/no input could be read/)
  })

  it('--against an earlier report marks nothing when nothing changed, and refuses a file that is not a report', async () => {
    const dir = tmp.path('against')
    fixtureDir(dir)
    const first = await auditRun(['audit', '--json', dir])
    const report = tmp.path('against.jsonl')
    writeFileSync(report, first.stdout)
    const again = await auditRun(['audit', '--json', '--against', report, dir])
    expect(again.code).toBe(0)
    for (const r of again.report!.rows) expect(r.changed).toEqual([])
    expect(again.report!.summary!.changed).toEqual({ new: 0, verdict: 0, state: 0, log: 0, gone: 0 })
    writeFileSync(tmp.path('not-a-report.txt'), 'hello\n')
    const bad = await auditRun(['audit', '--json', '--against', tmp.path('not-a-report.txt'), dir])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/--against .*line 1 is not JSON/)
  })

  it('refuses a wrong command line with exit status 2', async () => {
    for (const args of [
      ['audit', tmp.path('x')],
      ['audit', '--json'],
      ['audit', '--json', '--jobs', '0', tmp.path('x')],
      ['audit', '--json', '--db', 'a.db', '--store', 'postgres://x/y', tmp.path('x')],
      ['audit', '--json', '--store', 'mysql://x', tmp.path('x')],
      ['audit', '--json', '--node', 'http://127.0.0.1:1', '--api', 'identity'],
      ['audit', '--json', '--node', 'http://127.0.0.1:1', tmp.path('x')],
      ['audit', '--json', '--follow', tmp.path('x')],
      ['audit-worker'],
    ]) {
      const r = await auditRun(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/^error: .*usage/)
    }
  })
})
